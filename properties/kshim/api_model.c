/* SPDX-License-Identifier: MIT */
/*
 * ShimMatchesTheKernelContractOnRandomBitmaps: every cpumask, bitmap and
 * find-bit function of kshim/, on random bitmaps of random lengths (1..400
 * bits, word edges included) and random offsets, against a bit-by-bit model
 * of the function's kernel-doc contract, written for diffsched. Built like
 * the kernel's own test files (run-kernel-tests.sh: -nostdinc, the shim and
 * the stand-ins) as a kselftest-style module, once per era
 * (KSHIM_KERNEL_VERSION: v6.19 and v4.14, whose cpumask_next_wrap() and
 * bitmap_fill() differ), and run at every nr_cpu_ids of the kernel tests.
 * It covers what lib/cpumask_kunit.c and lib/test_bitmap.c do not: the _nth
 * family, the _and/_andnot/_or forms, first_and_and, any_but, the wraps.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include "../tools/testing/selftests/kselftest_module.h"

KSTM_MODULE_GLOBALS();

#define MAXB 448
#define W BITS_TO_LONGS(MAXB)
static u64 rng = 0x9e3779b97f4a7c15ULL;
static unsigned long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned long)rng;
}
/* Empty, full, sparse, dense or uniform, whole words (bits past N too). */
static void fill_random(unsigned long *b, unsigned int words)
{
	unsigned int k, kind = (unsigned int)(rnd() % 5);

	for (k = 0; k < words; k++) {
		unsigned long w = rnd();
		b[k] = kind == 0 ? 0 : kind == 1 ? ~0UL : kind == 2 ? (w & rnd() & rnd()) : kind == 3 ? (w | rnd()) : w;
	}
}
static bool nt(const unsigned long *b, unsigned long i) { return (b[i / 64] >> (i % 64)) & 1; }

#define CHECK(cond, what, ...) do { \
	total_tests++; \
	if (!(cond) && ++failed_tests <= 20) \
		pr_err("%s:%d: %s: " what "\n", __FILE__, __LINE__, #cond, ##__VA_ARGS__); \
} while (0)

/* The first i in [from, n) with P(i), else n. */
#define MODEL_NEXT(from, n, P) ({ unsigned long __i = (from); while (__i < (n) && !(P)) __i++; __i < (n) ? __i : (n); })
#define MODEL_NTH(k, n, P) ({ unsigned long __i = 0, __c = (k); \
	for (; __i < (n); __i++) if ((P) && !__c--) break; __i < (n) ? __i : (n); })

static void check_find(const unsigned long *a, const unsigned long *b, const unsigned long *c, unsigned long n)
{
	unsigned long o = rnd() % (n + 3), k = rnd() % (n + 2), __i, last = n;

	CHECK(find_next_bit(a, n, o) == MODEL_NEXT(o, n, nt(a, __i)), "n=%lu o=%lu", n, o);
	CHECK(find_next_zero_bit(a, n, o) == MODEL_NEXT(o, n, !nt(a, __i)), "n=%lu o=%lu", n, o);
	CHECK(find_next_and_bit(a, b, n, o) == MODEL_NEXT(o, n, nt(a, __i) && nt(b, __i)), "n=%lu", n);
	CHECK(find_next_andnot_bit(a, b, n, o) == MODEL_NEXT(o, n, nt(a, __i) && !nt(b, __i)), "n=%lu", n);
	CHECK(find_next_or_bit(a, b, n, o) == MODEL_NEXT(o, n, nt(a, __i) || nt(b, __i)), "n=%lu", n);
	CHECK(find_first_and_and_bit(a, b, c, n) == MODEL_NEXT(0, n, nt(a, __i) && nt(b, __i) && nt(c, __i)), "n=%lu", n);
	CHECK(find_nth_bit(a, n, k) == MODEL_NTH(k, n, nt(a, __i)), "n=%lu k=%lu", n, k);
	CHECK(find_nth_and_bit(a, b, n, k) == MODEL_NTH(k, n, nt(a, __i) && nt(b, __i)), "n=%lu k=%lu", n, k);
	CHECK(find_nth_andnot_bit(a, b, n, k) == MODEL_NTH(k, n, nt(a, __i) && !nt(b, __i)), "n=%lu", n);
	CHECK(find_nth_and_andnot_bit(a, b, c, n, k) == MODEL_NTH(k, n, nt(a, __i) && nt(b, __i) && !nt(c, __i)), "n=%lu", n);
	for (__i = 0; __i < n; __i++)
		if (nt(a, __i))
			last = __i;
	CHECK(find_last_bit(a, n) == last, "n=%lu", n);
	if (o <= n) {
		unsigned long want = MODEL_NEXT(o, n, nt(a, __i));
		if (want == n)
			want = MODEL_NEXT(0, o, nt(a, __i)) < o ? MODEL_NEXT(0, o, nt(a, __i)) : n;
		CHECK(find_next_bit_wrap(a, n, o) == want, "n=%lu o=%lu", n, o);
	}
}

static void check_iterators(const unsigned long *a, unsigned long n)
{
	unsigned long bit, start = rnd() % n, want, seen = 0, count = 0, s, e;
	bool ordered = true;

	/* for_each_set_bit_wrap: start..n-1, then 0..start-1, each set bit once. */
	want = start;
	for_each_set_bit_wrap(bit, a, n, start) {
		while (!nt(a, want % n) && count < n) { want++; count++; }
		ordered &= bit == want % n;
		want++, count++, seen++;
	}
	CHECK(ordered && seen == bitmap_weight(a, (unsigned int)n), "n=%lu start=%lu", n, start);
	seen = 0;
	for_each_set_bitrange(s, e, a, n) {
		CHECK(s < e && e <= n && (e == n || !nt(a, e)) && (s == 0 || !nt(a, s - 1)), "n=%lu", n);
		seen += e - s;
	}
	CHECK(seen == bitmap_weight(a, (unsigned int)n), "n=%lu", n);
}

static void check_bitmap(const unsigned long *a, const unsigned long *b, const unsigned long *c, unsigned int n)
{
	unsigned long d[W], e[W], want = 0, i, words = BITS_TO_LONGS(n);
	unsigned int st = (unsigned int)(rnd() % (n + 1)), len = (unsigned int)(rnd() % (n - st + 1));
	unsigned int sh = (unsigned int)(rnd() % (n + 1));
	bool same = true;

	for (i = 0; i < n; i++) want += nt(a, i) && !nt(b, i);
	CHECK(bitmap_weight_andnot(a, b, n) == want, "n=%u", n);
	fill_random(d, W);
	memcpy(e, d, sizeof(d));
	CHECK(bitmap_and(d, a, b, n) == (bitmap_weight_and(a, b, n) != 0), "n=%u", n);
	for (i = 0; i < words * 64; i++) same &= nt(d, i) == (i < n && nt(a, i) && nt(b, i));
	for (i = words; i < W; i++) same &= d[i] == e[i];
	CHECK(same, "bitmap_and n=%u", n);
	bitmap_xor(d, a, b, n);
	for (i = 0, same = true; i < words; i++) same &= d[i] == (a[i] ^ b[i]);
	CHECK(same, "bitmap_xor writes whole words n=%u", n);
	CHECK(bitmap_subset(a, b, n) == !bitmap_andnot(d, a, b, n), "n=%u", n);
	CHECK(bitmap_or_equal(a, b, c, n) == ({ bitmap_or(e, a, b, n); bitmap_equal(e, c, n); }), "n=%u", n);
	CHECK(bitmap_full(a, n) == (bitmap_weight(a, n) == n), "n=%u", n);
	/* bitmap_set/clear: exactly [st, st + len). */
	memcpy(d, a, sizeof(d));
	bitmap_set(d, st, len);
	for (i = 0, same = true; i < W * 64; i++) same &= nt(d, i) == (nt(a, i) || (i >= st && i < st + len));
	CHECK(same, "bitmap_set st=%u len=%u", st, len);
	memcpy(d, a, sizeof(d));
	bitmap_clear(d, st, len);
	for (i = 0, same = true; i < W * 64; i++) same &= nt(d, i) == (nt(a, i) && !(i >= st && i < st + len));
	CHECK(same, "bitmap_clear st=%u len=%u", st, len);
	/* Shifts on n bits. */
	bitmap_shift_right(d, a, sh, n);
	for (i = 0, same = true; i < n; i++) same &= nt(d, i) == (i + sh < n && nt(a, i + sh));
	CHECK(same, "shift_right n=%u sh=%u", n, sh);
	bitmap_shift_left(d, a, sh, n);
	for (i = 0, same = true; i < n; i++) same &= nt(d, i) == (i >= sh && nt(a, i - sh));
	CHECK(same, "shift_left n=%u sh=%u", n, sh);
	bitmap_cut(d, a, st, len, n);
	for (i = 0, same = true; i < n; i++) same &= nt(d, i) == (i < st ? nt(a, i) : i + len < words * 64 && nt(a, i + len));
	CHECK(same, "bitmap_cut n=%u first=%u cut=%u", n, st, len);
	/* Print and parse back, both formats. */
	{
		static char text[8 * MAXB];
		int r;
		kshim_bitmap_string(text, sizeof(text), a, (int)n, true);
		r = bitmap_parselist(text, d, (int)n);
		CHECK(r == 0 && bitmap_equal(d, a, n), "list '%s' r=%d", text, r);
		kshim_bitmap_string(text, sizeof(text), a, (int)n, false);
		r = bitmap_parse(text, UINT_MAX, e, (int)n);
		CHECK(r == 0 && bitmap_equal(e, a, n), "mask '%s' r=%d", text, r);
	}
}

static void check_cpumask(const struct cpumask *a, const struct cpumask *b, const struct cpumask *c)
{
	unsigned long __i, nr = nr_cpu_ids;
	unsigned int k = (unsigned int)(rnd() % nr), cpu, seen = 0, want;
	int n = (int)(rnd() % (nr + 1)) - 1;
	bool ok = true;
	const unsigned long *A = cpumask_bits(a), *B = cpumask_bits(b), *C = cpumask_bits(c);

	CHECK(cpumask_nth(k, a) == MODEL_NTH(k, nr, nt(A, __i)), "k=%u", k);
	CHECK(cpumask_nth_and(k, a, b) == MODEL_NTH(k, nr, nt(A, __i) && nt(B, __i)), "k=%u", k);
	CHECK(cpumask_nth_andnot(k, a, b) == MODEL_NTH(k, nr, nt(A, __i) && !nt(B, __i)), "k=%u", k);
	CHECK(cpumask_nth_and_andnot(k, a, b, c) == MODEL_NTH(k, nr, nt(A, __i) && nt(B, __i) && !nt(C, __i)), "k=%u", k);
	CHECK(cpumask_first_and_and(a, b, c) == MODEL_NEXT(0, nr, nt(A, __i) && nt(B, __i) && nt(C, __i)), "");
	CHECK(cpumask_first_andnot(a, b) == MODEL_NEXT(0, nr, nt(A, __i) && !nt(B, __i)), "");
	CHECK(cpumask_next_andnot(n, a, b) == MODEL_NEXT((unsigned long)(n + 1), nr, nt(A, __i) && !nt(B, __i)), "n=%d", n);
	for (__i = 0, want = 0; __i < nr; __i++) want += nt(A, __i) && nt(B, __i);
	CHECK(cpumask_weight_and(a, b) == want, "");
	for (__i = 0, want = 0; __i < nr; __i++) want += nt(A, __i) && !nt(B, __i);
	CHECK(cpumask_weight_andnot(a, b) == want, "");
	CHECK(cpumask_any_but(a, k) == MODEL_NEXT(0, nr, nt(A, __i) && __i != k), "k=%u", k);
	CHECK(cpumask_any_and_but(a, b, k) == MODEL_NEXT(0, nr, nt(A, __i) && nt(B, __i) && __i != k), "k=%u", k);
	CHECK(cpumask_last(a) == (cpumask_weight(a) ? cpumask_nth(cpumask_weight(a) - 1, a) : nr_cpu_ids), "");
	CHECK(cpumask_weight(cpumask_of(k)) == 1 && cpumask_test_cpu((int)k, cpumask_of(k)), "k=%u", k);
	for_each_cpu_or(cpu, a, b) { ok &= nt(A, cpu) || nt(B, cpu); seen++; }
	for (__i = 0, want = 0; __i < nr; __i++) want += nt(A, __i) || nt(B, __i);
	CHECK(ok && seen == want, "for_each_cpu_or");
	seen = 0;
	cpu = k;
	for_each_cpu_from(cpu, a) seen++;
	for (__i = k, want = 0; __i < nr; __i++) want += nt(A, __i);
	CHECK(seen == want, "for_each_cpu_from k=%u", k);
	/* for_each_cpu_wrap: each CPU once, from k up, then from 0. */
	seen = 0;
	want = k;
	for_each_cpu_wrap(cpu, a, k) {
		while (!nt(A, want % nr)) want++;
		ok &= cpu == want % nr;
		want++, seen++;
	}
	CHECK(ok && seen == cpumask_weight(a), "for_each_cpu_wrap k=%u", k);
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 15)
	{
		unsigned long w = MODEL_NEXT((unsigned long)(n + 1), nr, nt(A, __i));
		if (w == nr)
			w = MODEL_NEXT(0, (unsigned long)(n + 1), nt(A, __i)) < (unsigned long)(n + 1) ? MODEL_NEXT(0, (unsigned long)(n + 1), nt(A, __i)) : nr;
		CHECK(cpumask_next_wrap(n, a) == w, "n=%d", n);
	}
#else
	/* The v4.x for_each_cpu_wrap() built on the 4-argument form. */
	seen = 0;
	want = k;
	for (cpu = cpumask_next_wrap((int)k - 1, a, (int)k, false); cpu < nr_cpu_ids;
	     cpu = cpumask_next_wrap((int)cpu, a, (int)k, true)) {
		while (!nt(A, want % nr)) want++;
		ok &= cpu == want % nr;
		want++, seen++;
		if (seen > nr) break;
	}
	CHECK(ok && seen == cpumask_weight(a), "4-argument cpumask_next_wrap walk k=%u", k);
#endif
}

static void selftest(void)
{
	static unsigned long a[W], b[W], c[W];
	static struct cpumask ma, mb, mc;
	int round;

	for (round = 0; round < 3000; round++) {
		unsigned int n = 1 + (unsigned int)(rnd() % (MAXB - 64));
		if (round % 4 == 0)
			n = 64 * (1 + (unsigned int)(rnd() % 5)) + (unsigned int)(rnd() % 3) - 1;
		fill_random(a, W), fill_random(b, W), fill_random(c, W);
		check_find(a, b, c, n);
		check_iterators(a, n);
		check_bitmap(a, b, c, n);
		if (round % 10 == 0) {
			fill_random(ma.bits, BITS_TO_LONGS(NR_CPUS));
			fill_random(mb.bits, BITS_TO_LONGS(NR_CPUS));
			fill_random(mc.bits, BITS_TO_LONGS(NR_CPUS));
			check_cpumask(&ma, &mb, &mc);
		}
	}
	bitmap_fill(a, 35);
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(4, 19)
	CHECK(a[0] == ~0UL, "bitmap_fill() fills the last word whole from v4.19");
#else
	CHECK(a[0] == BITMAP_LAST_WORD_MASK(35), "bitmap_fill() sets only nbits bits before v4.19");
#endif
}

KSTM_MODULE_LOADERS(api_model);
