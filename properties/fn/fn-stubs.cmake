# ---- diffsched fn: stubs (docs/fn.md "Stubs") ------------------------------
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# An external function the shim lacks returns the input's values (the k-th
# call the k-th), each call recorded and compared: a stub drawn from the
# input (the same call, two stub values), a divergent call sequence (one more
# call, the same results), --print-spec's stub lines, and a result that
# cannot be drawn (exit 2, one line naming the spec line that fixes it).
set(fn_sc ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/stub-calls)
add_test(NAME fn.stub.drawn-from-input
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(1 inputs" --
                 --old ${fn_in}/stub-level.c --new ${fn_in}/stub-level-seven.c --function level_of
                 --input "nr_cpu_ids=1 peek_level()=[7, 0, 0, 0] cpu=3")
add_test(NAME fn.stub.drawn-from-input.other
         COMMAND ${fn_expect} 1 "^  return +old: 8" --
                 --old ${fn_in}/stub-level.c --new ${fn_in}/stub-level-seven.c --function level_of
                 --input "nr_cpu_ids=1 peek_level()=[8, 0, 0, 0] cpu=3")
add_test(NAME fn.stub.divergent-calls
         COMMAND ${fn_expect} 1 "^ +new: call [0-9]+ of [0-9]+: balance_group_note\\(&in[0-9]+\\+0, [0-9]+\\)   <-- differs" --
                 --old ${fn_sc}/old.c --new ${fn_sc}/broken.c --function group_balance_first)
add_test(NAME fn.stub.print-spec
         COMMAND ${fn_expect} 0 "^stub balance_group_span input +# returns `struct cpumask \\*`" --
                 --old ${fn_sc}/old.c --new ${fn_sc}/new.c --function group_balance_first --print-spec)
add_test(NAME fn.stub.ungeneratable
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*level_via\\(\\) calls level_lookup\\(\\), which the kernel shim lacks, and its result \\(type `level_fn`\\) is not drawn: add `stub level_lookup = 0` to a --spec file" --
                 --old ${fn_in}/stub-fn-pointer.c --new ${fn_in}/stub-fn-pointer.c --function level_via)
# An extern variable that neither the file nor the shim defines: a hidden
# global until the spec covers it (exit 2 naming the line), then defined in
# the unit and drawn from the input like any global.
set(fn_knob --old ${fn_in}/extern-knob.c --function knob_scaled)
add_test(NAME fn.stub.extern-var.hidden
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*hidden global: knob_scaled\\(\\) reads the global `some_knob`.*add `global some_knob input`" --
                 ${fn_knob} --new ${fn_in}/extern-knob-new.c)
add_test(NAME fn.stub.extern-var.input
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_knob} --new ${fn_in}/extern-knob-new.c --spec ${fn_in}/extern-knob.fnspec)
add_test(NAME fn.stub.extern-var.broken
         COMMAND ${fn_expect} 1 "^  input: nr_cpu_ids=[0-9]+ some_knob=4 cpu=" --
                 ${fn_knob} --new ${fn_in}/extern-knob-broken.c --spec ${fn_in}/extern-knob.fnspec)
set_tests_properties(fn.stub.drawn-from-input fn.stub.drawn-from-input.other fn.stub.divergent-calls
                     fn.stub.print-spec fn.stub.ungeneratable fn.stub.extern-var.hidden
                     fn.stub.extern-var.input fn.stub.extern-var.broken PROPERTIES LABELS "fn" TIMEOUT 300)

# ---- intended rows and the finding's signature (docs/fn.md "Intended") -----
# A new side with an intended difference (the return) and an undeclared one
# (*s on more than 64 CPUs): the finding is keyed on the undeclared row, so
# minimising keeps it and the replay is still a finding.
set(fn_int ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/intended)
add_test(NAME fn.intended.other-difference
         COMMAND ${fn_expect} 1 "^minimised \\(.*the same finding `differs:\\*s`" --
                 --old ${fn_int}/old.c --new ${fn_in}/intended-broken.c
                 --function select_idle_cpu_lite --spec ${fn_int}/spec.fnspec)
set_tests_properties(fn.intended.other-difference PROPERTIES LABELS "fn" TIMEOUT 300)
