# ---- diffsched check-patch (issue 25; docs/check-patch.md) -------------------
# The patch reader on every input form and hostile ones, the report formats
# parsed back (nlohmann-json), and the CLI end to end on the project's tree
# (made below) and patches (properties/patch/inputs): equivalent, broken, a
# series, a page, a pick, bad inputs; the KTAP output checked by the kernel's
# own parser, kunit.py, extracted at test time from Debian's linux-source-6.1
# (never committed).
#
# The tree, made here at configure time: kernel/sched/cpudeadline.c and fair.c
# are kshim/examples/cpudl/v4.9-hole.c and pick/named.c without their
# `// expect:` lines (the example files' own tests, which the tree is not),
# so no copy of them is committed; kernel/sched/topology.c and level.c are the
# project's (properties/patch/tree). The patches of properties/patch/inputs apply to it.
set(check_patch_tree ${CMAKE_CURRENT_BINARY_DIR}/patch-tree)
# kernel/sched/loadbalance.c is kshim/examples/fn/pairs/first-and-and/old.c
# (without its `// fn-expect:` line), for the fn route's patches.
foreach(pair "cpudl/v4.9-hole.c|cpudeadline.c" "pick/named.c|fair.c"
             "fn/pairs/first-and-and/old.c|loadbalance.c")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  set(from ${PROJECT_SOURCE_DIR}/kshim/examples/${from})
  file(READ ${from} text)
  string(REGEX REPLACE "\n// expect:[^\n]*" "" text "${text}")
  string(REGEX REPLACE "^// fn-expect:[^\n]*\n" "" text "${text}")
  file(WRITE ${check_patch_tree}/kernel/sched/${to} "${text}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${from})
endforeach()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/patch/tree/kernel/sched/topology.c
               ${check_patch_tree}/kernel/sched/topology.c COPYONLY)
# kernel/sched/level.c: a function diffsched fn cannot check (fn-patch.sh's
# nothing-checkable case).
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/patch/tree/kernel/sched/level.c
               ${check_patch_tree}/kernel/sched/level.c COPYONLY)
diffsched_add_property(patch_tests SOURCES patch/parse_test.cpp patch/check_test.cpp
                       LABELS "unit;patch")
target_link_libraries(patch_tests PRIVATE diffsched_patch)
target_compile_definitions(patch_tests PRIVATE
                           DIFFSCHED_PATCH_INPUTS="${CMAKE_CURRENT_SOURCE_DIR}/patch/inputs"
                           DIFFSCHED_PATCH_TREE="${check_patch_tree}")

set(check_patch_script ${CMAKE_CURRENT_SOURCE_DIR}/patch/check-patch-cli.sh)
set(check_patch_kunit ${CMAKE_BINARY_DIR}/kunit)
# kunit.py parse: only tools/testing/kunit of the installed kernel source.
add_test(NAME patch.kunit-parser
         COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} kunit-parser ${check_patch_tree})
set_tests_properties(patch.kunit-parser PROPERTIES FIXTURES_SETUP kunit_parser LABELS patch
                     TIMEOUT 300)
# Cases that need no harness (bad inputs, nothing checkable).
foreach(case bad-hunk bad-counts no-files empty unknown-flag missing-tree missing-patch
             base-missing base-commit-git nothing-checkable b4 list page)
  add_test(NAME patch.cli.${case}
           COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} ${case} ${check_patch_tree})
  set_tests_properties(patch.cli.${case} PROPERTIES LABELS "unit;patch" TIMEOUT 120)
endforeach()
set_tests_properties(patch.cli.nothing-checkable PROPERTIES FIXTURES_REQUIRED kunit_parser)
# Cases that run kernel-check (short: --time 1, few programs).
foreach(case equivalent-mbox broken-diff series html pick pick-and-topology ktap-finding
             fn-pick fn-pick-broken exhaustive page-finding)
  add_test(NAME patch.cli.${case}
           COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} ${case} ${check_patch_tree})
  set_tests_properties(patch.cli.${case} PROPERTIES LABELS "patch;kernel" TIMEOUT 600
                       FIXTURES_REQUIRED "kcheck_harness;kunit_parser")
endforeach()
# --in-kernel: the patched file in a booted kernel too (one guest boot per run;
# two runs, about 30 s each here).
add_test(NAME patch.cli.in-kernel
         COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} in-kernel ${check_patch_tree})
set_tests_properties(patch.cli.in-kernel PROPERTIES LABELS "patch;inkernel" TIMEOUT 900 SKIP_RETURN_CODE 77
                     FIXTURES_REQUIRED "kcheck_harness;kunit_parser")
# The real b4 am (Debian 12's b4 0.12; an installed dependency: missing, the
# test fails) offline on fn-pick.mbox, its .mbx checked (a few seconds).
add_test(NAME patch.cli.b4-am
         COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} b4-am ${check_patch_tree})
set_tests_properties(patch.cli.b4-am PROPERTIES LABELS "unit;patch" TIMEOUT 120)
# The seed pages (section 4) are outside the repository. They are looked for
# in DIFFSCHED_SEEDS_DIR (a cache variable, or the environment variable of
# that name at configure time), else ../shared/seeds beside the source tree,
# else /work/shared/seeds. patch.cli.seeds is always registered: without the
# pages it is a test that fails naming the directories looked in (never absent
# or passing), and configure says so in one line. scripts/check-fresh-machine.sh
# copies the host's seeds into its root and sets DIFFSCHED_SEEDS_DIR there.
set(check_patch_seed_dirs)
if(DIFFSCHED_SEEDS_DIR)
  list(APPEND check_patch_seed_dirs "${DIFFSCHED_SEEDS_DIR}")
elseif(DEFINED ENV{DIFFSCHED_SEEDS_DIR} AND NOT "$ENV{DIFFSCHED_SEEDS_DIR}" STREQUAL "")
  list(APPEND check_patch_seed_dirs "$ENV{DIFFSCHED_SEEDS_DIR}")
else()
  list(APPEND check_patch_seed_dirs "${PROJECT_SOURCE_DIR}/../shared/seeds" "/work/shared/seeds")
endif()
set(check_patch_seeds_found "")
foreach(dir IN LISTS check_patch_seed_dirs)
  get_filename_component(dir "${dir}" ABSOLUTE)
  file(GLOB s0 "${dir}/000_*.txt")
  file(GLOB s4 "${dir}/004_*.txt")
  if(s0 AND s4)
    set(check_patch_seeds_found "${dir}")
    break()
  endif()
endforeach()
if(check_patch_seeds_found)
  set(DIFFSCHED_SEEDS_DIR "${check_patch_seeds_found}" CACHE PATH
      "the two seed pages of issue 25 (000_*.txt, 004_*.txt), for the patch.cli.seeds test")
  add_test(NAME patch.cli.seeds
           COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} seeds ${check_patch_tree})
  set_tests_properties(patch.cli.seeds PROPERTIES LABELS "unit;patch" TIMEOUT 120
                       ENVIRONMENT "SEEDS_DIR=${check_patch_seeds_found}")
else()
  string(REPLACE ";" ", " check_patch_seed_dirs_text "${check_patch_seed_dirs}")
  message(STATUS "diffsched check-patch: no seed pages (000_*.txt and 004_*.txt) in ${check_patch_seed_dirs_text}: patch.cli.seeds will fail (set DIFFSCHED_SEEDS_DIR)")
  add_test(NAME patch.cli.seeds
           COMMAND ${CMAKE_COMMAND} -E echo "FAIL (seeds): no seed pages (000_*.txt and 004_*.txt) in ${check_patch_seed_dirs_text}; set DIFFSCHED_SEEDS_DIR")
  set_tests_properties(patch.cli.seeds PROPERTIES LABELS "unit;patch" TIMEOUT 120
                       FAIL_REGULAR_EXPRESSION "FAIL \\(seeds\\)")
endif()
# export --ktap-module (section 3): a finding of kernel-check and a directory
# of programs as two kselftest-style test modules, built with kbuild and loaded
# in one QEMU guest (export --boot); the console's KTAP read by kunit.py parse
# (properties/patch/ktap-module.sh). One boot, two kbuild runs.
add_test(NAME patch.ktap-module.guest
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/patch/ktap-module.sh $<TARGET_FILE:diffsched>
                 ${PROJECT_SOURCE_DIR} ${check_patch_kunit})
set_tests_properties(patch.ktap-module.guest PROPERTIES LABELS "patch;inkernel" TIMEOUT 900
                     SKIP_RETURN_CODE 77 FIXTURES_REQUIRED "kcheck_harness;kunit_parser")
# One module alone in one boot (the checked-in seeds against the fixed file;
# its KTAP, plan 1..1, read by kunit.py): about 25 s here.
add_test(NAME patch.ktap-module.alone
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/patch/ktap-module-alone.sh $<TARGET_FILE:diffsched>
                 ${PROJECT_SOURCE_DIR} ${check_patch_kunit})
set_tests_properties(patch.ktap-module.alone PROPERTIES LABELS "patch;inkernel" TIMEOUT 300
                     SKIP_RETURN_CODE 77 FIXTURES_REQUIRED kunit_parser)
# Its bad inputs: one line, exit 2, nothing written.
add_test(NAME patch.ktap-module.bad-input
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/patch/ktap-bad-input.sh $<TARGET_FILE:diffsched>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(patch.ktap-module.bad-input PROPERTIES LABELS "unit;patch" TIMEOUT 120)
