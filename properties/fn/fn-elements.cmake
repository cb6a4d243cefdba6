# ---- diffsched fn: untyped element arrays and the sort API's callbacks ------
# (docs/fn.md "Spec files": `elements`, `cmp`, `swap`, `null`), on the
# example pair sort-void-ties (its own fn.pair.* tests run it with its spec).
# Included from properties/CMakeLists.txt after fn-patch.cmake (fn_expect,
# fn_in, fn_patch_script).
set(fn_sv ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/sort-void-ties)
# No spec: `void *base, size_t num, size_t size` and the cmp/swap callbacks
# are inferred (int tagged elements, size fixed to 8).
add_test(NAME fn.elements.inferred
         COMMAND ${fn_expect} 0 "^verdict: equivalent at `sorted`, divergent at `exact`" --
                 --old ${fn_sv}/old.c --new ${fn_sv}/new.c --function sort_elems --level sorted)
# A NULL swap callback: the function's own bytewise swap.
add_test(NAME fn.elements.null-swap
         COMMAND ${fn_expect} 0 "^verdict: equivalent at `sorted`, divergent at `exact`" --
                 --old ${fn_sv}/old.c --new ${fn_sv}/new.c --function sort_elems
                 --spec ${fn_in}/sort-void-null-swap.fnspec)
# An element size that does not match the type: exit 2, one line.
add_test(NAME fn.bad.elements-size
         COMMAND ${fn_expect} 2 "^diffsched: error: .*`param base elements u64 size=4`: an element of `u64` is 8 bytes" --
                 --old ${fn_sv}/old.c --new ${fn_sv}/new.c --function sort_elems
                 --spec ${fn_in}/elements-bad-size.fnspec)
# --print-spec's round trip on what was inferred (the elements, cmp, swap).
add_test(NAME fn.print-spec.sort-void-ties
         COMMAND ${fn_patch_script} print-spec-sort-void-ties sort_elems new.c)
set_tests_properties(fn.elements.inferred fn.elements.null-swap fn.bad.elements-size
                     fn.print-spec.sort-void-ties PROPERTIES LABELS "fn;regression" TIMEOUT 300)
