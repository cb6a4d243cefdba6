// A diffsched fn bad input: the function does not compile (an undeclared
// identifier), so its extracted unit cannot be built: exit 2, one line.
#include <linux/cpumask.h>

int first_cpu(const struct cpumask *m)
{
	return cpumask_first(m) + no_such_variable;
}
