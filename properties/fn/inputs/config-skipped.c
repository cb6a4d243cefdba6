/* diffsched fn ctest input (fn.config.skipped-*), written for this project:
 * one function per block the preprocessor skips, each block behind another
 * kind of test, so that each error names its test and a fix that works
 * (or that none does). The shim defines CONFIG_NUMA; nothing defines
 * CONFIG_DIFFSCHED_OFF unless --config does. */
#include <linux/cpumask.h>

#ifndef CONFIG_NUMA
int without_numa(int cpu)
{
	return cpu;
}
#endif

#if !defined(CONFIG_NUMA)
int not_defined_numa(int cpu)
{
	return cpu;
}
#endif

#ifndef CONFIG_DIFFSCHED_OFF
int without_off(int cpu)
{
	return cpu;
}
#endif

#ifdef CONFIG_NUMA
int numa_branch(int cpu)
{
	return cpu;
}
#else
int else_branch(int cpu)
{
	return -cpu;
}
#endif

#if defined(CONFIG_NUMA) && defined(CONFIG_DIFFSCHED_OFF)
int both_options(int cpu)
{
	return cpu;
}
#endif

#if IS_ENABLED(CONFIG_DIFFSCHED_OFF)
int enabled_off(int cpu)
{
	return cpu;
}
#endif

#if 0
int never_built(int cpu)
{
	return cpu;
}
#endif
