// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the module, written for diffsched. It links the
 * candidate (built unmodified, its cpudl_* / pick symbols prefix-renamed by
 * kc_rename.h), the glue of its API form (kshim/runtime/glue_*.c, the same
 * adaptation as the shim run) and the driver (kc_driver.c). The init process
 * writes the op programs to /proc/kcheck; the driver replays each line as it
 * arrives and prints "KC ..." lines on the console (long ones continue on
 * "KC+" lines). A WARN_ON(), BUG or oops of the candidate shows on the same
 * console, between the lines of the op that caused it.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/sched.h>

#include <kcheck_abi.h>
#include "kc_driver.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("diffsched kernel-check --in-kernel driver");

extern const struct kcheck_candidate kcheck_candidate;

/* sched.h's stand-in for kernel/sched/topology.c's sched_asym_cpucapacity:
 * off (no asymmetric capacity), as the shim's default. */
DEFINE_STATIC_KEY_FALSE(kc_sched_asym_cpucapacity);

/* The shim runtime's entry points the glue calls, for the real kernel:
 * nr_cpu_ids is the booted one (the driver checks the program's against
 * it), warnings are real WARN()s on the console, nothing fails on purpose. */
struct cpumask kc_cpu_online_mask, kc_cpu_active_mask;  /* sched.h: the program's */
unsigned long kc_cpu_capacity[NR_CPUS];

void kshim_reset_runtime(unsigned nr)
{
	unsigned int cpu;

	cpumask_clear(&kc_cpu_online_mask);
	for (cpu = 0; cpu < nr && cpu < nr_cpu_ids; cpu++)
		cpumask_set_cpu(cpu, &kc_cpu_online_mask);
	cpumask_copy(&kc_cpu_active_mask, &kc_cpu_online_mask);
}
int kshim_take_warning(struct kcheck_warning *out) { return 0; }
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		kc_cpu_capacity[cpu] = n ? caps[cpu % n] : SCHED_CAPACITY_SCALE;
	if (asym)
		static_branch_enable(&kc_sched_asym_cpucapacity);
	else
		static_branch_disable(&kc_sched_asym_cpucapacity);
}
void kshim_fail_alloc(long n) { }
int kshim_alloc_failed(void) { return 0; }
void kshim_free_live(void) { }
void kshim_warn(const char *file, int line, const char *cond)
{
	WARN(1, "%s:%d: %s\n", file, line, cond);
}

#define KC_CHUNK 900
#define KC_IN_MAX (1 << 20)

static struct kc_driver *driver;
static char *inbuf;
static size_t inlen;
static DEFINE_MUTEX(kc_lock);

static void kc_emit(const char *line)
{
	size_t n = strlen(line), at = 0;

	do {
		size_t k = min_t(size_t, n - at, KC_CHUNK);

		printk(KERN_WARNING "%s %.*s\n", at ? "KC+" : "KC", (int)k, line + at);
		at += k;
	} while (at < n);
}

static ssize_t kc_write(struct file *f, const char __user *ubuf, size_t count, loff_t *pos)
{
	size_t done = 0;

	mutex_lock(&kc_lock);
	while (done < count) {
		size_t k = min_t(size_t, count - done, KC_IN_MAX - 1 - inlen);
		char *nl;

		if (k == 0) {
			kc_emit("X -1 input line too long");
			inlen = 0;
			continue;
		}
		if (copy_from_user(inbuf + inlen, ubuf + done, k)) {
			mutex_unlock(&kc_lock);
			return -EFAULT;
		}
		inlen += k;
		done += k;
		inbuf[inlen] = 0;
		while ((nl = memchr(inbuf, '\n', inlen))) {
			size_t used = (size_t)(nl - inbuf) + 1;

			*nl = 0;
			kc_driver_line(driver, inbuf);
			memmove(inbuf, inbuf + used, inlen - used);
			inlen -= used;
			inbuf[inlen] = 0;
			cond_resched();
		}
	}
	mutex_unlock(&kc_lock);
	return (ssize_t)count;
}

static const struct proc_ops kc_ops = {
	.proc_write = kc_write,
};

static int __init kc_init(void)
{
	unsigned int cpu, marked = 0;

	kshim_set_capacity(0, NULL, 0);
	kshim_reset_runtime(nr_cpu_ids);
	inbuf = vzalloc(KC_IN_MAX);
	driver = kc_driver_new(&kcheck_candidate, nr_cpu_ids, kc_emit);
	if (!inbuf || !driver || !proc_create("kcheck", 0200, NULL, &kc_ops)) {
		kc_driver_free(driver);
		vfree(inbuf);
		return -ENOMEM;
	}
	/* The guest runs one vCPU (-smp 1, possible_cpus=N): the others are
	 * possible but not present. The shim models every CPU below nr_cpu_ids
	 * as present (cpudeadline.c's WARN_ON(!cpu_present(cpu))), and so does
	 * a machine with that many CPUs: mark them present. They stay offline
	 * (the guest never schedules on them). */
	for_each_possible_cpu(cpu)
		if (!cpu_present(cpu)) {
			set_cpu_present(cpu, true);
			marked++;
		}
	printk(KERN_WARNING "KC H nr_cpu_ids=%u present_marked=%u api=%d source=%s\n", nr_cpu_ids,
	       marked, kcheck_candidate.api, kcheck_candidate.source);
	return 0;
}

static void __exit kc_exit(void)
{
	remove_proc_entry("kcheck", NULL);
	kc_driver_free(driver);
	vfree(inbuf);
}

module_init(kc_init);
module_exit(kc_exit);
