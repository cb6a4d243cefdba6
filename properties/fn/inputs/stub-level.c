/* diffsched fn ctest input (fn.stub.*): peek_level() is not the shim's, so it is a stub. */
#include <linux/cpumask.h>

int peek_level(int cpu);

int level_of(int cpu)
{
	return peek_level(cpu);
}
