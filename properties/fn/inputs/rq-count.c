/* diffsched fn ctest input (fn.shim-state.reset), written for this project:
 * counts a task onto a CPU's run queue and returns the count it found. The
 * shim's run queues are zeroed before every input, so every call finds 0,
 * whatever the calls before it added. */
#include <linux/cpumask.h>

unsigned int enqueue_count(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return 0;
	return cpu_rq(cpu)->nr_running++;
}
