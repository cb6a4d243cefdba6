/* SPDX-License-Identifier: MIT */
/*
 * diffsched: runs one of the kernel's own test files, built against kshim/
 * with the stand-ins of standin/, at one nr_cpu_ids (written for diffsched).
 *
 *   ./cpumask_kunit NR [SKIPPED_CASE...]   # a KUnit suite: every case, KTAP lines
 *   ./test_bitmap NR                       # a kselftest module: its init
 *
 * Exit 0 when every case (every KSTM check) passed, no error line was
 * printed (kstm_standin.h) and the shim did not warn, 1 when one failed, 2 on bad arguments. A case
 * named after NR is skipped, said as "# SKIP", and never counted as passed.
 * This file is built with the C library; the test file is not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kstm_kunit_types.h>

/* From the shim (kshim/runtime), which this file cannot include. */
#define NR_CPUS 8192
typedef long long ktime_t;
void kshim_reset_runtime(unsigned nr);
int kshim_bitmap_string(char *buf, size_t size, const unsigned long *maskp, int nbits, _Bool list);
struct kshim_warning { const char *file; int line; const char *what; unsigned count; };  /* kcheck_abi.h */
int kshim_take_warning(struct kshim_warning *out);

/* A WARN_ON() of the shim (cpumask_check() of a CPU >= nr_cpu_ids, ...) is
 * an error line: the kernel with CONFIG_DEBUG_PER_CPU_MAPS would warn. */
static unsigned long shim_warnings(void)
{
	struct kshim_warning w;

	if (!kshim_take_warning(&w))
		return 0;
	printf("ERROR LINE: the shim warned %u times, first %s at %s:%d\n", w.count, w.what, w.file, w.line);
	return w.count;
}
struct kunit_suite *kstm_kunit_suite __attribute__((weak));
int (*kstm_module_init)(void) __attribute__((weak));
static unsigned long error_lines;

/* vsnprintf with the kernel's "%*pb" and "%*pbl" (a bitmap of N bits). */
static int kstm_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = 0;
	char spec[32];

	for (const char *p = fmt; *p;) {
		size_t n = 0, room = len < size ? size - len : 0;
		char *out = room ? buf + len : NULL;
		int w;

		if (*p != '%' || p[1] == '%') {
			if (room > 1) *out = *p;
			len++;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		if (!strncmp(p, "%*pb", 4)) {
			bool list = p[4] == 'l';
			int nbits = va_arg(ap, int);
			const unsigned long *bits = va_arg(ap, const unsigned long *);
			w = kshim_bitmap_string(out, room, bits, nbits, list);
			p += list ? 5 : 4;
		} else {
			bool star = false;
			int lng = 0;
			spec[n++] = *p++;
			while (*p && strchr("-+ #0123456789.*hlzjt", *p) && n < sizeof(spec) - 2) {
				star |= *p == '*';
				lng += *p == 'l' || *p == 'z' || *p == 'j' || *p == 't';
				spec[n++] = *p++;
			}
			spec[n++] = *p;
			spec[n] = '\0';
			int width = star ? va_arg(ap, int) : 0;
			char c = *p ? *p++ : 's';
			char tmp[1];
			char *o = out ? out : tmp;
			size_t r = out ? room : 0;
			if (c == 's' || c == 'p')
				w = star ? snprintf(o, r, spec, width, va_arg(ap, void *)) : snprintf(o, r, spec, va_arg(ap, void *));
			else if (c == 'f' || c == 'g' || c == 'e')
				w = snprintf(o, r, spec, va_arg(ap, double));
			else if (lng)
				w = star ? snprintf(o, r, spec, width, va_arg(ap, long long)) : snprintf(o, r, spec, va_arg(ap, long long));
			else
				w = star ? snprintf(o, r, spec, width, va_arg(ap, int)) : snprintf(o, r, spec, va_arg(ap, int));
		}
		len += (size_t)(w > 0 ? w : 0);
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return (int)len;
}

int kstm_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kstm_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int kstm_scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kstm_vformat(buf, size, fmt, ap);
	va_end(ap);
	return !size ? 0 : (size_t)n < size ? n : (int)size - 1;
}

int kstm_printk(const char *fmt, ...)
{
	static char line[1 << 16];
	char level = '6';
	va_list ap;

	if (fmt[0] == '\001' && fmt[1]) {
		level = fmt[1];
		fmt += 2;
	}
	va_start(ap, fmt);
	int n = kstm_vformat(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (level <= '4' && !strstr(line, "Time: ")) {
		error_lines++;
		printf("ERROR LINE: ");
	}
	fputs(line, stdout);
	return n;
}

void print_hex_dump(const char *level, const char *prefix, int type, int rowsize, int groupsize,
		    const void *buf, size_t len, bool ascii)
{
	(void)level; (void)type; (void)rowsize; (void)groupsize; (void)ascii;
	printf("%s", prefix);
	for (size_t i = 0; i < len; i++)
		printf("%02x", ((const unsigned char *)buf)[i]);
	printf("\n");
}

ktime_t ktime_get(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ktime_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int kstm_report(unsigned int total, unsigned int failed, unsigned int skipped)
{
	if (failed)
		printf("failed %u out of %u tests\n", failed, total);
	else
		printf("all %u tests passed%s\n", total, skipped ? " (some skipped)" : "");
	return failed ? -EINVAL : 0;
}

void kstm_kunit_fail(struct kunit *test, bool assert, const char *file, int line, const char *what,
		     long long left, long long right, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	kstm_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("    # %s: %s:%d: expected %s, but %lld vs %lld%s%s\n", test->name, file, line, what,
	       left, right, msg[0] ? ": " : "", msg);
	test->failed = 1;
	if (assert)
		longjmp(*(jmp_buf *)test->jump, 1);
}

static int run_suite(struct kunit_suite *s, char **skip, int nskip, unsigned nr)
{
	int n = 0, passed = 0, failed = 0, skipped = 0;

	for (struct kunit_case *c = s->test_cases; c->run_case; c++)
		n++;
	printf("KTAP version 1\n1..%d\n", n);
	n = 0;
	for (struct kunit_case *c = s->test_cases; c->run_case; c++) {
		jmp_buf jb;
		struct kunit t = { .name = c->name, .failed = 0, .jump = &jb };
		int k, skip_it = 0;

		n++;
		for (k = 0; k < nskip; k++)
			skip_it |= !strcmp(skip[k], c->name);
		if (skip_it) {
			printf("ok %d - %s # SKIP listed in properties/kshim/unsupported.txt\n", n, c->name);
			skipped++;
			continue;
		}
		if (!setjmp(jb)) {
			if (s->init && s->init(&t)) t.failed = 1;
			else c->run_case(&t);
		}
		if (s->exit) s->exit(&t);
		printf("%s %d - %s\n", t.failed ? "not ok" : "ok", n, c->name);
		t.failed ? failed++ : passed++;
	}
	printf("# kunit %s at nr_cpu_ids %u: %d of %d cases passed, %d failed, %d skipped\n", s->name, nr,
	       passed, n, failed, skipped);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long nr = argc > 1 ? strtoul(argv[1], &end, 10) : 0;

	if (argc < 2 || *end || nr < 1 || nr > NR_CPUS) {
		fprintf(stderr, "%s: error: usage: %s NR_CPU_IDS (1..%d) [SKIPPED_CASE...]\n", argv[0], argv[0], NR_CPUS);
		return 2;
	}
	kshim_reset_runtime((unsigned)nr);
	if (kstm_kunit_suite) {
		int rc = run_suite(kstm_kunit_suite, argv + 2, argc - 2, (unsigned)nr);
		error_lines += shim_warnings();
		if (error_lines) printf("# %lu error lines\n", error_lines);
		return rc || error_lines ? 1 : 0;
	}
	if (!kstm_module_init) {
		fprintf(stderr, "%s: error: the test registers neither a KUnit suite nor a module init\n", argv[0]);
		return 2;
	}
	int rc = kstm_module_init();
	error_lines += shim_warnings();
	printf("# kselftest module at nr_cpu_ids %lu: init returned %d, %lu error lines\n", nr, rc, error_lines);
	return rc || error_lines ? 1 : 0;
}
