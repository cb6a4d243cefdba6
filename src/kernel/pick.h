// The destination-CPU pick of can_migrate_task() (kernel/sched/fair.c), when
// the task cannot run on env->dst_cpu and LBF_DST_PINNED may pick another CPU
// of the destination group:
//
//   unsigned cpu = pick_reference(dst_grpmask, cpus, allowed);
//   // cpu < nr_cpu_ids: first CPU in all three masks; nr_cpu_ids: none.
//
// Three variants with one signature:
//   pick_reference: v6.13 and earlier: for_each_cpu_and(dst_grpmask, cpus) with
//                   cpumask_test_cpu(p->cpus_ptr) and break;
//   pick_optimized: the seed RFC (Jan 2025): two cpumask_and() into a struct
//                   cpumask on the stack, then cpumask_first();
//   pick_fused:     as merged in v6.15: cpumask_first_and_and(), which ANDs the
//                   three masks word by word and stops at the first non-zero word.
// They live in pick.cpp so the benchmarks measure real calls, not inlined ones.
#pragma once

#include "kernel/cpumask.h"

namespace diffsched::kernel {

unsigned pick_reference(const Cpumask* dst_grpmask, const Cpumask* cpus,
                        const Cpumask* allowed);
unsigned pick_optimized(const Cpumask* dst_grpmask, const Cpumask* cpus,
                        const Cpumask* allowed);
unsigned pick_fused(const Cpumask* dst_grpmask, const Cpumask* cpus,
                    const Cpumask* allowed);

}  // namespace diffsched::kernel
