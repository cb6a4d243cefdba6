// SPDX-License-Identifier: MIT
/*
 * diffsched fn --fuzz test input, a new side that reads past a table for
 * one 32-bit cookie only (UBSan's bounds check, else ASan's stack redzone):
 * the generated inputs do not reach it, the fuzzer does.
 */
#include <linux/cpumask.h>

#define FAST_COOKIE 0x5eed1234

int pick_cookie_cpu(unsigned int cookie, const struct cpumask *allowed)
{
	unsigned int cpu = cpumask_first(allowed);
	int hint[2] = { -1, -1 };

	if (cookie == FAST_COOKIE) {
		volatile unsigned int slot = cookie >> 29;	/* 2: past the table */

		return hint[slot];
	}
	if (cpu >= nr_cpu_ids)
		return hint[0];
	return cpu;
}
