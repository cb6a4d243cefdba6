// SPDX-License-Identifier: MIT
/*
 * diffsched fn --fuzz test input, a new side with a fast path keyed on one
 * 32-bit cookie, wrong for that value only: the generated inputs (boundary
 * values, small and uniform ones) do not draw it, while libFuzzer's
 * comparison tracing puts the constant into an input.
 */
#include <linux/cpumask.h>

#define FAST_COOKIE 0x5eed1234

int pick_cookie_cpu(unsigned int cookie, const struct cpumask *allowed)
{
	unsigned int cpu;

	if (cookie == FAST_COOKIE)
		return 0;	/* wrong: CPU 0 need not be allowed */
	cpu = cpumask_first(allowed);
	if (cpu >= nr_cpu_ids)
		return -1;
	return cpu;
}
