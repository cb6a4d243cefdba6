/* diffsched fn ctest input (fn.shim.sd-flags-*), written for this project:
 * the mask of the domain flags that need groups, made from the list of
 * <linux/sched/sd_flags.h> as kernel/sched/topology.c makes its own
 * (v5.10+), against sd-flags-const.c's hand-written constant. */
#include <linux/sched/topology.h>

#define SD_FLAG(name, mflags) (name * !!((mflags) & SDF_NEEDS_GROUPS)) |
static const unsigned int groups_mask =
#include <linux/sched/sd_flags.h>
0;
#undef SD_FLAG

#define SD_FLAG(_name, mflags) [__##_name] = { .meta_flags = mflags, .name = #_name },
const struct sd_flag_debug sd_flag_debug[] = {
#include <linux/sched/sd_flags.h>
};
#undef SD_FLAG

int flags_needing_groups(int flags)
{
	int f, n = 0;

	for (f = 0; f < __SD_FLAG_CNT; f++)
		n += (flags & (1 << f)) && (sd_flag_debug[f].meta_flags & SDF_NEEDS_GROUPS);
	return (flags & groups_mask) * 64 + n;
}
