# ---- diffsched fn: the shim's era (src/fn/era.h, docs/fn.md "Eras") ------
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# Where kernels name or shape a thing differently (the SD_* list, util_est,
# ...), a side is built at one era: --kernel-version (or a spec's `kernel`
# line), else the Makefile of the tree the file is in, else the newest era
# both files build against. The inputs are written for this project.
set(fn_era_tree ${fn_in}/era-tree/kernel/sched/llc-flag.c)
set(fn_era_llc --old ${fn_era_tree} --new ${fn_era_tree} --old-function llc_flag --new-function llc_flag_v61)
# The tree's Makefile says 5.10: the LLC flag is bit 7, not v6.1's bit 8.
add_test(NAME fn.era.tree-makefile
         COMMAND ${fn_expect} 1 "^shim era: v5.10 \\(the tree's .*/era-tree/Makefile\\)$" -- ${fn_era_llc} --runs 100)
add_test(NAME fn.era.given
         COMMAND ${fn_expect} 0 "^shim era: v6.1 \\(--kernel-version\\)$" -- ${fn_era_llc} --runs 100 --kernel-version 6.1)
add_test(NAME fn.era.spec-line
         COMMAND ${fn_expect} 0 "^shim era: v6.1 \\(the spec's `kernel` line\\)$" -- ${fn_era_llc} --runs 100 --spec ${fn_in}/era-6.1.fnspec)
# The old and the new file in trees of two kernels (era-tree-6.1's file is
# a link to era-tree's): both sides at the old one's, and the header says so.
add_test(NAME fn.era.trees-differ
         COMMAND ${fn_expect} 1 "^shim era: v5.10 \\(the old file's tree, .*/era-tree/Makefile; the new file's tree is v6.1, .*/era-tree-6.1/Makefile: both sides are built at v5.10; --kernel-version X.Y sets another\\)$" --
                 --old ${fn_era_tree} --new ${fn_in}/era-tree-6.1/kernel/sched/llc-flag.c
                 --old-function llc_flag --new-function llc_flag_v61 --runs 100)
add_test(NAME fn.era.spec-conflict
         COMMAND ${fn_expect} 2 "^diffsched: error: --kernel-version 5.10: the spec says `kernel 6.1`$" --
                 ${fn_era_llc} --spec ${fn_in}/era-6.1.fnspec --kernel-version 5.10)
# rq->lock (before v5.14) and SIS_PROP (on before v6.0) build at 5.10.
add_test(NAME fn.era.lock-and-feature
         COMMAND ${fn_expect} 0 "^shim era: v5.10 \\(the tree's " --
                 --old ${fn_era_tree} --new ${fn_era_tree} --function lock_held_prop --runs 60)
add_test(NAME fn.era.bad-version
         COMMAND ${fn_expect} 2 "^diffsched: error: --kernel-version '8.0': the shim follows kernels 3.0 to 7.x$" --
                 ${fn_era_llc} --kernel-version 8.0)
add_test(NAME fn.era.bad-version-form
         COMMAND ${fn_expect} 2 "^diffsched: error: --kernel-version '6.1.0' is not a kernel version \\(MAJOR.MINOR, e.g. 6.1\\)$" --
                 ${fn_era_llc} --kernel-version 6.1.0)
# No tree around the file: the default era (v6.19) when it builds, said by
# no line; else the newest era that builds, and why.
set(fn_era_ue --old ${fn_in}/era-util-est.c --new ${fn_in}/era-util-est.c)
add_test(NAME fn.era.default
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(60 inputs" -- ${fn_era_ue} --function task_util_est_scalar --runs 60)
set_tests_properties(fn.era.default PROPERTIES FAIL_REGULAR_EXPRESSION "shim era")
add_test(NAME fn.era.newest-that-builds
         COMMAND ${fn_expect} 0 "^shim era: v6.7, the newest of the shim's eras the files build against \\(at the default v6.19: old side .*era-util-est.c:12: member reference base type 'unsigned int' is not a structure or union" --
                 ${fn_era_ue} --function task_util_est_struct --runs 60)
# A version given is the one used: no other era is tried.
add_test(NAME fn.era.given-not-retried
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*era-util-est.c:[0-9]+: .*\\(the extracted unit of task_util_est_scalar\\(\\) does not compile\\)$" --
                 ${fn_era_ue} --function task_util_est_scalar --kernel-version 6.1)
set_tests_properties(fn.era.given-not-retried PROPERTIES FAIL_REGULAR_EXPRESSION "nor at any other era")
add_test(NAME fn.era.no-era-builds
         COMMAND ${fn_expect} 2 "; nor at any other era of the shim \\(v6.17 back to v4.18; --kernel-version X.Y sets one\\)$" --
                 ${fn_era_ue} --function task_util_est_nowhere)
# --print-spec writes the era chosen as a `kernel` line.
add_test(NAME fn.era.print-spec
         COMMAND ${fn_expect} 0 "^kernel 6.7 +# the shim's era: v6.7, the newest of the shim's eras" --
                 ${fn_era_ue} --function task_util_est_struct --print-spec)
set_tests_properties(fn.era.tree-makefile fn.era.given fn.era.spec-line fn.era.trees-differ fn.era.spec-conflict
                     fn.era.lock-and-feature fn.era.bad-version fn.era.bad-version-form fn.era.default
                     fn.era.newest-that-builds fn.era.given-not-retried fn.era.no-era-builds fn.era.print-spec
                     PROPERTIES LABELS fn TIMEOUT 300)
