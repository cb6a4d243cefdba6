// SPDX-License-Identifier: MIT
/*
 * check-patch test tree (written for this project, not kernel code): the
 * level's callback is looked up elsewhere (sd_level_lookup(), not the
 * shim's); a stub of it would return a function pointer, which diffsched fn
 * does not draw, so sd_level_of() is not checkable without a spec.
 */
#include <linux/cpumask.h>

typedef int (*sd_level_fn)(int cpu);
extern sd_level_fn sd_level_lookup(int level);

int sd_level_of(int cpu)
{
	sd_level_fn f = sd_level_lookup(0);

	return f ? f(cpu) : -1;
}
