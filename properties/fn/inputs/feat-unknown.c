/* diffsched fn ctest input (fn.files.sched-feat-unknown), written for this
 * project: a scheduler feature of a later era than the shim's (v6.1). */
#include <linux/sched.h>

int lag_placed(int lag)
{
	if (sched_feat(PLACE_LAG))
		return lag;
	return 0;
}
