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
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*the spec says `param tl.mask fn level_weight`, but \\*parameter `tl` of span_sane_pairs\\(\\).mask is `const struct cpumask \\*\\(\\*\\)\\(int\\)`, and `level_weight` is `int \\(long\\)`" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-wrong-type.fnspec)
add_test(NAME fn.bind.missing-function
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*mask-callback.c: no function `no_such_span` is defined in it \\(a spec line binds it" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-missing.fnspec)
add_test(NAME fn.bind.spec-syntax
         COMMAND ${fn_expect} 2 "^diffsched: error: .*bind-syntax.fnspec:2: the form is `param NAME fn FUNCTION`" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-syntax.fnspec)
add_test(NAME fn.bind.unbound-names-the-line
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*cannot generate \\*parameter `tl` of span_sane_pairs\\(\\).mask .*`param tl.mask fn FUNCTION` \\(a function of the file, with what it reads\\)" --
                 ${fn_mc_args} --new-function span_sane_meets)
add_test(NAME fn.bind.print-spec
         COMMAND ${fn_expect} 0 "^param tl.mask fn node_span +# a function of the file" --
                 ${fn_mc_args} --new-function span_sane_meets --spec ${fn_in}/bind-node-span.fnspec --print-spec)
set_tests_properties(fn.bind.equivalent fn.bind.broken-found fn.bind.replay fn.bind.names-hidden-global
                     fn.bind.hidden-global-covered fn.bind.wrong-type fn.bind.missing-function
                     fn.bind.spec-syntax fn.bind.unbound-names-the-line fn.bind.print-spec
                     PROPERTIES LABELS "fn" TIMEOUT 300)
