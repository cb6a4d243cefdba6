/* SPDX-License-Identifier: MIT */
/*
 * kshim: the cpumask API (include/linux/cpumask.h, lib/cpumask.c) of a
 * CONFIG_SMP=y, CONFIG_NR_CPUS=8192, CONFIG_CPUMASK_OFFSTACK=y x86_64
 * kernel, written for diffsched from the kernel's documented contracts.
 * Included by kshim/kshim.h after kshim/bitmap.h; do not include it alone.
 *
 *   unsigned int cpu = cpumask_first_and(a, b);   // >= nr_cpu_ids: none
 *   for_each_cpu_wrap(cpu, mask, start) ...        // start..end, then 0..start-1
 *
 * NR_CPUS (8192) is what struct cpumask holds; nr_cpu_ids is set per run by
 * the harness (kshim_reset_runtime()); nr_cpumask_bits, small_cpumask_bits
 * and large_cpumask_bits are all nr_cpu_ids, as with OFFSTACK (v6.3 split
 * nr_cpumask_bits into small/large; they differ only without OFFSTACK).
 * Every search returns a value >= nr_cpu_ids for "none" (exactly
 * nr_cpu_ids here: the find-bit size), and every operation reads or writes
 * the words below BITS_TO_LONGS(nr_cpu_ids) only.
 * Where kernels differ (KSHIM_KERNEL_VERSION, kshim/kshim.h):
 *   cpumask_next_wrap(n, mask, start, wrap) up to v6.14 (lib/cpumask.c: the
 *   next CPU after n, wrapping to 0; with wrap, >= nr_cpu_ids once the walk
 *   crosses start); cpumask_next_wrap(n, mask) from v6.15 (the next CPU
 *   after n, wrapping to CPU 0, >= nr_cpu_ids only for an empty mask);
 *   cpumask_setall() follows bitmap_fill() (kshim/bitmap.h).
 * Allocation: a cpumask_var_t holds cpumask_size() bytes, the words of
 * nr_cpu_ids bits (as OFFSTACK kernels allocate it; ASan sees past them).
 */
#ifndef KSHIM_CPUMASK_H
#define KSHIM_CPUMASK_H

#define NR_CPUS 8192
#define CONFIG_NR_CPUS NR_CPUS
#define CONFIG_SMP 1
#define CONFIG_CPUMASK_OFFSTACK 1
struct cpumask { DECLARE_BITMAP(bits, NR_CPUS); };
typedef struct cpumask cpumask_t;
typedef struct cpumask *cpumask_var_t;

extern unsigned int nr_cpu_ids;
#define nr_cpumask_bits nr_cpu_ids
#define small_cpumask_bits nr_cpu_ids
#define large_cpumask_bits nr_cpu_ids
extern struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask, __cpu_active_mask;
#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask ((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
#define cpu_active_mask ((const struct cpumask *)&__cpu_active_mask)
#define cpumask_bits(maskp) ((maskp)->bits)
#define to_cpumask(bitmap) ((struct cpumask *)(bitmap))
#define cpumask_pr_args(maskp) nr_cpu_ids, cpumask_bits(maskp)
#define CPU_BITS_NONE { [0 ... BITS_TO_LONGS(NR_CPUS) - 1] = 0UL }
#define CPU_MASK_NONE (cpumask_t){ { [0 ... BITS_TO_LONGS(NR_CPUS) - 1] = 0UL } }
#define CPU_BITS_CPU0 { [0] = 1UL }
#define CPU_MASK_CPU0 (cpumask_t){ { [0] = 1UL } }

/* cpumask_check(): the kernel warns (CONFIG_DEBUG_PER_CPU_MAPS) on a CPU at
 * or beyond nr_cpu_ids; the shim always does, so it becomes a finding. */
static inline unsigned int cpumask_check(unsigned int cpu)
{
	WARN_ON_ONCE(cpu >= nr_cpu_ids);
	return cpu;
}

/* ---- one CPU --------------------------------------------------------------- */
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	unsigned int c = cpumask_check((unsigned int)cpu);
	return c < NR_CPUS && test_bit(c, cpumask_bits(m));
}
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{ if (cpumask_check(cpu) < NR_CPUS) set_bit(cpu, cpumask_bits(m)); }
static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{ if (cpumask_check(cpu) < NR_CPUS) __set_bit(cpu, cpumask_bits(m)); }
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{ if (cpumask_check((unsigned int)cpu) < NR_CPUS) clear_bit((unsigned int)cpu, cpumask_bits(m)); }
static inline void __cpumask_clear_cpu(int cpu, struct cpumask *m)
{ if (cpumask_check((unsigned int)cpu) < NR_CPUS) __clear_bit((unsigned int)cpu, cpumask_bits(m)); }
/* cpumask_assign_cpu() (v6.4+): set if value, else clear. */
#define cpumask_assign_cpu(cpu, m, value) \
	((value) ? cpumask_set_cpu((cpu), (m)) : cpumask_clear_cpu((int)(cpu), (m)))
#define __cpumask_assign_cpu(cpu, m, value) \
	((value) ? __cpumask_set_cpu((cpu), (m)) : __cpumask_clear_cpu((int)(cpu), (m)))
static inline bool cpumask_test_and_set_cpu(int cpu, struct cpumask *m)
{ return cpumask_check((unsigned int)cpu) < NR_CPUS && test_and_set_bit((unsigned int)cpu, cpumask_bits(m)); }
static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *m)
{ return cpumask_check((unsigned int)cpu) < NR_CPUS && test_and_clear_bit((unsigned int)cpu, cpumask_bits(m)); }

/* ---- whole masks (nr_cpumask_bits bits) ------------------------------------ */
static inline void cpumask_clear(struct cpumask *m) { bitmap_zero(cpumask_bits(m), nr_cpumask_bits); }
static inline void cpumask_setall(struct cpumask *m) { bitmap_fill(cpumask_bits(m), nr_cpumask_bits); }
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s) { bitmap_copy(cpumask_bits(d), cpumask_bits(s), nr_cpumask_bits); }
static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ return bitmap_and(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline bool cpumask_andnot(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ return bitmap_andnot(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_or(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline void cpumask_xor(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_xor(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline void cpumask_complement(struct cpumask *d, const struct cpumask *s)
{ bitmap_complement(cpumask_bits(d), cpumask_bits(s), nr_cpumask_bits); }
static inline void cpumask_shift_right(struct cpumask *d, const struct cpumask *s, int n)
{ bitmap_shift_right(cpumask_bits(d), cpumask_bits(s), (unsigned int)n, nr_cpumask_bits); }
static inline void cpumask_shift_left(struct cpumask *d, const struct cpumask *s, int n)
{ bitmap_shift_left(cpumask_bits(d), cpumask_bits(s), (unsigned int)n, nr_cpumask_bits); }
static inline bool cpumask_empty(const struct cpumask *m) { return bitmap_empty(cpumask_bits(m), small_cpumask_bits); }
static inline bool cpumask_full(const struct cpumask *m) { return bitmap_full(cpumask_bits(m), nr_cpumask_bits); }
static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{ return bitmap_intersects(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{ return bitmap_equal(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline bool cpumask_or_equal(const struct cpumask *a, const struct cpumask *b, const struct cpumask *c)
{ return bitmap_or_equal(cpumask_bits(a), cpumask_bits(b), cpumask_bits(c), small_cpumask_bits); }
static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{ return bitmap_subset(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline unsigned int cpumask_weight(const struct cpumask *m) { return bitmap_weight(cpumask_bits(m), small_cpumask_bits); }
/* cpumask_weight_and() (v6.0+), cpumask_weight_andnot() (v6.6+). */
static inline unsigned int cpumask_weight_and(const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)bitmap_weight_and(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline unsigned int cpumask_weight_andnot(const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)bitmap_weight_andnot(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
/* The bytes a cpumask_var_t holds: with OFFSTACK, the kernel allocates the
 * nr_cpu_ids bits' words only (cpumask_size(): BITS_TO_LONGS(nr_cpumask_bits)
 * longs to v6.4, BITS_TO_LONGS(large_cpumask_bits) after, both nr_cpu_ids),
 * so neither may a candidate or the glue write a whole struct cpumask into
 * one: under ASan, the shim's allocation is exactly that size. */
static inline unsigned int cpumask_size(void)
{ return (unsigned int)(BITS_TO_LONGS(nr_cpu_ids) * sizeof(unsigned long)); }

/* ---- searches: >= nr_cpu_ids means none ------------------------------------ */
static inline unsigned int cpumask_first(const struct cpumask *m)
{ return (unsigned int)find_first_bit(cpumask_bits(m), small_cpumask_bits); }
static inline unsigned int cpumask_first_zero(const struct cpumask *m)
{ return (unsigned int)find_first_zero_bit(cpumask_bits(m), small_cpumask_bits); }
static inline unsigned int cpumask_first_and(const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)find_first_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
/* cpumask_first_andnot() (v6.4+), cpumask_first_and_and() (v6.11+). */
static inline unsigned int cpumask_first_andnot(const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)find_first_andnot_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline unsigned int cpumask_first_and_and(const struct cpumask *a, const struct cpumask *b, const struct cpumask *c)
{ return (unsigned int)find_first_and_and_bit(cpumask_bits(a), cpumask_bits(b), cpumask_bits(c), small_cpumask_bits); }
static inline unsigned int cpumask_last(const struct cpumask *m)
{ return (unsigned int)find_last_bit(cpumask_bits(m), small_cpumask_bits); }
/* cpumask_next*(n, ...): the first CPU after n; n == -1 starts at CPU 0. */
#define KSHIM_CPUMASK_NEXT(n, FIND) ({ \
	if ((n) != -1) cpumask_check((unsigned int)(n)); \
	(unsigned int)FIND; })
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{ return KSHIM_CPUMASK_NEXT(n, find_next_bit(cpumask_bits(m), small_cpumask_bits, (unsigned long)(n + 1))); }
static inline unsigned int cpumask_next_zero(int n, const struct cpumask *m)
{ return KSHIM_CPUMASK_NEXT(n, find_next_zero_bit(cpumask_bits(m), small_cpumask_bits, (unsigned long)(n + 1))); }
static inline unsigned int cpumask_next_and(int n, const struct cpumask *a, const struct cpumask *b)
{ return KSHIM_CPUMASK_NEXT(n, find_next_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, (unsigned long)(n + 1))); }
/* cpumask_next_andnot() (v6.2+). */
static inline unsigned int cpumask_next_andnot(int n, const struct cpumask *a, const struct cpumask *b)
{ return KSHIM_CPUMASK_NEXT(n, find_next_andnot_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, (unsigned long)(n + 1))); }
/* cpumask_next_and_wrap(n, a, b) (v6.15+): the next CPU of both after n,
 * wrapping to CPU 0. */
static inline unsigned int cpumask_next_and_wrap(int n, const struct cpumask *a, const struct cpumask *b)
{ return KSHIM_CPUMASK_NEXT(n, find_next_and_bit_wrap(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, (unsigned long)(n + 1))); }
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 15)
static inline unsigned int cpumask_next_wrap(int n, const struct cpumask *m)
{ return KSHIM_CPUMASK_NEXT(n, find_next_bit_wrap(cpumask_bits(m), small_cpumask_bits, (unsigned long)(n + 1))); }
#else
static inline unsigned int cpumask_next_wrap(int n, const struct cpumask *m, int start, bool wrap)
{
	unsigned int next;

	for (;;) {	/* start is not checked (lib/cpumask.c does not) */
		next = cpumask_next(n, m);
		if (wrap && n < start && next >= (unsigned int)start)
			return nr_cpumask_bits;
		if (next < nr_cpumask_bits)
			return next;
		wrap = true;
		n = -1;
	}
}
#endif
/* cpumask_nth*(i, ...): the i-th (from 0) CPU of the set, >= nr_cpu_ids if
 * it has no more than i CPUs (v6.0+; _and_andnot v6.5+). */
static inline unsigned int cpumask_nth(unsigned int i, const struct cpumask *m)
{ return (unsigned int)find_nth_bit(cpumask_bits(m), small_cpumask_bits, cpumask_check(i)); }
static inline unsigned int cpumask_nth_and(unsigned int i, const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)find_nth_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, cpumask_check(i)); }
static inline unsigned int cpumask_nth_andnot(unsigned int i, const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)find_nth_andnot_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, cpumask_check(i)); }
static inline unsigned int cpumask_nth_and_andnot(unsigned int i, const struct cpumask *a, const struct cpumask *b, const struct cpumask *c)
{ return (unsigned int)find_nth_and_andnot_bit(cpumask_bits(a), cpumask_bits(b), cpumask_bits(c), small_cpumask_bits, cpumask_check(i)); }
#define cpumask_any(m) cpumask_first(m)
#define cpumask_any_and(a, b) cpumask_first_and((a), (b))
/* cpumask_any_but(m, cpu): the first CPU of m other than cpu. */
static inline unsigned int cpumask_any_but(const struct cpumask *m, unsigned int cpu)
{
	unsigned int i;

	cpumask_check(cpu);
	i = cpumask_first(m);
	return i != cpu ? i : cpumask_next((int)cpu, m);
}
/* cpumask_any_and_but(a, b, cpu) (v6.9+). */
static inline unsigned int cpumask_any_and_but(const struct cpumask *a, const struct cpumask *b, unsigned int cpu)
{
	unsigned int i;

	cpumask_check(cpu);
	i = cpumask_first_and(a, b);
	return i != cpu ? i : cpumask_next_and((int)cpu, a, b);
}
/* cpumask_any_distribute() (v5.9+): the next CPU of the set after the one it
 * returned last (one rotor for the run, the kernel's is per CPU), wrapping. */
unsigned int cpumask_any_distribute(const struct cpumask *m);
unsigned int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b);

/* ---- iterators: after the loop, cpu >= nr_cpu_ids -------------------------- */
#define for_each_cpu(cpu, mask) for_each_set_bit(cpu, cpumask_bits(mask), small_cpumask_bits)
#define for_each_cpu_not(cpu, mask) for_each_clear_bit(cpu, cpumask_bits(mask), small_cpumask_bits)
#define for_each_cpu_from(cpu, mask) for_each_set_bit_from(cpu, cpumask_bits(mask), small_cpumask_bits)
#define for_each_cpu_wrap(cpu, mask, start) \
	for_each_set_bit_wrap(cpu, cpumask_bits(mask), small_cpumask_bits, start)
#define for_each_cpu_and(cpu, m1, m2) \
	for_each_and_bit(cpu, cpumask_bits(m1), cpumask_bits(m2), small_cpumask_bits)
#define for_each_cpu_andnot(cpu, m1, m2) \
	for_each_andnot_bit(cpu, cpumask_bits(m1), cpumask_bits(m2), small_cpumask_bits)
#define for_each_cpu_or(cpu, m1, m2) \
	for_each_or_bit(cpu, cpumask_bits(m1), cpumask_bits(m2), small_cpumask_bits)
#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)
#define for_each_active_cpu(cpu) for_each_cpu((cpu), cpu_active_mask)

/* ---- the system masks ------------------------------------------------------ */
#define cpu_possible(cpu) cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_present(cpu) cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_active(cpu) cpumask_test_cpu((cpu), cpu_active_mask)
#define cpu_is_offline(cpu) unlikely(!cpu_online(cpu))
/* include/linux/cpumask.h: what CPU hotplug calls (kernel/cpu.c, sched/core.c). */
static inline void set_cpu_online(unsigned int cpu, bool online)
{
	if (online)
		cpumask_set_cpu(cpu, &__cpu_online_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_online_mask);
}
static inline void set_cpu_active(unsigned int cpu, bool active)
{
	if (active)
		cpumask_set_cpu(cpu, &__cpu_active_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_active_mask);
}
#define num_possible_cpus() cpumask_weight(cpu_possible_mask)
#define num_present_cpus() cpumask_weight(cpu_present_mask)
#define num_active_cpus() cpumask_weight(cpu_active_mask)
#define num_online_cpus() cpumask_weight(cpu_online_mask)
/* cpumask_of(cpu): a constant mask of that CPU alone (lib/cpumask.c's
 * cpu_bit_bitmap table, kshim/runtime/bitmap.c). */
const struct cpumask *kshim_cpumask_of(unsigned int cpu);
#define get_cpu_mask(cpu) kshim_cpumask_of(cpu)
#define cpumask_of(cpu) kshim_cpumask_of(cpu)
/* The CPU hotplug lock (include/linux/cpu.h): nothing changes CPUs during a
 * call here, so these only have to exist. */
static inline void cpu_hotplug_disable(void) { }
static inline void cpu_hotplug_enable(void) { }
static inline void cpus_read_lock(void) { }
static inline void cpus_read_unlock(void) { }
#define get_online_cpus() cpus_read_lock()
#define put_online_cpus() cpus_read_unlock()

/* ---- parsing and printing (bitmap_parse*() on nr_cpumask_bits bits) ------- */
static inline int cpumask_parse(const char *buf, struct cpumask *m)
{
	const char *nl = buf;

	while (*nl && *nl != '\n') nl++;
	return bitmap_parse(buf, (unsigned int)(nl - buf), cpumask_bits(m), (int)nr_cpumask_bits);
}
static inline int cpulist_parse(const char *buf, struct cpumask *m)
{ return bitmap_parselist(buf, cpumask_bits(m), (int)nr_cpumask_bits); }
#define cpumask_parselist(buf, m) cpulist_parse(buf, m)
static inline ssize_t cpumap_print_to_pagebuf(bool list, char *buf, const struct cpumask *m)
{ return bitmap_print_to_pagebuf(list, buf, cpumask_bits(m), (int)nr_cpu_ids); }

/* ---- off-stack masks: cpumask_size() bytes from the allocator -------------- */
static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{ *mask = (struct cpumask *)kshim_alloc(1, cpumask_size(), (flags & __GFP_ZERO) != 0); return *mask != NULL; }
static inline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{ (void)flags; *mask = (struct cpumask *)kshim_alloc(1, cpumask_size(), 1); return *mask != NULL; }
#define alloc_cpumask_var_node(mask, flags, node) alloc_cpumask_var(mask, flags)
#define zalloc_cpumask_var_node(mask, flags, node) zalloc_cpumask_var(mask, flags)
static inline void free_cpumask_var(cpumask_var_t mask) { kfree(mask); }
static inline bool cpumask_available(cpumask_var_t mask) { return mask != NULL; }
#define alloc_bootmem_cpumask_var(mask) ((void)zalloc_cpumask_var((mask), GFP_KERNEL))
#define free_bootmem_cpumask_var(mask) free_cpumask_var(mask)
#define __cpumask_var_read_mostly

#endif /* KSHIM_CPUMASK_H */
