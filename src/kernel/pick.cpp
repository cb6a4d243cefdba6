#include "kernel/pick.h"

namespace diffsched::kernel {

unsigned pick_reference(const Cpumask* dst_grpmask, const Cpumask* cpus,
                        const Cpumask* allowed) {
  unsigned cpu;
  unsigned new_dst_cpu = nr_cpu_ids;

  // Prevent to re-select dst_cpu via env's CPUs (v6.13 can_migrate_task).
  for_each_cpu_and(cpu, dst_grpmask, cpus) {
    if (cpumask_test_cpu(cpu, allowed)) {
      new_dst_cpu = cpu;
      break;
    }
  }
  return new_dst_cpu;
}

unsigned pick_optimized(const Cpumask* dst_grpmask, const Cpumask* cpus,
                        const Cpumask* allowed) {
  Cpumask dst_mask;  // uninitialised on the stack, as in the patch

  cpumask_and(&dst_mask, dst_grpmask, cpus);
  cpumask_and(&dst_mask, &dst_mask, allowed);

  return cpumask_first(&dst_mask);
}

unsigned pick_fused(const Cpumask* dst_grpmask, const Cpumask* cpus,
                    const Cpumask* allowed) {
  return cpumask_first_and_and(dst_grpmask, cpus, allowed);
}

}  // namespace diffsched::kernel
