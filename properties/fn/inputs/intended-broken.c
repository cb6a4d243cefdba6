/* diffsched fn ctest input (fn.intended.other-difference): the "intended"
 * pair's new side (kshim/examples/fn/pairs/intended/new.c), but on machines of
 * more than 64 CPUs it also stores the budget left into s->nr, which the spec
 * does not declare intended. The finding is that store, not the intended
 * return: minimising must keep it (more than 64 CPUs), and the replay of the
 * minimised input must still be a finding. */
#include <linux/sched.h>

struct idle_scan {
	const struct cpumask	*llc;
	const struct cpumask	*idle;
	struct cpumask		*cpus;
	int			nr;
};

int select_idle_cpu_lite(struct idle_scan *s, const struct task_struct *p, int target)
{
	int cpu, nr = s->nr;

	cpumask_and(s->cpus, s->llc, p->cpus_ptr);
	for_each_cpu_wrap(cpu, s->cpus, target + 1) {
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, s->idle)) {
			if (nr_cpu_ids > 64)
				s->nr = nr;
			return cpu;
		}
	}
	return -1;
}
