/* diffsched fn ctest input (fn.shim-state.*), written for this project: the
 * CPU of `cpus` with the most tasks on its run queue, the lowest on a tie.
 * The run queues are the shim's (kshim/sched_fair.h, per-CPU `runqueues`):
 * zeroed unless a spec line covers them. */
#include <linux/cpumask.h>

int busiest_cpu(const struct cpumask *cpus)
{
	unsigned int most = 0;
	int cpu, best = -1;

	for_each_cpu(cpu, cpus) {
		if (best < 0 || cpu_rq(cpu)->nr_running > most) {
			most = cpu_rq(cpu)->nr_running;
			best = cpu;
		}
	}
	return best;
}
