#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Project-written edits of a real kernel/sched/fair.c (v6.1), for the
# real-file ctests fn.real.* (properties/fn/fn-real.cmake). The kernel file
# is extracted from Debian's linux-source-6.1 at test time, never committed.
#
#   edit-fair.py IN EDIT OUT
#
# EDIT:
#   first-and-and  can_migrate_task(): the for_each_cpu_and() loop that looks
#                  for an allowed CPU of the group becomes one
#                  cpumask_first_and_and() call (the v6.15 form)
#   broken         the same, but cpumask_first_and() over the group and the
#                  balance's CPUs only: the task's affinity dropped (a bug)
#   sic-budget     select_idle_cpu() with "sched/fair: Optimize
#                  select_idle_cpu" (2019) undone: no cpumask_and() of the
#                  span with p->cpus_ptr; the loop walks the span and skips a
#                  CPU the task does not allow after it took one of the scan
#                  budget (`!--nr`), as the code before the change did
#   sic-top        the same, but the allowed-CPU test at the loop's top,
#                  before the budget is taken
#   weight-and     find_idlest_group(): the group_has_spare NUMA branch counts
#                  the local group's CPUs the task allows with one
#                  cpumask_weight_and() call instead of cpumask_and() into
#                  the per-CPU scratch mask select_rq_mask and
#                  cpumask_weight(); the scratch mask's local pointer goes
#                  too (the merged rewrite, v6.x)
#   weight-and-keep  the same, but the scratch mask's local pointer stays
#                  (this_cpu_cpumask_var_ptr(select_rq_mask), now unused)
#   weight-broken  weight-and-keep with cpumask_weight() of the local
#                  group's span: the task's affinity dropped (a bug)
#   weight-domain  weight-and with the domain's span where the local
#                  group's belongs: cpumask_weight_and(sched_domain_span(sd),
#                  p->cpus_ptr) (a bug)
#   numa-and       task_numa_find_cpu() (CONFIG_NUMA_BALANCING): the walk of
#                  the destination node's CPUs that skips those the task does
#                  not allow becomes one for_each_cpu_and() over the node and
#                  p->cpus_ptr (the merged rewrite)
#   numa-broken    the same over the node alone: the task's affinity dropped
#                  (a bug)
#   numa-from      the loop kept, but it walks the node from env->src_cpu + 1
#                  round (for_each_cpu_wrap(): another order, a bug)
import sys


def main():
    src, edit, dst = sys.argv[1:4]
    text = open(src).read()

    def sub(old, new):
        nonlocal text
        if text.count(old) != 1:
            sys.exit(f"edit-fair.py: {edit}: the text to replace is in {src} "
                     f"{text.count(old)} times, not once:\n{old}")
        text = text.replace(old, new)

    t = "\t"
    loop = (f"{t*2}for_each_cpu_and(cpu, env->dst_grpmask, env->cpus) {{\n"
            f"{t*3}if (cpumask_test_cpu(cpu, p->cpus_ptr)) {{\n"
            f"{t*4}env->flags |= LBF_DST_PINNED;\n"
            f"{t*4}env->new_dst_cpu = cpu;\n"
            f"{t*4}break;\n"
            f"{t*3}}}\n"
            f"{t*2}}}\n")
    first = {"first-and-and": "cpumask_first_and_and(env->dst_grpmask, env->cpus, p->cpus_ptr)",
             "broken": "cpumask_first_and(env->dst_grpmask, env->cpus)"}
    skip = "if (!cpumask_test_cpu(cpu, p->cpus_ptr))\n"
    if edit in first:
        sub(loop, f"{t*2}cpu = {first[edit]};\n{t*2}if (cpu < nr_cpu_ids) {{\n"
                  f"{t*3}env->flags |= LBF_DST_PINNED;\n{t*3}env->new_dst_cpu = cpu;\n{t*2}}}\n")
    elif edit in ("sic-budget", "sic-top"):
        sub(f"{t}cpumask_and(cpus, sched_domain_span(sd), p->cpus_ptr);\n\n"
            f"{t}if (sched_feat(SIS_PROP) && !has_idle_core) {{",
            f"{t}if (sched_feat(SIS_PROP) && !has_idle_core) {{")
        walk = f"{t}for_each_cpu_wrap(cpu, sched_domain_span(sd), target + 1) {{\n"
        if edit == "sic-top":
            sub(f"{t}for_each_cpu_wrap(cpu, cpus, target + 1) {{\n",
                walk + f"{t*2}{skip}{t*3}continue;\n")
        else:
            sub(f"{t}for_each_cpu_wrap(cpu, cpus, target + 1) {{\n{t*2}if (has_idle_core) {{\n",
                walk + f"{t*2}if (has_idle_core) {{\n{t*3}{skip}{t*4}continue;\n")
            sub(f"{t*3}if (!--nr)\n{t*4}return -1;\n{t*3}idle_cpu = __select_idle_cpu(cpu, p);",
                f"{t*3}if (!--nr)\n{t*4}return -1;\n{t*3}{skip}{t*4}continue;\n"
                f"{t*3}idle_cpu = __select_idle_cpu(cpu, p);")
    elif edit in ("weight-and", "weight-and-keep", "weight-broken", "weight-domain"):
        count = ("cpumask_weight(sched_group_span(local))" if edit == "weight-broken"
                 else "cpumask_weight_and(sched_domain_span(sd), p->cpus_ptr)"
                 if edit == "weight-domain"
                 else "cpumask_weight_and(sched_group_span(local), p->cpus_ptr)")
        ptr = f"{t*4}struct cpumask *cpus = this_cpu_cpumask_var_ptr(select_rq_mask);\n\n"
        sub(f"{t*3}if (p->nr_cpus_allowed != NR_CPUS) {{\n{ptr}"
            f"{t*4}cpumask_and(cpus, sched_group_span(local), p->cpus_ptr);\n"
            f"{t*4}imb_numa_nr = min(cpumask_weight(cpus), sd->imb_numa_nr);\n"
            f"{t*3}}}\n",
            f"{t*3}if (p->nr_cpus_allowed != NR_CPUS) {{\n"
            f"{'' if edit in ('weight-and', 'weight-domain') else ptr}"
            f"{t*4}imb_numa_nr = min({count}, sd->imb_numa_nr);\n"
            f"{t*3}}}\n")
    elif edit in ("numa-and", "numa-broken", "numa-from"):
        walk = {"numa-and": "for_each_cpu_and(cpu, cpumask_of_node(env->dst_nid), env->p->cpus_ptr)",
                "numa-broken": "for_each_cpu(cpu, cpumask_of_node(env->dst_nid))",
                "numa-from": "for_each_cpu_wrap(cpu, cpumask_of_node(env->dst_nid), env->src_cpu + 1)"}
        sub(f"{t}for_each_cpu(cpu, cpumask_of_node(env->dst_nid)) {{\n"
            f"{t*2}/* Skip this CPU if the source task cannot migrate */\n"
            f"{t*2}if (!cpumask_test_cpu(cpu, env->p->cpus_ptr))\n{t*3}continue;\n\n",
            f"{t}{walk[edit]} {{\n"
            + (f"{t*2}if (!cpumask_test_cpu(cpu, env->p->cpus_ptr))\n{t*3}continue;\n"
               if edit == "numa-from" else "") + "\n")
    else:
        sys.exit(f"edit-fair.py: unknown edit {edit}")
    open(dst, "w").write(text)


main()
