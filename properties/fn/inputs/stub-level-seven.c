/* diffsched fn ctest input (fn.stub.*): the same call, the result 7 whatever the stub returns. */
#include <linux/cpumask.h>

int peek_level(int cpu);

int level_of(int cpu)
{
	peek_level(cpu);
	return 7;
}
