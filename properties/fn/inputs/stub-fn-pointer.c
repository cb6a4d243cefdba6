/* diffsched fn ctest input (fn.stub.ungeneratable): a stub returning a function pointer. */
#include <linux/cpumask.h>

typedef int (*level_fn)(int cpu);
level_fn level_lookup(int cpu);

int level_via(int cpu)
{
	level_fn f = level_lookup(cpu);

	return f ? f(cpu) : -1;
}
