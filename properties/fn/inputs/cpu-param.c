/* diffsched fn ctest input (fn.hint.cpu-param*), written for this project:
 * a function of one CPU, `int cpu` with no spec line bounding it. Drawn
 * from the whole int range, a negative CPU indexes before the run queues
 * on both sides: the finding names the spec line for a function that takes
 * only CPUs. */
#include <linux/sched.h>

unsigned int rq_running(int cpu)
{
	return cpu_rq(cpu)->nr_running;
}
