# ---- diffsched fn: what whole kernel files need ----------------------------
# Included from properties/CMakeLists.txt after fn_expect and fn_in are set.
# Each class met on a whole real kernel/sched/topology.c (v6.15) that its
# excerpts had not shown: a header included inside an initialiser (an
# X-macro list), IS_ENABLED() in #if, a definition in a block skipped for
# another reason than an option left off, and a one-sided SEGV whose report
# holds addresses (docs/fn.md "Whole kernel files").
set(fn_skip --old ${fn_in}/config-skipped.c --new ${fn_in}/config-skipped.c)
set(fn_skip_head "^diffsched: error: old side .*config-skipped.c: no function `[a-z_]+` is defined in it \\(it is in a block the preprocessor skips, line [0-9]+: ")
# `#ifndef CONFIG_NUMA` (and `#if !defined(...)`, and the #else of an
# #ifdef): the shim defines CONFIG_NUMA, no flag undefines it; never the
# advice to define what is defined.
add_test(NAME fn.config.skipped-ifndef-shim
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#ifndef CONFIG_NUMA`; the block is built only without CONFIG_NUMA, which the shim defines \\(it models a kernel with CONFIG_NUMA on\\): this definition is not the one such a kernel builds\\)$" --
                 ${fn_skip} --function without_numa)
add_test(NAME fn.config.skipped-not-defined
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#if !defined\\(CONFIG_NUMA\\)`; the block is built only without CONFIG_NUMA, which the shim defines" --
                 ${fn_skip} --function not_defined_numa)
add_test(NAME fn.config.skipped-else
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#else`, the #else of line 29: `#ifdef CONFIG_NUMA`; the block is built only without CONFIG_NUMA, which the shim defines" --
                 ${fn_skip} --function else_branch)
# `#ifndef CONFIG_X` with --config CONFIG_X: the fix is to leave the flag out.
add_test(NAME fn.config.skipped-ifndef-given
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#ifndef CONFIG_DIFFSCHED_OFF`; the block is built only without CONFIG_DIFFSCHED_OFF, which --config or a spec's `config` line defines here: leave it out\\)$" --
                 ${fn_skip} --function without_off --config CONFIG_DIFFSCHED_OFF)
add_test(NAME fn.config.skipped-ifndef-given-fixed
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_skip} --function without_off)
# A test of two options names each, on or off here.
add_test(NAME fn.config.skipped-two-options
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#if defined\\(CONFIG_NUMA\\) && defined\\(CONFIG_DIFFSCHED_OFF\\)`; its test names CONFIG_NUMA \\(on here, by the shim\\), CONFIG_DIFFSCHED_OFF \\(off here\\): --config CONFIG_NAME" --
                 ${fn_skip} --function both_options)
add_test(NAME fn.config.skipped-two-options-fixed
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_skip} --function both_options --config CONFIG_DIFFSCHED_OFF)
# IS_ENABLED() (<linux/kconfig.h>, in the shim): off, then on with --config.
add_test(NAME fn.config.skipped-is-enabled
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#if IS_ENABLED\\(CONFIG_DIFFSCHED_OFF\\)`; the shim leaves CONFIG_DIFFSCHED_OFF off: --config CONFIG_DIFFSCHED_OFF" --
                 ${fn_skip} --function enabled_off)
add_test(NAME fn.config.skipped-is-enabled-fixed
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 ${fn_skip} --function enabled_off --config CONFIG_DIFFSCHED_OFF)
add_test(NAME fn.config.skipped-if-0
         COMMAND ${fn_expect} 2 "${fn_skip_head}`#if 0`; its test names no kernel option\\)$" --
                 ${fn_skip} --function never_built)
# <linux/sched/sd_flags.h> included inside initialisers, with SD_FLAG defined
# before each: the unit keeps the definition in force at each #include
# (a flag mask left 0 would hide the broken constant).
add_test(NAME fn.shim.sd-flags-equivalent
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 --old ${fn_in}/sd-flags-list.c --new ${fn_in}/sd-flags-const.c --function flags_needing_groups)
add_test(NAME fn.shim.sd-flags-broken
         COMMAND ${fn_expect} 1 "^verdict: finding: the sides differ at level `exact`" --
                 --old ${fn_in}/sd-flags-list.c --new ${fn_in}/sd-flags-broken.c --function flags_needing_groups)
# A one-sided SEGV: its text without addresses, so that it is minimised (to
# the boundary, 65537) and reads the same on every run.
set(fn_segv --old ${fn_in}/fault-segv.c --new ${fn_in}/fault-segv-new.c --function peek_word)
add_test(NAME fn.fault.segv-minimised
         COMMAND ${fn_expect} 1 "^minimised \\([0-9]+ rounds, [0-9]+ candidates run, the same finding `fault:old:AddressSanitizer: SEGV`\\):$" --
                 ${fn_segv})
add_test(NAME fn.fault.segv-boundary
         COMMAND ${fn_expect} 1 "^replay: .* --input 'nr_cpu_ids=1 value=65537'$" --
                 ${fn_segv})
add_test(NAME fn.fault.segv-verdict
         COMMAND ${fn_expect} 1 "^verdict: finding: old faults where new does not, on input [0-9]+ \\(AddressSanitizer: SEGV\\)$" --
                 ${fn_segv})
set_tests_properties(fn.config.skipped-ifndef-shim fn.config.skipped-not-defined fn.config.skipped-else
                     fn.config.skipped-ifndef-given fn.config.skipped-ifndef-given-fixed
                     fn.config.skipped-two-options fn.config.skipped-two-options-fixed
                     fn.config.skipped-is-enabled fn.config.skipped-is-enabled-fixed fn.config.skipped-if-0
                     fn.shim.sd-flags-equivalent fn.shim.sd-flags-broken
                     fn.fault.segv-minimised fn.fault.segv-boundary fn.fault.segv-verdict
                     PROPERTIES LABELS "fn" TIMEOUT 300)
# A header the shim lacks, though the unit would compile without it: exit 2,
# naming it and the two ways on.
add_test(NAME fn.files.missing-header-compiles
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*missing-header-unused.c: the shim cannot resolve #include <linux/no_such_shim_header.h>, and a header is never guessed .*: add it to the shim \\(kshim/include\\), or check a copy of the file without the line if first_of\\(\\) needs nothing from it$" --
                 --old ${fn_in}/missing-header-unused.c --new ${fn_in}/missing-header-unused.c --function first_of)
set_tests_properties(fn.files.missing-header-compiles PROPERTIES LABELS "fn" TIMEOUT 300)
# Other eras' fair.c (v5.10, v6.12, v7.2): a function renamed or removed
# since is said to be absent (no clang error explains it); a sched_feat()
# of another era is named as the file spells it, not as the shim's macro.
add_test(NAME fn.files.function-absent
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*feat-unknown.c: no function `renamed_since_v6_6` is defined in it \\(the name does not occur in the file" --
                 --old ${fn_in}/feat-unknown.c --new ${fn_in}/feat-unknown.c --function renamed_since_v6_6)
add_test(NAME fn.files.sched-feat-unknown
         COMMAND ${fn_expect} 2 "^diffsched: error: old side .*feat-unknown.c:15: sched_feat\\(LB_BIAS\\) is a scheduler feature the shim does not model \\(its features are v5.10 to v7.2's" --
                 --old ${fn_in}/feat-unknown.c --new ${fn_in}/feat-unknown.c --function load_biased)
add_test(NAME fn.files.sched-feat-eevdf
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(60 inputs" --
                 --old ${fn_in}/feat-unknown.c --new ${fn_in}/feat-unknown.c --function lag_placed --runs 60)
# `int cpu` drawn from the whole range: both sides fault past the run
# queues; the finding names the spec line, which then makes it equivalent.
add_test(NAME fn.hint.cpu-param
         COMMAND ${fn_expect} 1 "^hint: `cpu` = -?[0-9]+ is no CPU at nr_cpu_ids [0-9]+: if rq_running\\(\\) takes only CPUs there, the spec line `param cpu range 0 nr_cpu_ids-1` says so$" --
                 --old ${fn_in}/cpu-param.c --new ${fn_in}/cpu-param.c --function rq_running)
add_test(NAME fn.hint.cpu-param-bounded
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" --
                 --old ${fn_in}/cpu-param.c --new ${fn_in}/cpu-param.c --function rq_running --spec ${fn_in}/cpu-param.fnspec)
set_tests_properties(fn.files.function-absent fn.files.sched-feat-unknown fn.files.sched-feat-eevdf fn.hint.cpu-param fn.hint.cpu-param-bounded
                     PROPERTIES LABELS "fn" TIMEOUT 300)
# printk() and pr_*() (the shim's <linux/printk.h>): messages not compared,
# arguments evaluated as in the kernel (a dropped side effect is a finding),
# pr_debug()'s not (no DEBUG).
set(fn_pk --old ${fn_in}/printk-args.c --function span_checked --spec ${fn_in}/printk-args.fnspec)
add_test(NAME fn.files.printk-equivalent
         COMMAND ${fn_expect} 0 "^verdict: equivalent \\(300 inputs" -- ${fn_pk} --new ${fn_in}/printk-args.c)
add_test(NAME fn.files.printk-argument-runs
         COMMAND ${fn_expect} 1 "^verdict: finding: the sides differ at level `exact`" -- ${fn_pk} --new ${fn_in}/printk-args-new.c)
set_tests_properties(fn.files.printk-equivalent fn.files.printk-argument-runs PROPERTIES LABELS "fn" TIMEOUT 300)
