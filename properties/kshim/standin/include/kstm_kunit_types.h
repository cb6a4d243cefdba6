/* SPDX-License-Identifier: MIT */
/* diffsched stand-in: KUnit's suite and case types (<kunit/test.h>), apart
 * so that kstm_runner.c, built with the C library, can include them. */
#ifndef KSTM_KUNIT_TYPES_H
#define KSTM_KUNIT_TYPES_H
struct kunit {
	const char *name;
	int failed;
	void *jump;	/* the runner's jmp_buf, for KUNIT_ASSERT_* */
};
struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};
struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};
#endif
