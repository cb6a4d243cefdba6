/* SPDX-License-Identifier: MIT */
/*
 * diffsched's stand-in for <kunit/test.h>, written for diffsched: the part of
 * KUnit that lib/cpumask_kunit.c uses (suites, cases, init, the EXPECT and
 * ASSERT comparisons with and without _MSG). kstm_runner.c runs the one
 * suite a file registers and prints KTAP lines.
 *
 *   KUNIT_EXPECT_EQ_MSG(test, 0, cpumask_weight(m), "%*pbl", nr_cpu_ids, cpumask_bits(m));
 *
 * An expectation compares its two sides with C's own conversions, as the
 * kernel's KUNIT_BINARY_*_ASSERTION does, and a failed one marks the case
 * failed and prints both values and the message; an ASSERT also ends the case.
 */
#ifndef KSTM_KUNIT_TEST_H
#define KSTM_KUNIT_TEST_H
#include <kstm_standin.h>
#include <linux/module.h>

#include <kstm_kunit_types.h>
#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }
#define kunit_test_suite(suite) struct kunit_suite *kstm_kunit_suite = &(suite)
#define kunit_test_suites(...) kunit_test_suite(__VA_ARGS__)

void kstm_kunit_fail(struct kunit *test, bool assert, const char *file, int line, const char *what,
		     long long left, long long right, const char *fmt, ...);
#define KSTM_BINARY(test, assert, left, op, right, ...) do { \
	__typeof__(left) __kl = (left); \
	__typeof__(right) __kr = (right); \
	if (!(__kl op __kr)) \
		kstm_kunit_fail((test), (assert), __FILE__, __LINE__, #left " " #op " " #right, \
				(long long)__kl, (long long)__kr, "" __VA_ARGS__); \
} while (0)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) KSTM_BINARY(t, false, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) KSTM_BINARY(t, false, !!(c), ==, 1, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) KSTM_BINARY(t, false, !!(c), ==, 0, __VA_ARGS__)
#define KUNIT_EXPECT_EQ(t, l, r) KUNIT_EXPECT_EQ_MSG(t, l, r, "")
#define KUNIT_EXPECT_NE(t, l, r) KUNIT_EXPECT_NE_MSG(t, l, r, "")
#define KUNIT_EXPECT_LT(t, l, r) KUNIT_EXPECT_LT_MSG(t, l, r, "")
#define KUNIT_EXPECT_LE(t, l, r) KUNIT_EXPECT_LE_MSG(t, l, r, "")
#define KUNIT_EXPECT_GT(t, l, r) KUNIT_EXPECT_GT_MSG(t, l, r, "")
#define KUNIT_EXPECT_GE(t, l, r) KUNIT_EXPECT_GE_MSG(t, l, r, "")
#define KUNIT_EXPECT_TRUE(t, c) KUNIT_EXPECT_TRUE_MSG(t, c, "")
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_EXPECT_FALSE_MSG(t, c, "")
#define KUNIT_ASSERT_EQ(t, l, r) KSTM_BINARY(t, true, l, ==, r, "")
#define KUNIT_ASSERT_TRUE(t, c) KSTM_BINARY(t, true, !!(c), ==, 1, "")
#define KUNIT_ASSERT_FALSE(t, c) KSTM_BINARY(t, true, !!(c), ==, 0, "")
#define KUNIT_ASSERT_NOT_NULL(t, p) KSTM_BINARY(t, true, (p) != NULL, ==, 1, "")
#endif
