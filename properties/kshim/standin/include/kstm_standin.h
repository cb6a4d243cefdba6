/* SPDX-License-Identifier: MIT */
/*
 * diffsched's stand-in for what the kernel's own test files need beyond the
 * shim (printk, snprintf with "%*pb"/"%*pbl", ktime_get, the module
 * macros), force-included (-include) into lib/cpumask_kunit.c and
 * lib/test_bitmap.c when ctest builds them against kshim/
 * (properties/kshim/run-kernel-tests.sh). Written for diffsched.
 *
 *   pr_err("x is %*pbl\n", nbits, bitmap);   // printed by kstm_runner.c
 *
 * An error or warning line (pr_err, pr_warn) is counted as a failure by the
 * runner unless it is one of the tests' timing lines (it contains
 * "Time: "): test_bitmap.c reports some of its checks by pr_err() alone.
 */
#ifndef KSTM_STANDIN_H
#define KSTM_STANDIN_H
#include <kshim/kshim.h>

#define KERN_SOH "\001"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
int kstm_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kstm_snprintf(char *buf, size_t size, const char *fmt, ...);
int kstm_scnprintf(char *buf, size_t size, const char *fmt, ...);
#define printk kstm_printk
#define snprintf kstm_snprintf
#define scnprintf kstm_scnprintf
#define pr_err(fmt, ...) kstm_printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) kstm_printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) kstm_printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) ((void)0)

enum { DUMP_PREFIX_NONE, DUMP_PREFIX_ADDRESS, DUMP_PREFIX_OFFSET };
void print_hex_dump(const char *level, const char *prefix, int type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii);
typedef s64 ktime_t;
ktime_t ktime_get(void);
#endif
