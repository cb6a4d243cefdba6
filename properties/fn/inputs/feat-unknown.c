/* diffsched fn ctest input (fn.files.sched-feat-*), written for this
 * project: a scheduler feature of an era before the shim's (LB_BIAS, gone
 * before v5.10), and one of EEVDF's (PLACE_LAG, v6.6+), which it has. */
#include <linux/sched.h>

int lag_placed(int lag)
{
	if (sched_feat(PLACE_LAG))
		return lag;
	return 0;
}

int load_biased(int load)
{
	if (sched_feat(LB_BIAS))
		return load;
	return 0;
}
