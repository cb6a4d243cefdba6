// SPDX-License-Identifier: MIT
/*
 * diffsched fn, extraction example: a function that reads file-scope data
 * (an initialised static, a counter it writes, a const table) and, through a
 * static helper, an extern global that the kernel defines elsewhere and the
 * shim does not have: the shape of topology_span_sane()'s hidden
 * sched_domains_curr_level. Written for this project; not kernel code.
 */
#include <linux/kernel.h>

extern int sched_hidden_level;	/* defined elsewhere; the shim has none */

static int balance_interval = 4;
static unsigned long nr_balances;
static const unsigned int level_weight[] = { 1, 2, 4, 8 };
static int never_read = 3;

static unsigned int current_weight(void)
{
	return level_weight[sched_hidden_level & 3];
}

unsigned long next_balance(unsigned long now)
{
	nr_balances++;
	return now + balance_interval * current_weight();
}

int other_reader(void)
{
	return never_read;
}
