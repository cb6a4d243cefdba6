# ---- diffsched fn: a ring of structs, deeper fields, a NULL data pointer ----
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# `param PATH ring FIELD N`, `depth N` and `param PATH null` on a data
# pointer (docs/fn.md "Spec files") on the pair group-ring (whose three
# files are also fn.pair.group-ring.*): the inferred spec given back, an
# input line taken back (`next=ring`), a pointer result by identity, and
# each misuse exit 2 with one line.
set(fn_gr ${PROJECT_SOURCE_DIR}/kshim/examples/fn/pairs/group-ring)
set(fn_gr_args --old ${fn_gr}/old.c --function find_spare_group)
add_test(NAME fn.ring.print-spec
         COMMAND ${fn_expect} 0 "^param sd.groups ring next 3 +# that many structs, each one's link to the next" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_gr}/spec.fnspec --print-spec)
add_test(NAME fn.ring.depth-printed
         COMMAND ${fn_expect} 0 "^depth 3 +# struct fields generated that many levels deep" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_gr}/spec.fnspec --print-spec)
# No group for the old side, one (a group the task allows none of: the
# affinity dropped) for the broken one: the result is the group's identity
# in the input, &inK+OFF, in the minimised input's rows.
add_test(NAME fn.ring.result-identity
         COMMAND ${fn_expect} 1 "^               new: &in[0-9]+\\+[0-9]+   <-- differs$" --
                 ${fn_gr_args} --new ${fn_gr}/broken.c --spec ${fn_gr}/spec.fnspec)
add_test(NAME fn.ring.not-a-struct-pointer
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec says `param this_cpu ring next 2`, but parameter `this_cpu` of find_spare_group\\(\\) \\(type `int`\\) is not a pointer to a struct whose fields are known here$" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_in}/ring-not-struct.fnspec)
add_test(NAME fn.ring.no-such-field
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec says `param sd.groups ring nxt 3`, but `struct sched_group` has no field `nxt`$" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_in}/ring-no-field.fnspec)
add_test(NAME fn.ring.link-of-another-type
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec says `param sd.groups ring sgc 3`, but `sgc` of `struct sched_group` is not a `struct sched_group \\*`$" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_in}/ring-wrong-link.fnspec)
add_test(NAME fn.ring.null-not-a-pointer
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*: the spec says `param sd.flags null`, but .* is not a pointer$" --
                 ${fn_gr_args} --new ${fn_gr}/new.c --spec ${fn_in}/null-not-pointer.fnspec)
set_tests_properties(fn.ring.print-spec fn.ring.depth-printed fn.ring.result-identity
                     fn.ring.not-a-struct-pointer fn.ring.no-such-field fn.ring.link-of-another-type
                     fn.ring.null-not-a-pointer PROPERTIES LABELS "fn")
