/* diffsched fn ctest input (fn.fault.segv-*), written for this project:
 * fault-segv.c's function without its fast path. */
#include <linux/kernel.h>

int peek_word(unsigned long value)
{
	return 0;
}
