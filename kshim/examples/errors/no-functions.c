// SPDX-License-Identifier: MIT
/* diffsched test file: a C file that defines none of the cpudl functions. */
#include <linux/kernel.h>

int answer(void)
{
	return 42;
}
