/* diffsched fn ctest input (fn.fault.segv-*), written for this project: a
 * "fast path" that reads through a value it takes for a pointer when the
 * value is large, where fault-segv-new.c returns 0. The old side faults
 * (SEGV) from value 65537 on; the finding is minimised to that boundary and
 * its text is the same on every run (no addresses, pc or registers). */
#include <linux/kernel.h>

int peek_word(unsigned long value)
{
	if (value > 65536)
		return *(int *)(value & ~3UL);
	return 0;
}
