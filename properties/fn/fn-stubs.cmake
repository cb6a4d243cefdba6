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
set_tests_properties(fn.stub.drawn-from-input fn.stub.drawn-from-input.other fn.stub.divergent-calls
                     fn.stub.print-spec fn.stub.ungeneratable PROPERTIES LABELS "fn" TIMEOUT 300)
