// SPDX-License-Identifier: GPL-2.0
/*
 * The shim's own fidelity check (issue 27 section 3), written for diffsched:
 * OPS random operations of the cpumask, bitmap and find-bit API, each on
 * random inputs drawn from (SEED, its index) alone, one line each:
 *
 *   KA <index> <op> <result> <hash>     (hash: FNV-1a of the result and of
 *                                        the words the op writes or walks)
 *
 * The same file is built twice: as a module against the booted kernel's
 * headers (the reference) and as a program against kshim/ at the v6.1 era
 * (kc_api_main.c); scripts/inkernel-api-check.sh compares the two line by
 * line. An op's inputs depend on nothing but its index, so a difference is
 * already minimal: one op and its masks (kc_api_show()).
 * Bitmaps have a random length of 1..320 bits (every word edge near 64,
 * 128, ...), cpumasks nr_cpu_ids bits; the input words are random past
 * their last bit too, so an op that reads or writes the tail is caught. The
 * functions v6.1 lacks (cpumask_first_and_and(), the _or and _and_andnot
 * forms, cpumask_weight_andnot(), cpumask_any_and_but(), the 2-argument
 * cpumask_next_wrap(), ...) and bitmap_or_equal() (6.1 does not export
 * __bitmap_or_equal to modules) are not here: properties/kshim/api_model.c
 * checks them against their documented contracts.
 */
#ifdef __KERNEL__
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/sched.h>
#define kc_emit(line) pr_err("%s\n", line)
#else
#include <kshim/kshim.h>
void kc_emit(const char *line);
int snprintf(char *buf, size_t size, const char *fmt, ...);	/* the C library's */
#define cond_resched() do { } while (0)
#endif

#define KC_MAXB 320
#define KC_WORDS BITS_TO_LONGS(NR_CPUS)

struct kc_in {
	unsigned long a[KC_WORDS], b[KC_WORDS], c[KC_WORDS], d[KC_WORDS];
	unsigned long n, o, k, len;	/* bits; an offset <= n + 1; a count; a length */
	unsigned long r;		/* the result */
	unsigned int words;		/* the words hashed: BITS_TO_LONGS(n) or 0 */
};
static struct kc_in kc;

static u64 kc_mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Empty, full, sparse, dense or uniform words. */
static void kc_fill(unsigned long *w, unsigned int words, u64 *s)
{
	unsigned int i, kind = (unsigned int)((*s = kc_mix(*s)) % 5);

	for (i = 0; i < words; i++) {
		u64 x = (*s = kc_mix(*s)), y = (*s = kc_mix(*s));
		w[i] = kind == 0 ? 0 : kind == 1 ? ~0UL : kind == 2 ? (unsigned long)(x & y & (y >> 7))
		       : kind == 3 ? (unsigned long)(x | y) : (unsigned long)x;
	}
}

#define A kc.a
#define B kc.b
#define C kc.c
#define D kc.d
#define N kc.n
#define M(x) ((struct cpumask *)(x))
/* The ops: OP(name, cpumask?, words hashed, body...). Words: 0 none, 1 the
 * BITS_TO_LONGS(n) words of d, 2 only d's n bits (the kernel leaves the rest
 * of the last word unspecified). */
#define KC_API_OPS \
	OP(find_next_bit, 0, 0, kc.r = find_next_bit(A, N, kc.o)) \
	OP(find_next_zero_bit, 0, 0, kc.r = find_next_zero_bit(A, N, kc.o)) \
	OP(find_next_and_bit, 0, 0, kc.r = find_next_and_bit(A, B, N, kc.o)) \
	OP(find_next_andnot_bit, 0, 0, kc.r = find_next_andnot_bit(A, B, N, kc.o)) \
	OP(find_first_bit, 0, 0, kc.r = find_first_bit(A, N)) \
	OP(find_first_zero_bit, 0, 0, kc.r = find_first_zero_bit(A, N)) \
	OP(find_last_bit, 0, 0, kc.r = find_last_bit(A, N)) \
	OP(find_nth_bit, 0, 0, kc.r = find_nth_bit(A, N, kc.k)) \
	OP(find_nth_and_bit, 0, 0, kc.r = find_nth_and_bit(A, B, N, kc.k)) \
	OP(find_nth_andnot_bit, 0, 0, kc.r = find_nth_andnot_bit(A, B, N, kc.k)) \
	OP(find_next_bit_wrap, 0, 0, kc.r = find_next_bit_wrap(A, N, min(kc.o, N))) \
	OP(find_next_clump8, 0, 0, kc.r = find_next_clump8(&D[0], A, N, kc.o); kc.r ^= kc.r < N ? D[0] << 20 : 0) \
	OP(for_each_set_bit_wrap, 0, 0, { unsigned long bit; for_each_set_bit_wrap(bit, A, N, kc.o % N) kc.r = kc.r * 31 + bit; }) \
	OP(for_each_set_bitrange, 0, 0, { unsigned long s, e; for_each_set_bitrange(s, e, A, N) kc.r = kc.r * 31 + s * 7 + e; }) \
	OP(bitmap_weight, 0, 0, kc.r = bitmap_weight(A, N)) \
	OP(bitmap_weight_and, 0, 0, kc.r = bitmap_weight_and(A, B, N)) \
	OP(bitmap_equal, 0, 0, kc.r = bitmap_equal(A, kc.k & 1 ? B : C, N)) \
	OP(bitmap_intersects, 0, 0, kc.r = bitmap_intersects(A, B, N)) \
	OP(bitmap_subset, 0, 0, kc.r = bitmap_subset(A, B, N)) \
	OP(bitmap_empty, 0, 0, kc.r = bitmap_empty(A, N)) \
	OP(bitmap_full, 0, 0, kc.r = bitmap_full(A, N)) \
	OP(bitmap_zero, 0, 1, bitmap_zero(D, N)) \
	OP(bitmap_fill, 0, 1, bitmap_fill(D, N)) \
	OP(bitmap_copy, 0, 1, bitmap_copy(D, A, N)) \
	OP(bitmap_and, 0, 1, kc.r = bitmap_and(D, A, B, N)) \
	OP(bitmap_andnot, 0, 1, kc.r = bitmap_andnot(D, A, B, N)) \
	OP(bitmap_or, 0, 1, bitmap_or(D, A, B, N)) \
	OP(bitmap_xor, 0, 1, bitmap_xor(D, A, B, N)) \
	OP(bitmap_complement, 0, 1, bitmap_complement(D, A, N)) \
	OP(bitmap_replace, 0, 1, bitmap_replace(D, A, B, C, N)) \
	OP(bitmap_set, 0, 1, bitmap_set(D, min(kc.o, N), min(kc.len, N - min(kc.o, N)))) \
	OP(bitmap_clear, 0, 1, bitmap_clear(D, min(kc.o, N), min(kc.len, N - min(kc.o, N)))) \
	OP(bitmap_shift_right, 0, 2, bitmap_shift_right(D, A, kc.k % N, N)) \
	OP(bitmap_shift_left, 0, 2, bitmap_shift_left(D, A, kc.k % N, N)) \
	OP(bitmap_cut, 0, 2, bitmap_cut(D, A, min(kc.o, N - 1), min(kc.len, N - min(kc.o, N - 1)), N)) \
	OP(bitmap_find_next_zero_area, 0, 0, kc.r = bitmap_find_next_zero_area(A, N, kc.o % N, (unsigned int)(kc.len % 9), (1UL << (kc.k % 4)) - 1)) \
	OP(bitmap_get_value8, 0, 0, kc.r = bitmap_get_value8(A, (kc.o % N) & ~7UL)) \
	OP(cpumask_first, 1, 0, kc.r = cpumask_first(M(A))) \
	OP(cpumask_first_zero, 1, 0, kc.r = cpumask_first_zero(M(A))) \
	OP(cpumask_first_and, 1, 0, kc.r = cpumask_first_and(M(A), M(B))) \
	OP(cpumask_last, 1, 0, kc.r = cpumask_last(M(A))) \
	OP(cpumask_next, 1, 0, kc.r = cpumask_next((int)(kc.o % (N + 1)) - 1, M(A))) \
	OP(cpumask_next_zero, 1, 0, kc.r = cpumask_next_zero((int)(kc.o % (N + 1)) - 1, M(A))) \
	OP(cpumask_next_and, 1, 0, kc.r = cpumask_next_and((int)(kc.o % (N + 1)) - 1, M(A), M(B))) \
	OP(cpumask_next_wrap, 1, 0, kc.r = cpumask_next_wrap((int)(kc.o % (N + 1)) - 1, M(A), (int)(kc.k % N), kc.len & 1)) \
	OP(cpumask_nth, 1, 0, kc.r = cpumask_nth((unsigned int)(kc.k % N), M(A))) \
	OP(cpumask_nth_and, 1, 0, kc.r = cpumask_nth_and((unsigned int)(kc.k % N), M(A), M(B))) \
	OP(cpumask_nth_andnot, 1, 0, kc.r = cpumask_nth_andnot((unsigned int)(kc.k % N), M(A), M(B))) \
	OP(cpumask_weight, 1, 0, kc.r = cpumask_weight(M(A))) \
	OP(cpumask_weight_and, 1, 0, kc.r = cpumask_weight_and(M(A), M(B))) \
	OP(cpumask_any_but, 1, 0, kc.r = cpumask_any_but(M(A), (unsigned int)((kc.len & 1 ? cpumask_first(M(A)) : kc.k) % N))) \
	OP(cpumask_equal, 1, 0, kc.r = cpumask_equal(M(A), M(kc.k & 1 ? B : C))) \
	OP(cpumask_subset, 1, 0, kc.r = cpumask_subset(M(A), M(B))) \
	OP(cpumask_intersects, 1, 0, kc.r = cpumask_intersects(M(A), M(B))) \
	OP(cpumask_empty, 1, 0, kc.r = cpumask_empty(M(A))) \
	OP(cpumask_full, 1, 0, kc.r = cpumask_full(M(A))) \
	OP(cpumask_and, 1, 1, kc.r = cpumask_and(M(D), M(A), M(B))) \
	OP(cpumask_andnot, 1, 1, kc.r = cpumask_andnot(M(D), M(A), M(B))) \
	OP(cpumask_or, 1, 1, cpumask_or(M(D), M(A), M(B))) \
	OP(cpumask_xor, 1, 1, cpumask_xor(M(D), M(A), M(B))) \
	OP(cpumask_complement, 1, 1, cpumask_complement(M(D), M(A))) \
	OP(cpumask_copy, 1, 1, cpumask_copy(M(D), M(A))) \
	OP(cpumask_setall, 1, 1, cpumask_setall(M(D))) \
	OP(cpumask_clear, 1, 1, cpumask_clear(M(D))) \
	OP(cpumask_set_cpu, 1, 1, cpumask_set_cpu((unsigned int)(kc.k % N), M(D))) \
	OP(cpumask_test_and_clear_cpu, 1, 1, kc.r = cpumask_test_and_clear_cpu((int)(kc.k % N), M(D))) \
	OP(cpumask_of, 1, 0, kc.r = cpumask_first(cpumask_of((unsigned int)(kc.k % N))) * 3 + cpumask_weight(cpumask_of((unsigned int)(kc.k % N)))) \
	OP(for_each_cpu_wrap, 1, 0, { unsigned int cpu; for_each_cpu_wrap(cpu, M(A), (unsigned int)(kc.k % N)) kc.r = kc.r * 31 + cpu; }) \
	OP(for_each_cpu_and, 1, 0, { unsigned int cpu; for_each_cpu_and(cpu, M(A), M(B)) kc.r = kc.r * 31 + cpu; }) \
	OP(for_each_cpu_andnot, 1, 0, { unsigned int cpu; for_each_cpu_andnot(cpu, M(A), M(B)) kc.r = kc.r * 31 + cpu; }) \
	OP(for_each_cpu_not, 1, 0, { unsigned int cpu; for_each_cpu_not(cpu, M(A)) kc.r = kc.r * 31 + cpu; })

enum {
#define OP(name, cpumask, words, ...) KC_OP_##name,
	KC_API_OPS
#undef OP
	KC_NR_OPS
};
static const char *const kc_names[] = {
#define OP(name, cpumask, words, ...) #name,
	KC_API_OPS
#undef OP
};

/* The inputs of op `index` of `seed`: they depend on nothing else. */
static unsigned int kc_draw(unsigned long seed, unsigned long index)
{
	u64 s = kc_mix(seed * 0x100000001b3ULL + index);
	unsigned int op = (unsigned int)((s = kc_mix(s)) % KC_NR_OPS);
	static const unsigned char cpumask_op[] = {
#define OP(name, cpumask, words, ...) cpumask,
		KC_API_OPS
#undef OP
	};

	kc.n = 1 + (s = kc_mix(s)) % KC_MAXB;
	if (s % 3 == 0)
		kc.n = 64 * (1 + (s >> 8) % 4) + (s >> 16) % 3 - 1;
	if (cpumask_op[op])
		kc.n = nr_cpu_ids;
	kc_fill(kc.a, KC_WORDS, &s);
	kc_fill(kc.b, KC_WORDS, &s);
	kc_fill(kc.c, KC_WORDS, &s);
	kc_fill(kc.d, KC_WORDS, &s);
	if (op == KC_OP_bitmap_equal || op == KC_OP_cpumask_equal)
		memcpy(kc.c, kc.a, sizeof(kc.c));	/* often equal on the bits */
	kc.o = (s = kc_mix(s)) % (kc.n + 2);
	kc.k = (s = kc_mix(s)) % (kc.n + 2);
	kc.len = (s = kc_mix(s)) % (kc.n + 1);
	kc.r = 0;
	return op;
}

/* Runs op `index`; returns its hash and puts its line in `line`. */
static u64 kc_run(unsigned long seed, unsigned long index, char *line, int size)
{
	unsigned int op = kc_draw(seed, index), i, words = 0;
	u64 h = 0xcbf29ce484222325ULL;

	switch (op) {
#define OP(name, cpumask, w, ...) case KC_OP_##name: { __VA_ARGS__; } words = w; break;
	KC_API_OPS
#undef OP
	}
	h = (h ^ kc.r) * 0x100000001b3ULL;
	for (i = 0; words && i < BITS_TO_LONGS(kc.n); i++) {
		unsigned long w = kc.d[i];
		if (words == 2 && (i + 1) * BITS_PER_LONG > kc.n)
			w &= BITMAP_LAST_WORD_MASK(kc.n);
		h = (h ^ w) * 0x100000001b3ULL;
	}
	snprintf(line, size, "KA %lu %s %lu %016llx", index, kc_names[op], kc.r, (unsigned long long)h);
	return h;
}

/* Every op of `seed` below `ops`, a line each, between a begin and an end line. */
static void kc_run_all(unsigned long seed, unsigned long ops)
{
	static char line[160];
	unsigned long i;

	snprintf(line, sizeof(line), "KA begin nr_cpu_ids %u seed %lu ops %lu", nr_cpu_ids, seed, ops);
	kc_emit(line);
	for (i = 0; i < ops; i++) {
		kc_run(seed, i, line, sizeof(line));
		kc_emit(line);
		if (i % 64 == 0)
			cond_resched();
	}
	snprintf(line, sizeof(line), "KA end %lu", ops);
	kc_emit(line);
}

#ifdef __KERNEL__
static unsigned long seed = 1;
module_param(seed, ulong, 0444);
static unsigned long ops = 5000;
module_param(ops, ulong, 0444);

static int __init kc_api_init(void)
{
	kc_run_all(seed, ops);
	return 0;
}
static void __exit kc_api_exit(void) { }
module_init(kc_api_init);
module_exit(kc_api_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("diffsched: the cpumask/bitmap API, op by op, against kshim");
#else
/* The shim side (kc_api_main.c): all ops, or op `show`'s inputs and line. */
void kc_api_run(unsigned long seed, unsigned long ops, long show)
{
	static char line[160];
	unsigned int op, i;

	if (show < 0) {
		kc_run_all(seed, ops);
		return;
	}
	op = kc_draw(seed, (unsigned long)show);
	snprintf(line, sizeof(line), "op %s: n=%lu o=%lu k=%lu len=%lu (words from 0, hex)", kc_names[op],
		 kc.n, kc.o, kc.k, kc.len);
	kc_emit(line);
	for (i = 0; i < BITS_TO_LONGS(kc.n); i++) {
		snprintf(line, sizeof(line), "  word %u: a=%016lx b=%016lx c=%016lx d=%016lx", i, kc.a[i], kc.b[i],
			 kc.c[i], kc.d[i]);
		kc_emit(line);
	}
	kc_run(seed, (unsigned long)show, line, sizeof(line));
	kc_emit(line);
}
#endif
