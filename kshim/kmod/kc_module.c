// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the module, written for diffsched. It links the
 * candidate (built unmodified, its cpudl_* / pick symbols prefix-renamed by
 * kc_rename.h), the glue of its API form (kshim/runtime/glue_*.c, the same
 * adaptation as the shim run), the glue's runtime (kc_runtime.c) and the
 * driver (kc_driver.c). The init process
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
#include "kc_runtime.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("diffsched kernel-check --in-kernel driver");

extern const struct kcheck_candidate kcheck_candidate;

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
	unsigned int marked;

	kshim_set_capacity(0, NULL, 0);
	kshim_reset_runtime(nr_cpu_ids);
	inbuf = vzalloc(KC_IN_MAX);
	driver = kc_driver_new(&kcheck_candidate, nr_cpu_ids, kc_emit);
	if (!inbuf || !driver || !proc_create("kcheck", 0200, NULL, &kc_ops)) {
		kc_driver_free(driver);
		vfree(inbuf);
		return -ENOMEM;
	}
	marked = kc_mark_present();
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
