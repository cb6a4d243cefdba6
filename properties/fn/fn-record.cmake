# ---- diffsched fn: the harness's record of an output mask ------------------
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# A mask the call left as drawn is recorded as "=" instead of its words
# (src/fn/harness_gen.cpp): it must compare exactly as the words would. A
# side that writes every word back as it was is equivalent to one that
# writes nothing; one that clears a CPU differs, shown as `unchanged`
# against the mask it left (and at nr_cpu_ids 8192 too).
set(fn_mo ${fn_in}/mask-out.c)
set(fn_mo_args --old ${fn_mo} --new ${fn_mo} --old-function mask_keep)
add_test(NAME fn.record.mask-written-back
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" -- ${fn_mo_args} --new-function mask_rewrite)
add_test(NAME fn.record.mask-changed
         COMMAND ${fn_expect} 1 "^  \\*m           old: unchanged$" --
                 ${fn_mo_args} --new-function mask_drop_last)
add_test(NAME fn.record.mask-changed-8192
         COMMAND ${fn_expect} 1 "^verdict: finding: the sides differ at level `exact`" --
                 ${fn_mo_args} --new-function mask_drop_last --nr-cpus 8192 --runs 50)
set_tests_properties(fn.record.mask-written-back fn.record.mask-changed fn.record.mask-changed-8192
                     PROPERTIES LABELS "fn" TIMEOUT 300)
