// SPDX-License-Identifier: MIT
/* diffsched test file: a C file that defines none of the cpudl functions. */
// expect: kernel.errors.no-expected-functions 2 - "defines none of the expected functions" -- cpudl ${kfast}
// expect: kernel.errors.no-pick-function 2 - "defines no function select_dst_cpu" -- pick ${kfast}
#include <linux/kernel.h>

int answer(void)
{
	return 42;
}
