# ---- diffsched fn --fuzz: the pair as one libFuzzer target ------------------
# (docs/fn.md "Fuzzing", src/fn/fuzz.h). Included from properties/CMakeLists.txt
# after fn-perf.cmake (fn_expect, fn_in). The 300 generated inputs come
# first, so a finding at input 300 is the fuzzer's: the input it stopped on,
# decoded, run again in the two harness processes and minimised there (and
# fn-expect.sh runs the printed replay line, which must exit 1 too).
# A difference keyed on a 32-bit value the generator does not draw.
add_test(NAME fn.fuzz.finds-narrow-difference
         COMMAND ${fn_expect} 1 "^first divergence: input 300$" --
                 --old ${fn_in}/fuzz-cookie.c --new ${fn_in}/fuzz-cookie-new.c --function pick_cookie_cpu
                 --fuzz 120)
# A fault on that value only: one side's sanitizer report stops the fuzzer,
# and fn classifies it as it does any fault.
add_test(NAME fn.fuzz.finds-narrow-fault
         COMMAND ${fn_expect} 1 "^verdict: finding: new faults where old does not, on input 300 \\(" --
                 --old ${fn_in}/fuzz-cookie.c --new ${fn_in}/fuzz-cookie-fault.c --function pick_cookie_cpu
                 --fuzz 120)
# The fuzzer compares at the run's level: the order change of equal keys is
# no stop at `sorted` (the header says how many inputs it ran, and not
# "stopped on"), and the verdict is the level's.
set(fn_ht ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/heapsort-ties)
add_test(NAME fn.fuzz.compares-at-level
         COMMAND ${fn_expect} 0 "then libFuzzer for [0-9.]+ s: [1-9][0-9]* inputs, [0-9]+/s\\), level sorted$" --
                 --old ${fn_ht}/old.c --new ${fn_ht}/new.c --function sort_cpu_loads --level sorted --fuzz 4)
# One given call has nothing to fuzz from; a time of 0 is refused.
add_test(NAME fn.fuzz.bad-input
         COMMAND ${fn_expect} 2 "^diffsched: error: --fuzz excludes --input" --
                 --old ${fn_in}/fuzz-cookie.c --new ${fn_in}/fuzz-cookie-new.c --function pick_cookie_cpu
                 --fuzz 5 --input "nr_cpu_ids=1 cookie=0 allowed=&{}")
add_test(NAME fn.fuzz.bad-time
         COMMAND ${fn_expect} 2 "^diffsched: error: --fuzz: Value 0 not in range" --
                 --old ${fn_in}/fuzz-cookie.c --new ${fn_in}/fuzz-cookie-new.c --function pick_cookie_cpu --fuzz 0)
set_tests_properties(fn.fuzz.finds-narrow-difference fn.fuzz.finds-narrow-fault fn.fuzz.compares-at-level
                     fn.fuzz.bad-input fn.fuzz.bad-time PROPERTIES LABELS "fn;regression" TIMEOUT 400)
# campaign --fn: the pairs after the subjects' targets (the fuzz preset's
# binaries, built by the kcheck_harness fixture).
add_test(NAME fn.campaign
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fn/campaign-fn.sh $<TARGET_FILE:diffsched>
                 ${PROJECT_SOURCE_DIR}/build-fuzz/fuzz ${PROJECT_SOURCE_DIR})
set_tests_properties(fn.campaign PROPERTIES FIXTURES_REQUIRED kcheck_harness LABELS "fn;campaign" TIMEOUT 600)
