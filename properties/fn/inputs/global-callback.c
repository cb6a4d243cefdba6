// SPDX-License-Identifier: MIT
/*
 * diffsched fn test input: a function-pointer global, as a scheduler file
 * keeps a hook that an init function sets, bound with
 * `global scale fn FUNCTION`. apply_scale() calls the hook;
 * apply_assume_twice() assumes it is twice(): equivalent with
 * `global scale fn twice`, a finding with `global scale fn thrice`.
 * `offset` is constant data (initialised, never written): a spec line for
 * it is refused. Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

static int twice(int x)
{
	return 2 * x;
}

static int thrice(int x)
{
	return 3 * x;
}

static int (*scale)(int) = twice;
static int offset = 1;

void set_scale(int (*f)(int))
{
	scale = f;
}

int apply_scale(int v)
{
	if (v < -1000 || v > 1000)
		return 0;
	return scale(v) + offset;
}

int apply_assume_twice(int v)
{
	if (v < -1000 || v > 1000 || !scale)
		return 0;
	return 2 * v + offset;
}
