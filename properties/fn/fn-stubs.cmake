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

# ---- a function of the file made a stub, a kernel option defined -----------
# (docs/fn.md "Stubs", "Spec files": `stub NAME` of a function the file
# defines, `config CONFIG_X`) on node-walk.c, task_numa_find_cpu()'s shape:
# the helper's calls compared, the rewrite equivalent, the broken walk found
# on its calls; the option's absence named with the spec line that fixes it;
# each misuse exit 2 with one line.
set(fn_nw --old ${fn_in}/node-walk.c --function node_walk)
add_test(NAME fn.stub.file-fn.equivalent
         COMMAND ${fn_expect} 0 "^stubs: node_cpu_better\\(\\) \\(functions of the file the spec makes stubs: results drawn from the input, calls compared\\)$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk.fnspec)
add_test(NAME fn.stub.file-fn.broken
         COMMAND ${fn_expect} 1 "^               new: call 1 of [0-9]+: node_cpu_better\\(&in0\\+0, [-0-9]+\\)   <-- differs$" --
                 ${fn_nw} --new ${fn_in}/node-walk-broken.c --spec ${fn_in}/node-walk.fnspec)
add_test(NAME fn.stub.file-fn.print-spec
         COMMAND ${fn_expect} 0 "^stub node_cpu_better input +# returns `bool`: .*; a function of the file$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk.fnspec --print-spec)
# Without the stub line the helper's table is a hidden global, as ever.
add_test(NAME fn.stub.file-fn.body-kept-without-line
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*node-walk.c: hidden global: node_walk\\(\\) reads the global `node_cpu_cost` \\(in node_cpu_better\\(\\)\\)" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk-no-stub.fnspec)
add_test(NAME fn.stub.file-fn.the-checked-function
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*node-walk.c: `stub node_walk` names the function checked$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk-stub-self.fnspec)
add_test(NAME fn.stub.file-fn.bound-too
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*bind-compat.c: `stub kind_span` and a spec line binding kind_span to a function pointer \\(`fn kind_span`\\): a function is one or the other$" --
                 --old ${fn_in}/bind-compat.c --new ${fn_in}/bind-compat.c --old-function span_weight_loop
                 --new-function span_weight_and --spec ${fn_in}/bind-and-stub.fnspec)
add_test(NAME fn.config.off-named
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*node-walk.c: no function `node_walk` is defined in it \\(it is in a block the preprocessor skips, line 26: `#ifdef CONFIG_DIFFSCHED_NODE_WALK`; the shim leaves CONFIG_DIFFSCHED_NODE_WALK off: --config CONFIG_DIFFSCHED_NODE_WALK \\(or a spec line `config CONFIG_DIFFSCHED_NODE_WALK`\\) defines it\\)$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c)
add_test(NAME fn.config.print-spec
         COMMAND ${fn_expect} 0 "^config CONFIG_DIFFSCHED_NODE_WALK +# a kernel option the shim leaves off, defined for both sides$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk.fnspec --print-spec)
add_test(NAME fn.config.bad-name
         COMMAND ${fn_expect} 2 "^diffsched: error: .*config-bad-name.fnspec:1: the form is `config CONFIG_NAME` or `config CONFIG_NAME = INTEGER`" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/config-bad-name.fnspec)
add_test(NAME fn.config.named-by-neither-file
         COMMAND ${fn_expect} 2 "^diffsched: error: the spec defines `CONFIG_NOT_IN_EITHER_FILE` \\(config\\), which neither file names$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/config-unnamed.fnspec)
# The option on the command line instead (--config), passed on to the replay.
add_test(NAME fn.config.flag
         COMMAND ${fn_expect} 1 "^replay: .* --config CONFIG_DIFFSCHED_NODE_WALK --input " --
                 ${fn_nw} --new ${fn_in}/node-walk-broken.c --spec ${fn_in}/node-walk-stub-only.fnspec
                 --config CONFIG_DIFFSCHED_NODE_WALK)
add_test(NAME fn.config.flag-conflict
         COMMAND ${fn_expect} 2 "^diffsched: error: --config CONFIG_DIFFSCHED_NODE_WALK=2: the spec defines CONFIG_DIFFSCHED_NODE_WALK = 1$" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --spec ${fn_in}/node-walk.fnspec
                 --config CONFIG_DIFFSCHED_NODE_WALK=2)
add_test(NAME fn.config.flag-bad-name
         COMMAND ${fn_expect} 2 "^diffsched: error: --config NODE_WALK: the form is --config CONFIG_NAME or --config CONFIG_NAME=INTEGER" --
                 ${fn_nw} --new ${fn_in}/node-walk-new.c --config NODE_WALK)
set_tests_properties(fn.config.flag fn.config.flag-conflict fn.config.flag-bad-name
                     PROPERTIES LABELS "fn" TIMEOUT 300)
set_tests_properties(fn.stub.file-fn.equivalent fn.stub.file-fn.broken fn.stub.file-fn.print-spec
                     fn.stub.file-fn.body-kept-without-line fn.stub.file-fn.the-checked-function
                     fn.stub.file-fn.bound-too
                     fn.config.off-named fn.config.print-spec fn.config.bad-name
                     fn.config.named-by-neither-file PROPERTIES LABELS "fn" TIMEOUT 300)

# ---- the shim's per-CPU state as an input (docs/fn.md "Stubs", the shim's
# state): the run queues zeroed before every input unless `global runqueues
# input` draws them; a bug that only busy run queues show is found with the
# line and not without; the shim's other state cannot be covered; every
# input starts from a zeroed shim whatever the call before it wrote.
set(fn_rq --old ${fn_in}/rq-busiest.c --function busiest_cpu)
add_test(NAME fn.shim-state.zeroed-equivalent
         COMMAND ${fn_expect} 0 "^shim state read: nr_cpu_ids, runqueues \\(the shim's values" --
                 ${fn_rq} --new ${fn_in}/rq-busiest-broken.c)
add_test(NAME fn.shim-state.drawn-found
         COMMAND ${fn_expect} 1 "^minimised .*the same finding `differs:return`" --
                 ${fn_rq} --new ${fn_in}/rq-busiest-broken.c --spec ${fn_in}/rq-busy.fnspec)
add_test(NAME fn.shim-state.drawn-equivalent
         COMMAND ${fn_expect} 0 "^shim state read: nr_cpu_ids \\(the shim's values" --
                 ${fn_rq} --new ${fn_in}/rq-busiest.c --spec ${fn_in}/rq-busy.fnspec)
add_test(NAME fn.shim-state.field-typo
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*rq-busiest.c: the spec names `runqueues\\[\\].nr_runing`, which is no value of global `runqueues` \\(below `runqueues\\[\\]`: runqueues\\[\\].__lock, runqueues\\[\\].nr_running," --
                 ${fn_rq} --new ${fn_in}/rq-busiest.c --spec ${fn_in}/rq-typo.fnspec)
add_test(NAME fn.shim-state.per-cpu-constant
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec covers global `runqueues`, which is the shim's: a per-CPU one can be an input \\(`global runqueues input`\\), not a constant or a function$" --
                 ${fn_rq} --new ${fn_in}/rq-busiest.c --spec ${fn_in}/rq-constant.fnspec)
add_test(NAME fn.shim-state.not-per-cpu
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec covers global `nr_cpu_ids`, which is the shim's and set per input" --
                 ${fn_rq} --new ${fn_in}/rq-busiest.c --spec ${fn_in}/shim-nr-cpu-ids.fnspec)
add_test(NAME fn.shim-state.reset
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 --old ${fn_in}/rq-count.c --new ${fn_in}/rq-count-zero.c --function enqueue_count)
set_tests_properties(fn.shim-state.zeroed-equivalent fn.shim-state.drawn-found
                     fn.shim-state.drawn-equivalent fn.shim-state.field-typo
                     fn.shim-state.per-cpu-constant fn.shim-state.not-per-cpu fn.shim-state.reset
                     PROPERTIES LABELS "fn" TIMEOUT 300)
