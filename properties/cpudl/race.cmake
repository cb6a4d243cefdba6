# `diffsched race cpudl` (issue 26) and race targets in replay: the CLI's
# program and --exhaustive forms, its bad input, and the tie-aware classes.
add_test(NAME race.cli.cpudl.program
         COMMAND diffsched race cpudl ${PROJECT_SOURCE_DIR}/corpus/regressions/cpudl/race-clear-root.ops)
add_test(NAME race.cli.cpudl.exhaustive-same-state
         COMMAND diffsched race cpudl --exhaustive --cpus 3 --deadlines 2 --max-ops 4 --same-state)
add_test(NAME race.cli.cpudl.exhaustive-tie
         COMMAND sh -c "$<TARGET_FILE:diffsched> race cpudl --exhaustive --cpus 3 --deadlines 2 --max-ops 3; test $? -eq 1")
add_test(NAME race.cli.cpudl.bad-input
         COMMAND sh -c "$<TARGET_FILE:diffsched> race cpudl; test $? -eq 2 && $<TARGET_FILE:diffsched> race cpudl --exhaustive --cpus 40; test $? -eq 2 && for b in '--cpus 4' '--deadlines 3' '--domain wrap63' '--max-ops 5'; do $<TARGET_FILE:diffsched> race cpudl $b ${PROJECT_SOURCE_DIR}/corpus/regressions/cpudl/race-clear-root.ops; test $? -eq 2 || exit 1; done")
# replay --target of a race target judges the file by the target's own check
# (the lockstep never shows a reader finding), as the campaign's reproducer
# line says; the lockstep's views are refused.
add_test(NAME race.replay-target
         COMMAND sh -c "d=$<TARGET_FILE:diffsched>; f=${PROJECT_SOURCE_DIR}/corpus/regressions/cpudl/race-tie-clear.ops; $d replay --target cpudl_race $f | grep -q '^no finding after 7 ops' && $d replay --target cpudl_race --expect ok $f >/dev/null && { $d replay --target cpudl_race --expect cpudl:reader:stale:clear $f >/dev/null; test $? -eq 1; } && for o in --json --tree --stats --check-expect '--level exact'; do $d replay --target cpudl_race $o $f 2>/dev/null; test $? -eq 2 || exit 1; done && for e in cpudl:reader:torn cpudl:reader:bogus:set; do $d replay --target cpudl_race --expect $e $f 2>/dev/null; test $? -eq 2 || exit 1; done && { $d replay --expect cpudl:reader:stale:clear $f 2>/dev/null; test $? -eq 2; } && sed '/^cpus/a level deadline' $f | $d replay -q --target cpudl_race - | grep -qx 'no finding after 7 ops'")
# The AFL++ finding of 2026-12-06: a tied maximum at the root is a consistent
# answer at the deadline level, from the same state (as the fuzz target runs)
# and along each side's own program.
add_test(NAME race.cli.cpudl.tie-clear
         COMMAND sh -c "for s in --same-state ''; do $<TARGET_FILE:diffsched> race cpudl $s ${PROJECT_SOURCE_DIR}/corpus/regressions/cpudl/race-tie-clear.ops | grep -q '^no finding' || exit 1; done")
