/* SPDX-License-Identifier: MIT */
/*
 * diffsched's stand-in for kselftest's module helpers
 * (tools/testing/selftests/kselftest_module.h), written for diffsched: the
 * counters a test module keeps and the init that runs selftest() and reports
 * "all N tests passed" or "failed F out of N tests" (kstm_report()). Found
 * through the test's own #include "../tools/testing/selftests/..." because
 * the runner's include path is properties/kshim/standin/include.
 */
#ifndef KSTM_KSELFTEST_MODULE_H
#define KSTM_KSELFTEST_MODULE_H
#include <linux/module.h>

#define KSTM_MODULE_GLOBALS() \
	static unsigned int total_tests; \
	static unsigned int failed_tests; \
	static unsigned int skipped_tests
#define KSTM_CHECK_ZERO(x) do { \
	total_tests++; \
	if (x) { pr_warn("TC failed at %s:%d\n", __func__, __LINE__); failed_tests++; } \
} while (0)

int kstm_report(unsigned int total, unsigned int failed, unsigned int skipped);
#define KSTM_MODULE_LOADERS(name) \
	static int name##_kstm_init(void) \
	{ \
		selftest(); \
		return kstm_report(total_tests, failed_tests, skipped_tests); \
	} \
	module_init(name##_kstm_init)
#endif
