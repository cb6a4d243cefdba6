/* SPDX-License-Identifier: MIT */
/*
 * The table of a pick candidate (kcheck_abi.h), compiled beside it with
 * -DKCHECK_FUNCTION=<name> (default select_dst_cpu):
 *
 *   int select_dst_cpu(const struct cpumask *dst_grpmask,
 *                      const struct cpumask *cpus, const struct cpumask *allowed);
 *
 * returns the CPU it picks, nr_cpu_ids (or anything >= it) when none.
 */
#include <kshim/kshim.h>
#include <kcheck_abi.h>

#ifndef KCHECK_FUNCTION
#define KCHECK_FUNCTION select_dst_cpu
#endif
#ifndef KCHECK_SOURCE
#define KCHECK_SOURCE "candidate"
#endif
#define KCHECK_STR2(x) #x
#define KCHECK_STR(x) KCHECK_STR2(x)

void kshim_reset_runtime(unsigned nr);
int kshim_take_warning(struct kcheck_warning *out);
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n);
void kshim_fail_alloc(long n);
int kshim_alloc_failed(void);

int KCHECK_FUNCTION(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		    const struct cpumask *allowed);

static unsigned glue_pick(const unsigned long *dst, const unsigned long *cpus, const unsigned long *allowed)
{
	return (unsigned)KCHECK_FUNCTION((const struct cpumask *)dst, (const struct cpumask *)cpus,
					 (const struct cpumask *)allowed);
}

const struct kcheck_candidate kcheck_candidate = {
	.abi_version = KCHECK_ABI_VERSION,
	.api = KCHECK_API_PICK,
	.source = KCHECK_SOURCE,
	.function = KCHECK_STR(KCHECK_FUNCTION),
	.reset_runtime = kshim_reset_runtime,
	.take_warning = kshim_take_warning,
	.set_capacity = kshim_set_capacity,
	.fail_alloc = kshim_fail_alloc,
	.alloc_failed = kshim_alloc_failed,
	.pick = glue_pick,
};
