# ---- diffsched fn: a function pointer bound to a function of the file ------
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# `param tl.mask fn FUNCTION` (docs/fn.md "Spec files") makes FUNCTION a root
# of the closure: the pair runs through it (equivalent, and a broken variant
# found), a global it reads is named until the spec covers it, and a binding
# to a function of another type, or of none, is exit 2 with one line.
set(fn_mc ${PROJECT_SOURCE_DIR}/kshim/examples/fn/mask-callback.c)
set(fn_mc_args --old ${fn_mc} --new ${fn_mc} --old-function span_sane_pairs)
add_test(NAME fn.bind.equivalent
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-node-span.fnspec)
add_test(NAME fn.bind.broken-found
         COMMAND ${fn_expect} 1 "^replay: .* --input '.*tl=&\\{mask=node_span flags=" --
                 ${fn_mc_args} --new-function span_sane_subset --spec ${fn_in}/bind-node-span.fnspec)
add_test(NAME fn.bind.replay
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(1 inputs" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-node-span.fnspec
                 --input "nr_cpu_ids=4 node_spans=[[{0-1},{2},{},{3}],[{},{},{},{}]] tl=&{mask=node_span flags=0} cpu_map=&{0-3} cpu=0")
add_test(NAME fn.bind.names-hidden-global
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*mask-callback.c: hidden global: span_sane_pairs\\(\\) reads the global `level_curr` \\(in numa_level_span\\(\\), bound to `tl.mask`\\), which no input covers" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-numa-level.fnspec)
add_test(NAME fn.bind.hidden-global-covered
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-numa-level-covered.fnspec)
add_test(NAME fn.bind.wrong-type
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*the spec says `param tl.mask fn level_weight`, but `tl.mask`, in parameter `tl` of span_sane_pairs\\(\\) is `const struct cpumask \\*\\(\\*\\)\\(int\\)`, and `level_weight` is `int \\(long\\)`" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-wrong-type.fnspec)
add_test(NAME fn.bind.missing-function
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*mask-callback.c: no function `no_such_span` is defined in it \\(a spec line binds it" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-missing.fnspec)
add_test(NAME fn.bind.spec-syntax
         COMMAND ${fn_expect} 2 "^diffsched: error: .*bind-syntax.fnspec:2: the form is `param NAME fn FUNCTION`" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-syntax.fnspec)
add_test(NAME fn.bind.unbound-names-the-line
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*cannot generate `tl.mask`, in parameter `tl` of span_sane_pairs\\(\\) .*`param tl.mask fn FUNCTION` \\(a function of the file, with what it reads\\)" --
                 ${fn_mc_args} --new-function span_sane_meets)
add_test(NAME fn.bind.print-spec
         COMMAND ${fn_expect} 0 "^param tl.mask fn node_span +# a function of the file" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-node-span.fnspec --print-spec)
# Bindings C accepts without a cast, spelt differently: a volatile pointer
# field, an enum parameter bound to a function taking unsigned int, and
# `int (*)()` (no prototype).
set(fn_bc ${fn_in}/bind-compat.c)
add_test(NAME fn.bind.compatible-types
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 --old ${fn_bc} --new ${fn_bc} --old-function span_weight_loop
                 --new-function span_weight_and --spec ${fn_in}/bind-compat.fnspec)
# A spec line that another one contradicts, or that names no value, is exit 2
# naming it (it would otherwise be silently overridden or unused).
add_test(NAME fn.bind.spec-conflict
         COMMAND ${fn_expect} 2 "^diffsched: error: .*spec-conflict.fnspec:4: `param tl.mask null` conflicts with line 2, `param tl.mask fn node_span`: a function pointer takes one binding" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/spec-conflict.fnspec)
add_test(NAME fn.bind.spec-no-such-field
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec names `tl.flag`, which is no value of parameter `tl` of span_sane_pairs\\(\\) \\(below `tl`: tl.mask, tl.flags\\)" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/spec-no-such-field.fnspec)
# A misspelt path is named as such, before the field it meant fails to generate.
add_test(NAME fn.bind.spec-typo-binding
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec names `tl.msk`, which is no value of parameter `tl` of span_sane_pairs\\(\\) \\(below `tl`: tl.mask, tl.flags\\)" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/spec-typo-binding.fnspec)
# A function-pointer global bound with `global NAME fn FUNCTION`: the hook
# of global-callback.c, equivalent bound to twice(), a finding (replayed by
# name) bound to thrice(); unbound, the hint names the `fn` line; a spec
# line for constant data, which the function reads as initialised, is exit 2.
set(fn_gc ${fn_in}/global-callback.c)
set(fn_gc_args --old ${fn_gc} --new ${fn_gc} --old-function apply_scale --new-function apply_assume_twice)
add_test(NAME fn.bind.global-equivalent
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" -- ${fn_gc_args} --spec ${fn_in}/global-twice.fnspec)
add_test(NAME fn.bind.global-found
         COMMAND ${fn_expect} 1 "^replay: .* --input 'nr_cpu_ids=[0-9]+ scale=thrice v=" -- ${fn_gc_args} --spec ${fn_in}/global-thrice.fnspec)
add_test(NAME fn.bind.global-hint
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*hidden global: apply_scale\\(\\) reads the global `scale` .*add `global scale fn FUNCTION` \\(a function of the file\\)" -- ${fn_gc_args})
add_test(NAME fn.bind.global-constant-data
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*the spec covers global `offset`, which is constant data" -- ${fn_gc_args} --spec ${fn_in}/global-constant.fnspec)
set_tests_properties(fn.bind.equivalent fn.bind.broken-found fn.bind.replay fn.bind.names-hidden-global
                     fn.bind.hidden-global-covered fn.bind.wrong-type fn.bind.missing-function
                     fn.bind.spec-syntax fn.bind.unbound-names-the-line fn.bind.print-spec
                     fn.bind.compatible-types fn.bind.spec-conflict fn.bind.spec-no-such-field
                     fn.bind.spec-typo-binding
                     fn.bind.global-equivalent fn.bind.global-found fn.bind.global-hint
                     fn.bind.global-constant-data
                     PROPERTIES LABELS "fn" TIMEOUT 300)
# A table walked to its terminator, reached through a global (the topology
# levels, for_each_sd_topology()): `param NAME array N terminated` draws N
# levels and leaves one zeroed after them; a level's callback bound through
# the global (`param level_table[].mask fn F`) brings the globals F reads:
# named, all in one line, until covered, as on the parameter's side above.
set(fn_lt --old ${fn_in}/level-table.c --function level_table_covers)
add_test(NAME fn.table.names-table
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*level-table.c: hidden global: level_table_covers\\(\\) reads the global `level_table` \\(in level_table_covers\\(\\)\\), which no input covers \\(never given zeros\\): add `global level_table input` \\(drawn, and compared after the call\\) or `global level_table scratch`" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c)
add_test(NAME fn.table.names-hidden-global
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*level-table.c: hidden globals: level_table_covers\\(\\) reads the globals `level_table_curr` \\(in level_node_mask\\(\\), bound to `level_table\\[\\].mask`\\), `level_table_masks` \\(in level_node_mask\\(\\), bound to `level_table\\[\\].mask`\\), which no input covers \\(never given zeros\\): add `global level_table_curr input` or `global level_table_curr = VALUE`; `global level_table_masks input` \\(drawn, and compared after the call\\) or `global level_table_masks scratch`" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table-bound.fnspec)
add_test(NAME fn.table.equivalent
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table.fnspec)
add_test(NAME fn.table.broken-found
         COMMAND ${fn_expect} 1 "^verdict: finding: the sides differ at level `exact`" --
                 ${fn_lt} --new ${fn_in}/level-table-broken.c --spec ${fn_in}/level-table.fnspec)
# Without `terminated` the walk reads past the two levels: the old side
# faults on an empty map where the new one never walks (why the form exists).
add_test(NAME fn.table.unterminated-faults
         COMMAND ${fn_expect} 1 "^verdict: finding: old faults where new does not, on input [0-9]+ \\(AddressSanitizer: heap-buffer-overflow\\)$" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table-unterminated.fnspec)
add_test(NAME fn.table.print-spec
         COMMAND ${fn_expect} 0 "^param level_table array 2 terminated +# a pointer to that many and a zeroed one after them$" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table.fnspec --print-spec)
# A covered global is only its own lines (review: the param lines once, and
# no `written only` line after them).
set_tests_properties(fn.table.print-spec PROPERTIES FAIL_REGULAR_EXPRESSION "written only")
add_test(NAME fn.table.print-spec-not-covered
         COMMAND ${fn_expect} 2 "^# global level_table input +# NOT COVERED: read by level_table_covers\\(\\); choose `input` or `scratch` \\(a work area, not compared\\)$" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --print-spec)
add_test(NAME fn.table.terminated-not-a-pointer
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*the spec says `param level_table_curr array 2 terminated`, but global `level_table_curr` is not a pointer$" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table-not-pointer.fnspec)
add_test(NAME fn.table.terminated-syntax
         COMMAND ${fn_expect} 2 "^diffsched: error: .*level-table-syntax.fnspec:[0-9]+: `param NAME array N \\[terminated\\]`: N from 0 to 64" --
                 ${fn_lt} --new ${fn_in}/level-table-new.c --spec ${fn_in}/level-table-syntax.fnspec)
set_tests_properties(fn.table.names-table fn.table.names-hidden-global fn.table.equivalent
                     fn.table.broken-found fn.table.unterminated-faults fn.table.print-spec
                     fn.table.print-spec-not-covered
                     fn.table.terminated-not-a-pointer fn.table.terminated-syntax
                     PROPERTIES LABELS "fn" TIMEOUT 300)
