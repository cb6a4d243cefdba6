# ---- diffsched fn: counted cost, and perf findings minimised ----------------
# (docs/fn.md "Cost"). The harness counts each call's callback calls and,
# through -fsanitize-coverage=trace-loads,trace-stores, its memory
# operations; neither is compared, and --max-cost-ratio / --max-mem-ratio
# turn an input where new's count is above R times old's into a finding,
# minimised while new stays above R. Included from properties/CMakeLists.txt
# after fn-elements.cmake (fn_expect).
set(fn_mh ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/min-heap-sift)
set(fn_wa ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/weight-and)
# Both sides' memory operations are counted (not zero) on an equivalent pair.
add_test(NAME fn.perf.mem-counted
         COMMAND ${fn_expect} 0 "^cost \\(memory operations\\): old [1-9][0-9]*, new [1-9][0-9]* in all" --
                 --old ${fn_wa}/old.c --new ${fn_wa}/new.c --function update_group_allowed)
# A function small enough for clang to inline into the harness (one load of
# a global): counted all the same (it counted 0 when inlined), and equal
# counts are 1.00x, not 0.00x.
add_test(NAME fn.perf.mem-counted.small
         COMMAND ${fn_expect} 0 "^cost \\(memory operations\\): old [1-9][0-9]*, new [1-9][0-9]* in all \\(1\\.00x\\)" --
                 --old ${fn_in}/extern-knob.c --new ${fn_in}/extern-knob-new.c --function knob_scaled
                 --spec ${fn_in}/extern-knob.fnspec)
# The bottom-up sift on equal keys: more memory operations than the
# top-down sift's early stop; the input is minimised and its replay line
# (run again by fn-expect.sh) is a finding too.
add_test(NAME fn.perf.mem-ratio.min-heap-sift
         COMMAND ${fn_expect} 1 "^verdict: finding: perf: new makes [0-9]+ memory operations where old makes [0-9]+ .* minimised$" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --max-mem-ratio 4)
# The same pair's callback-count finding, minimised (9 rounds here; 48 at most).
add_test(NAME fn.perf.cost-ratio.minimised
         COMMAND ${fn_expect} 1 "^minimised \\([0-9]+ rounds?, [0-9]+ candidates run, new still above 3x old\\):" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --max-cost-ratio 3)
# Its first element is a scalar whose finding holds for any negative value:
# minimised to the boundary, -1 (halfway-or-one-step stopped at -5126 after
# 48 rounds; src/fn/minimize.cpp, scalar_edits).
add_test(NAME fn.perf.cost-ratio.minimised-to-boundary
         COMMAND ${fn_expect} 1 "^replay: .* --input 'nr_cpu_ids=1 heap=&\\{nr=16 size=16 data=\\[-1, 0 x15\\]\\} pos=0" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --max-cost-ratio 3)
set_tests_properties(fn.perf.cost-ratio.minimised-to-boundary PROPERTIES LABELS "fn;regression" TIMEOUT 300)
# A ratio that nothing exceeds: no finding, exit 0.
add_test(NAME fn.perf.mem-ratio.not-exceeded
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --max-mem-ratio 1000)
set_tests_properties(fn.perf.mem-counted fn.perf.mem-counted.small fn.perf.mem-ratio.min-heap-sift fn.perf.cost-ratio.minimised
                     fn.perf.mem-ratio.not-exceeded PROPERTIES LABELS "fn;regression" TIMEOUT 300)
# --clock: a second build per side (-O2, no sanitizer) times every input both
# sides ran without a fault; the line names the inputs timed (all 300 here).
# Timed, never asserted: only the line's form is checked.
add_test(NAME fn.perf.clock
         COMMAND ${fn_expect} 0 "^clock \\(-O2 without sanitizers, the least of 5 runs of each call, 300 inputs\\): old [0-9]+ ns, new [0-9]+ ns in all" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --clock 5)
# A side that faults: its faulting inputs are never run in the unsanitized
# timing build; the finding stands, and the clock line says what was timed.
set(fn_nth ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/nth-cpu)
add_test(NAME fn.perf.clock-skips-faults
         COMMAND ${fn_expect} 1 "^clock: not timed|^clock \\(-O2 without sanitizers, the least of 3 runs of each call, [0-9]+ inputs\\)" --
                 --old ${fn_nth}/old.c --new ${fn_nth}/new.c --function find_nth_near_cpu --clock 3)
# The same run's second clock line: the harness's whole work per input (the
# arguments drawn, the call, its record made) against the calls alone.
add_test(NAME fn.perf.clock-harness
         COMMAND ${fn_expect} 0 "^clock, the harness's whole work per input \\(arguments drawn, the call, its record made\\): old [1-9][0-9]* ns, new [1-9][0-9]* ns in all, [0-9]+\\.[0-9][0-9]x the calls alone" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --clock 5)
set_tests_properties(fn.perf.clock fn.perf.clock-skips-faults fn.perf.clock-harness PROPERTIES LABELS "fn;regression" TIMEOUT 300)
# --search-worst: from one generated input (1.00x), growing mutations climb
# to the all-equal full heap, new's memory operations above 5x old's: a perf
# finding found by the search alone (the control without it: equivalent).
# `diffsched perf fn` is the same run with the search on by default.
add_test(NAME fn.perf.search-worst.climbs
         COMMAND ${fn_expect} 1 "^search-worst \\(memory operations\\): [0-9]+ rounds, [0-9]+ inputs run: the largest new/old [0-9.]+x \\(old [0-9]+, new [0-9]+\\), from 1\\.00x .*; input 1, appended$" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --runs 1 --search-worst 50 --max-mem-ratio 5)
add_test(NAME fn.perf.search-worst.control
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(1 inputs" --
                 --old ${fn_mh}/old.c --new ${fn_mh}/new.c --function int_heap_sift_down
                 --spec ${fn_mh}/spec.fnspec --runs 1 --max-mem-ratio 5)
add_test(NAME fn.perf.search-worst.via-perf
         COMMAND sh -c "$0 perf fn --old $1/old.c --new $1/new.c --function int_heap_sift_down --spec $1/spec.fnspec --runs 1 --max-mem-ratio 5 >perf-fn.log 2>&1; rc=$?; cat perf-fn.log; [ $rc -eq 1 ] && grep -q '^search-worst (memory operations): .*; input 1, appended$' perf-fn.log && grep -q '^verdict: finding: perf: new makes [0-9]* memory operations' perf-fn.log"
                 $<TARGET_FILE:diffsched> ${fn_mh}
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# One given call has nothing to search from: refused, one line, exit 2.
add_test(NAME fn.perf.search-worst.with-input
         COMMAND sh -c "$0 fn --old $1/old.c --new $1/new.c --function int_heap_sift_down --search-worst 5 --input x >sw-input.log 2>&1; rc=$?; cat sw-input.log; [ $rc -eq 2 ] && [ $(wc -l <sw-input.log) -eq 1 ] && grep -q '^diffsched: error: --search-worst excludes --input' sw-input.log"
                 $<TARGET_FILE:diffsched> ${fn_mh}
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(fn.perf.search-worst.climbs fn.perf.search-worst.control
                     fn.perf.search-worst.via-perf fn.perf.search-worst.with-input
                     PROPERTIES LABELS "fn;regression" TIMEOUT 300)
