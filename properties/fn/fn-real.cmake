# ---- diffsched fn on the real kernel/sched/fair.c (docs/fn.md, real-file rows)
# Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz) gives the file
# at test time, real-fair/edit-fair.py the project-written edits; a missing
# tarball is a failure naming the package, never a skip. Each case builds two
# harnesses of the real function (a few seconds) and extracts the file (10 s).
set(fn_real_script ${CMAKE_CURRENT_SOURCE_DIR}/fn/real-fair/fn-real.sh $<TARGET_FILE:diffsched>
                   ${PROJECT_SOURCE_DIR})
foreach(case can-migrate-task can-migrate-task-broken select-idle-cpu select-idle-cpu-mask-only
             select-idle-cpu-hidden
             find-idlest-group find-idlest-group-broken find-idlest-group-busy task-numa-find-cpu
             task-numa-find-cpu-broken patch)
  add_test(NAME fn.real.${case} COMMAND ${fn_real_script} ${case})
  set_tests_properties(fn.real.${case} PROPERTIES LABELS "fn;real" TIMEOUT 600)
endforeach()
# Two minimisations of 48 rounds over 128 drawn run queues (the run's and
# its replay's): about 4 min each here.
set_tests_properties(fn.real.find-idlest-group-busy PROPERTIES TIMEOUT 1200)
