/* diffsched fn ctest input (fn.patch.config), written for this project: a
 * function that exists only with CONFIG_DIFFSCHED_WALK, which the shim
 * leaves off (`--config CONFIG_DIFFSCHED_WALK` defines it). config-walk.c
 * tests each CPU of the span, config-walk-new.c walks span & allowed with
 * for_each_cpu_and() (the patch's two sides; this comment is both's). */
#include <linux/cpumask.h>

#ifdef CONFIG_DIFFSCHED_WALK
int first_allowed(const struct cpumask *span, const struct cpumask *allowed)
{
	int cpu;

	for_each_cpu_and(cpu, span, allowed)
		return cpu;
	return nr_cpu_ids;
}
#endif
