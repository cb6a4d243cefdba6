/* diffsched fn ctest input (fn.shim.sd-flags-*), written for this project:
 * sd-flags-list.c's function with the mask and the count written out: every
 * flag but SD_WAKE_AFFINE needs groups (v6.1); broken: SD_NUMA left out. */
#include <linux/sched/topology.h>

int flags_needing_groups(int flags)
{
	const int mask = 0x3fff & ~SD_WAKE_AFFINE & ~SD_NUMA;

	return (flags & mask) * 64 + __builtin_popcount(flags & mask);
}
