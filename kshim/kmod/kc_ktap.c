// SPDX-License-Identifier: MIT
/*
 * diffsched export --ktap-module: a kselftest-style test module, written for
 * diffsched (the shape of the kernel's lib/test_bitmap.c: a module whose init
 * runs its cases and prints the result itself; it needs no KUnit, which
 * Debian 12's kernel does not build). It links the same pieces as
 * kernel-check --in-kernel's module: the candidate built unmodified with its
 * entry points renamed (kc_rename.h), the glue of its API form, the glue's
 * runtime (kc_runtime.c) and the op-program driver (kc_driver.c), which
 * judges each op by its own checks (kc_driver.c's header: the heap order,
 * the slots' back-pointers, the contents against the callers' contract; a
 * pick's answer against the three masks).
 *
 * The cases are the programs of ktap_programs.h, written by the host: each
 * one's driver lines, its .ops text and a command that replays it. On load
 * it prints KTAP version 1 at KERN_INFO: one suite, one test per program,
 * `not ok` with `# ` diagnostic lines (the driver's failed check, the
 * program, the replay command), `# SKIP` for a program at another
 * nr_cpu_ids than the booted one. A WARN() of the candidate while a case runs
 * (the kernel's TAINT_WARN newly set) fails that case too.
 *
 *   insmod diffsched_ktap.ko                 a KTAP document of its own
 *   insmod diffsched_ktap.ko ktap_index=K    the K-th test of a document whose
 *                                            header and plan a runner printed
 * Unlike test_bitmap's loader, init returns 0 whatever the result (the
 * verdict is the KTAP): busybox's insmod retries a failed finit_module()
 * with init_module(), which ran every case twice.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <linux/sched.h>

#include <kcheck_abi.h>
#include "kc_driver.h"
#include "kc_runtime.h"

struct kc_ktap_case {
	const char *name;
	unsigned int nr;              /* the program's nr_cpu_ids */
	const char *const *lines;     /* driver lines, NULL-terminated */
	const char *const *ops;       /* the .ops text, NULL-terminated */
	const char *replay;           /* a host command that replays it */
};
#include "ktap_programs.h" /* KC_KTAP_SUITE, kc_ktap_cases[] */

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("diffsched export --ktap-module: " KC_KTAP_SUITE);
MODULE_INFO(test, "Y");

static int ktap_index;
module_param(ktap_index, int, 0444);
MODULE_PARM_DESC(ktap_index, "0: print a whole KTAP document; K: be test K of a runner's");

extern const struct kcheck_candidate kcheck_candidate;

/* The driver's verdict on the running case (its output lines). */
static struct {
	int failed;
	int lines;
	char first[256]; /* the first V or X line */
} kc_case;

static void kc_ktap_emit(const char *line)
{
	if (line[0] != 'V' && line[0] != 'X')
		return; /* P, S (states), D: nothing to judge */
	if (!kc_case.failed)
		strscpy(kc_case.first, line, sizeof(kc_case.first));
	kc_case.failed = 1;
	kc_case.lines++;
}

/* Runs one case through the driver; 0 ran, -ENOMEM could not. */
static int __init kc_ktap_run(struct kc_driver *d, const struct kc_ktap_case *c)
{
	const char *const *l;

	memset(&kc_case, 0, sizeof(kc_case));
	for (l = c->lines; *l; l++) {
		char *line = kstrdup(*l, GFP_KERNEL);

		if (!line)
			return -ENOMEM;
		kc_driver_line(d, line);
		kfree(line);
		cond_resched();
	}
	return 0;
}

static int __init kc_ktap_init(void)
{
	static const char in[] = "    "; /* KUnit's nesting */
	unsigned int n = ARRAY_SIZE(kc_ktap_cases), i, failed = 0;
	struct kc_driver *d;

	add_taint(TAINT_TEST, LOCKDEP_STILL_OK);
	kshim_set_capacity(0, NULL, 0);
	kshim_reset_runtime(nr_cpu_ids);
	kc_mark_present();
	d = kc_driver_new(&kcheck_candidate, nr_cpu_ids, kc_ktap_emit);
	if (!d)
		return -ENOMEM;
	/* One line per printk: a record's later lines carry no timestamp, and
	 * kunit.py parse strips the prefix the version line has. */
	if (!ktap_index) {
		pr_info("KTAP version 1\n");
		pr_info("1..1\n");
	}
	pr_info("%sKTAP version 1\n", in);
	pr_info("%s# Subtest: %s\n", in, KC_KTAP_SUITE);
	pr_info("%s1..%u\n", in, n);
	for (i = 0; i < n; i++) {
		const struct kc_ktap_case *c = &kc_ktap_cases[i];
		const char *const *o;
		bool warned = test_taint(TAINT_WARN);

		if (c->nr != nr_cpu_ids) {
			pr_info("%sok %u %s # SKIP nr_cpu_ids is %u, the program's %u (boot with possible_cpus=%u)\n",
				in, i + 1, c->name, nr_cpu_ids, c->nr, c->nr);
			continue;
		}
		if (kc_ktap_run(d, c)) {
			kc_driver_free(d);
			return -ENOMEM;
		}
		if (!warned && test_taint(TAINT_WARN) && !kc_case.failed) {
			kc_case.failed = 1;
			strscpy(kc_case.first, "the candidate WARNed (the WARNING above)",
				sizeof(kc_case.first));
		}
		if (!kc_case.failed) {
			pr_info("%sok %u %s\n", in, i + 1, c->name);
			continue;
		}
		failed++;
		pr_info("%s# %s: the driver: %s\n", in, c->name, kc_case.first);
		pr_info("%s# %s: the program (.ops):\n", in, c->name);
		for (o = c->ops; *o; o++)
			pr_info("%s#   %s\n", in, *o);
		pr_info("%s# %s: reproduce: %s\n", in, c->name, c->replay);
		pr_info("%snot ok %u %s\n", in, i + 1, c->name);
	}
	kc_driver_free(d);
	pr_info("%s %u %s\n", failed ? "not ok" : "ok", ktap_index ? ktap_index : 1, KC_KTAP_SUITE);
	return 0;
}

static void __exit kc_ktap_exit(void)
{
}

module_init(kc_ktap_init);
module_exit(kc_ktap_exit);
