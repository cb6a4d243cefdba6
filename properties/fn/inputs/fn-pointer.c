// A diffsched fn bad input: a parameter of a type it does not generate yet
// (a function pointer): exit 2, one line naming the parameter.
#include <linux/cpumask.h>

int first_match(const struct cpumask *m, bool (*match)(int cpu))
{
	int cpu;

	for_each_cpu(cpu, m)
		if (match(cpu))
			return cpu;
	return nr_cpu_ids;
}
