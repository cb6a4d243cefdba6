/* SPDX-License-Identifier: MIT */
/*
 * kshim: the part of the kernel API that kernel/sched/cpudeadline.c and
 * kernel-style destination picks use, for userspace, written for diffsched.
 *
 *   #include <linux/cpumask.h>      (every linux/... header of the shim ends here)
 *   struct cpumask m;  cpumask_clear(&m);  cpumask_set_cpu(3, &m);
 *
 * The model is a CONFIG_SMP=y, CONFIG_NR_CPUS=8192, CONFIG_CPUMASK_OFFSTACK=y
 * x86_64 kernel: struct cpumask holds NR_CPUS bits, cpumask_var_t is a
 * pointer, small_cpumask_bits == nr_cpumask_bits == nr_cpu_ids, and
 * "not found" is nr_cpu_ids (find_*_bit return their size argument).
 * nr_cpu_ids, cpu_possible_mask and cpu_present_mask are set by the harness
 * before every run (kshim_reset()); cpu_online_mask and cpu_active_mask start
 * equal to them and are state of the run: the ops cpu_down/cpu_up change them
 * as CPU hotplug does (set_cpu_active(), set_cpu_online()). Locking is single-threaded bookkeeping;
 * WARN_ON()/WARN_ON_ONCE()/WARN()/BUG_ON() record a warning that the harness
 * reports as a finding naming the op; allocation only fails on request.
 *
 * No libc header is included: the shim's include directory shadows
 * <linux/...>, which libc headers may pull in themselves.
 */
#ifndef KSHIM_KSHIM_H
#define KSHIM_KSHIM_H

/* ---- include/linux/types.h, compiler.h ---------------------------------- */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef _Bool bool;
typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned int gfp_t;
#define true 1
#define false 0
#define NULL ((void *)0)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#define __read_mostly
#define __init
#define __exit
#define __must_check
#define __cacheline_aligned
#define __percpu
#define __rcu
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON(" #c ")")
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define swap(a, b) \
	do { __typeof__(a) __kshim_tmp = (a); (a) = (b); (b) = __kshim_tmp; } while (0)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

/* ---- include/linux/string.h: the C library's, as the kernel's lib/string.c */
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#define ENOMEM 12
#define EINVAL 22

/* ---- WARN_ON & co: recorded, reported as a finding by the harness ------- */
void kshim_warn(const char *file, int line, const char *cond);
#define WARN_ON(cond) ({ \
	int __kshim_c = !!(cond); \
	if (unlikely(__kshim_c)) kshim_warn(__FILE__, __LINE__, "WARN_ON(" #cond ")"); \
	unlikely(__kshim_c); })
#define WARN_ON_ONCE(cond) ({ \
	int __kshim_c = !!(cond); \
	if (unlikely(__kshim_c)) kshim_warn(__FILE__, __LINE__, "WARN_ON_ONCE(" #cond ")"); \
	unlikely(__kshim_c); })
#define WARN(cond, ...) ({ \
	int __kshim_c = !!(cond); \
	if (unlikely(__kshim_c)) kshim_warn(__FILE__, __LINE__, "WARN(" #cond ")"); \
	unlikely(__kshim_c); })
#define WARN_ONCE(cond, ...) WARN(cond, __VA_ARGS__)
#define BUG_ON(cond) do { if (unlikely(cond)) kshim_warn(__FILE__, __LINE__, "BUG_ON(" #cond ")"); } while (0)
#define BUG() kshim_warn(__FILE__, __LINE__, "BUG()")

/* ---- allocation (include/linux/slab.h, gfp.h) ---------------------------- */
#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define GFP_NOWAIT 0x4u
#define __GFP_ZERO 0x100u
void *kshim_alloc(size_t n, size_t size, bool zero);
void kfree(const void *p);
static inline void *kmalloc(size_t size, gfp_t gfp) { (void)gfp; return kshim_alloc(1, size, gfp & __GFP_ZERO); }
static inline void *kzalloc(size_t size, gfp_t gfp) { (void)gfp; return kshim_alloc(1, size, 1); }
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp) { (void)gfp; return kshim_alloc(n, size, 1); }
static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp) { (void)gfp; return kshim_alloc(n, size, gfp & __GFP_ZERO); }
#define kcalloc_node(n, size, gfp, node) kcalloc(n, size, gfp)
#define kzalloc_node(size, gfp, node) kzalloc(size, gfp)
/* The typed allocators of the newest kernels: kzalloc_objs(VAR, COUNT[, GFP]). */
#define kmalloc_obj(VAR, ...) ((__typeof__(VAR) *)kshim_alloc(1, sizeof(VAR), 0))
#define kzalloc_obj(VAR, ...) ((__typeof__(VAR) *)kshim_alloc(1, sizeof(VAR), 1))
#define kmalloc_objs(VAR, COUNT, ...) ((__typeof__(VAR) *)kshim_alloc((COUNT), sizeof(VAR), 0))
#define kzalloc_objs(VAR, COUNT, ...) ((__typeof__(VAR) *)kshim_alloc((COUNT), sizeof(VAR), 1))
#define kcalloc_objs kzalloc_objs

/* ---- bitops, bitmap, find_bit (include/linux/bitmap.h, lib/find_bit.c) -- */
#define BITS_PER_LONG 64
#define BITS_PER_BYTE 8
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline void __set_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] |= BIT_MASK(nr); }
static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] &= ~BIT_MASK(nr); }
static inline void set_bit(unsigned long nr, volatile unsigned long *addr) { __set_bit(nr, addr); }
static inline void clear_bit(unsigned long nr, volatile unsigned long *addr) { __clear_bit(nr, addr); }
static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr) { return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1UL; }
static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long *addr) { bool old = test_bit(nr, addr); __set_bit(nr, addr); return old; }
static inline bool test_and_set_bit(unsigned long nr, volatile unsigned long *addr) { return __test_and_set_bit(nr, addr); }
static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long *addr) { bool old = test_bit(nr, addr); __clear_bit(nr, addr); return old; }
static inline bool test_and_clear_bit(unsigned long nr, volatile unsigned long *addr) { return __test_and_clear_bit(nr, addr); }

/* The FIND_FIRST_BIT / FIND_NEXT_BIT shape: first set bit of WORD(idx) at or
 * after start, below size, else size. O(size / BITS_PER_LONG). */
#define KSHIM_FIND_NEXT(WORD, size, start) ({ \
	unsigned long __sz = (size), __st = (start), __res = __sz; \
	if (__st < __sz) { \
		unsigned long idx = __st / BITS_PER_LONG; \
		unsigned long __t = (WORD) & BITMAP_FIRST_WORD_MASK(__st); \
		while (!__t && (idx + 1) * BITS_PER_LONG < __sz) { idx++; __t = (WORD); } \
		if (__t) { \
			__res = idx * BITS_PER_LONG + (unsigned long)__builtin_ctzl(__t); \
			if (__res > __sz) __res = __sz; \
		} \
	} \
	__res; })

static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(addr[idx], size, offset); }
static inline unsigned long find_next_and_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] & a2[idx], size, offset); }
static inline unsigned long find_next_andnot_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(a1[idx] & ~a2[idx], size, offset); }
static inline unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{ return KSHIM_FIND_NEXT(~addr[idx], size, offset); }
static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{ return find_next_bit(addr, size, 0); }
static inline unsigned long find_first_and_bit(const unsigned long *a1, const unsigned long *a2, unsigned long size)
{ return find_next_and_bit(a1, a2, size, 0); }
static inline unsigned long find_first_and_and_bit(const unsigned long *a1, const unsigned long *a2, const unsigned long *a3, unsigned long size)
{ return KSHIM_FIND_NEXT(a1[idx] & a2[idx] & a3[idx], size, 0); }
static inline unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size)
{ return find_next_zero_bit(addr, size, 0); }
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size); (bit) = find_next_bit((addr), (size), (bit) + 1))

/* bitmap_*: words below BITS_TO_LONGS(nbits) only; the last partial word of a
 * result is masked (lib/bitmap.c). */
static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{ for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++) dst[k] = 0; }
static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{ for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++) dst[k] = ~0UL;
  if (nbits % BITS_PER_LONG) dst[nbits / BITS_PER_LONG] &= BITMAP_LAST_WORD_MASK(nbits); }
static inline void bitmap_copy(unsigned long *dst, const unsigned long *src, unsigned int nbits)
{ for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++) dst[k] = src[k]; }
static inline bool bitmap_and(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG;
	unsigned long result = 0;
	for (k = 0; k < lim; k++) result |= (dst[k] = b1[k] & b2[k]);
	if (nbits % BITS_PER_LONG) result |= (dst[k] = b1[k] & b2[k] & BITMAP_LAST_WORD_MASK(nbits));
	return result != 0;
}
static inline bool bitmap_andnot(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG;
	unsigned long result = 0;
	for (k = 0; k < lim; k++) result |= (dst[k] = b1[k] & ~b2[k]);
	if (nbits % BITS_PER_LONG) result |= (dst[k] = b1[k] & ~b2[k] & BITMAP_LAST_WORD_MASK(nbits));
	return result != 0;
}
static inline void bitmap_or(unsigned long *dst, const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++) dst[k] = b1[k] | b2[k]; }
static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{ return find_first_bit(src, nbits) >= nbits; }
static inline bool bitmap_intersects(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{ return find_first_and_bit(b1, b2, nbits) < nbits; }
static inline bool bitmap_equal(const unsigned long *b1, const unsigned long *b2, unsigned int nbits)
{
	unsigned int k, lim = nbits / BITS_PER_LONG;
	for (k = 0; k < lim; k++) if (b1[k] != b2[k]) return false;
	return !(nbits % BITS_PER_LONG) || !((b1[k] ^ b2[k]) & BITMAP_LAST_WORD_MASK(nbits));
}
static inline unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int k, w = 0, lim = nbits / BITS_PER_LONG;
	for (k = 0; k < lim; k++) w += (unsigned int)__builtin_popcountl(src[k]);
	if (nbits % BITS_PER_LONG) w += (unsigned int)__builtin_popcountl(src[k] & BITMAP_LAST_WORD_MASK(nbits));
	return w;
}

/* ---- cpumask (include/linux/cpumask.h, CONFIG_CPUMASK_OFFSTACK=y) ------- */
#define NR_CPUS 8192
#define CONFIG_NR_CPUS NR_CPUS
#define CONFIG_SMP 1
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

/* cpumask_check(): the kernel warns (CONFIG_DEBUG_PER_CPU_MAPS) on a CPU at
 * or beyond nr_cpu_ids; the shim always does, so it becomes a finding. */
static inline unsigned int cpumask_check(unsigned int cpu)
{
	WARN_ON_ONCE(cpu >= nr_cpu_ids);
	return cpu;
}
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
static inline bool cpumask_test_and_set_cpu(int cpu, struct cpumask *m)
{ return cpumask_check((unsigned int)cpu) < NR_CPUS && test_and_set_bit((unsigned int)cpu, cpumask_bits(m)); }
static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *m)
{ return cpumask_check((unsigned int)cpu) < NR_CPUS && test_and_clear_bit((unsigned int)cpu, cpumask_bits(m)); }

static inline void cpumask_clear(struct cpumask *m) { bitmap_zero(cpumask_bits(m), nr_cpumask_bits); }
static inline void cpumask_setall(struct cpumask *m) { bitmap_fill(cpumask_bits(m), nr_cpumask_bits); }
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s) { bitmap_copy(cpumask_bits(d), cpumask_bits(s), nr_cpumask_bits); }
static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ return bitmap_and(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline bool cpumask_andnot(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ return bitmap_andnot(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_or(cpumask_bits(d), cpumask_bits(a), cpumask_bits(b), nr_cpumask_bits); }
static inline bool cpumask_empty(const struct cpumask *m) { return bitmap_empty(cpumask_bits(m), small_cpumask_bits); }
static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{ return bitmap_intersects(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{ return bitmap_equal(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline unsigned int cpumask_weight(const struct cpumask *m) { return bitmap_weight(cpumask_bits(m), small_cpumask_bits); }

static inline unsigned int cpumask_first(const struct cpumask *m)
{ return (unsigned int)find_first_bit(cpumask_bits(m), small_cpumask_bits); }
static inline unsigned int cpumask_first_and(const struct cpumask *a, const struct cpumask *b)
{ return (unsigned int)find_first_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits); }
static inline unsigned int cpumask_first_and_and(const struct cpumask *a, const struct cpumask *b, const struct cpumask *c)
{ return (unsigned int)find_first_and_and_bit(cpumask_bits(a), cpumask_bits(b), cpumask_bits(c), small_cpumask_bits); }
static inline unsigned int cpumask_first_zero(const struct cpumask *m)
{ return (unsigned int)find_first_zero_bit(cpumask_bits(m), small_cpumask_bits); }
/* cpumask_next(n, m): the first CPU after n; n == -1 starts at CPU 0. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	if (n != -1) cpumask_check((unsigned int)n);
	return (unsigned int)find_next_bit(cpumask_bits(m), small_cpumask_bits, (unsigned long)(n + 1));
}
static inline unsigned int cpumask_next_and(int n, const struct cpumask *a, const struct cpumask *b)
{
	if (n != -1) cpumask_check((unsigned int)n);
	return (unsigned int)find_next_and_bit(cpumask_bits(a), cpumask_bits(b), small_cpumask_bits, (unsigned long)(n + 1));
}
#define cpumask_any(m) cpumask_first(m)
#define cpumask_any_and(a, b) cpumask_first_and((a), (b))
#define for_each_cpu(cpu, mask) \
	for ((cpu) = 0; (cpu) = (__typeof__(cpu))find_next_bit(cpumask_bits(mask), small_cpumask_bits, (unsigned long)(cpu)), \
	     (unsigned int)(cpu) < small_cpumask_bits; (cpu)++)
#define for_each_cpu_and(cpu, m1, m2) \
	for ((cpu) = 0; (cpu) = (__typeof__(cpu))find_next_and_bit(cpumask_bits(m1), cpumask_bits(m2), small_cpumask_bits, (unsigned long)(cpu)), \
	     (unsigned int)(cpu) < small_cpumask_bits; (cpu)++)
#define for_each_cpu_andnot(cpu, m1, m2) \
	for ((cpu) = 0; (cpu) = (__typeof__(cpu))find_next_andnot_bit(cpumask_bits(m1), cpumask_bits(m2), small_cpumask_bits, (unsigned long)(cpu)), \
	     (unsigned int)(cpu) < small_cpumask_bits; (cpu)++)
#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu) cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_present(cpu) cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_active(cpu) cpumask_test_cpu((cpu), cpu_active_mask)
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

/* Off-stack masks: a whole struct cpumask from the allocator. */
static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{ (void)flags; *mask = (struct cpumask *)kshim_alloc(1, sizeof(struct cpumask), 0); return *mask != NULL; }
static inline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{ (void)flags; *mask = (struct cpumask *)kshim_alloc(1, sizeof(struct cpumask), 1); return *mask != NULL; }
#define alloc_cpumask_var_node(mask, flags, node) alloc_cpumask_var(mask, flags)
#define zalloc_cpumask_var_node(mask, flags, node) zalloc_cpumask_var(mask, flags)
static inline void free_cpumask_var(cpumask_var_t mask) { kfree(mask); }

/* ---- locking: single-threaded bookkeeping -------------------------------- */
typedef struct { int held; } raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;
void kshim_lock(raw_spinlock_t *lock, const char *file, int line);
void kshim_unlock(raw_spinlock_t *lock, const char *file, int line);
#define raw_spin_lock_init(l) ((l)->held = 0)
#define spin_lock_init(l) raw_spin_lock_init(l)
#define raw_spin_lock(l) kshim_lock((l), __FILE__, __LINE__)
#define raw_spin_unlock(l) kshim_unlock((l), __FILE__, __LINE__)
#define raw_spin_lock_irqsave(l, flags) do { (flags) = 0; raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags) do { (void)(flags); raw_spin_unlock(l); } while (0)
#define raw_spin_lock_irq(l) raw_spin_lock(l)
#define raw_spin_unlock_irq(l) raw_spin_unlock(l)
#define spin_lock(l) raw_spin_lock(l)
#define spin_unlock(l) raw_spin_unlock(l)
#define spin_lock_irqsave(l, f) raw_spin_lock_irqsave(l, f)
#define spin_unlock_irqrestore(l, f) raw_spin_unlock_irqrestore(l, f)
#define lockdep_assert_held(l) WARN_ON(!(l)->held)
#define local_irq_save(flags) ((flags) = 0)
#define local_irq_restore(flags) ((void)(flags))
#define preempt_disable() do { } while (0)
#define preempt_enable() do { } while (0)
#define rcu_read_lock() do { } while (0)
#define rcu_read_unlock() do { } while (0)

/* ---- include/linux/sched/deadline.h, sched.h (the task) ------------------ */
/* A file's own definition wins (v3.14's cpudeadline.c has a static inline
 * int one): kernel-check passes -DKSHIM_OWN_<name> for each helper of the
 * shim the file (or its cpudeadline.h) defines itself. */
#ifndef KSHIM_OWN_dl_time_before
static inline bool dl_time_before(u64 a, u64 b) { return (s64)(a - b) < 0; }
#endif

struct sched_dl_entity {
	u64 dl_runtime;
	u64 dl_deadline;
	u64 dl_period;
	u64 dl_bw;
	u64 dl_density;
	s64 runtime;
	u64 deadline;
	unsigned int flags;
};
/* Every name the affinity had in cpudeadline.c's history: tsk_cpus_allowed(p)
 * (v4.8), p->cpus_allowed (v4.9..v5.2), p->cpus_ptr / p->cpus_mask (v5.3+). */
struct task_struct {
	struct sched_dl_entity dl;
	int prio;
	unsigned int cpu;
	const struct cpumask *cpus_ptr;
	union {
		struct cpumask cpus_mask;
		struct cpumask cpus_allowed;
	};
	int nr_cpus_allowed;
};
#define tsk_cpus_allowed(tsk) (&(tsk)->cpus_allowed)
#ifndef KSHIM_OWN_task_cpu
static inline unsigned int task_cpu(const struct task_struct *p) { return p->cpu; }
#endif

/* ---- CPU capacity (asymmetric-capacity branch of cpudl_find, v5.9+) ------ */
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
#define cap_scale(v, s) ((v) * (s) >> SCHED_CAPACITY_SHIFT)
extern unsigned long kshim_cpu_capacity[NR_CPUS];
static inline unsigned long kshim_arch_scale_cpu_capacity(int cpu) { return kshim_cpu_capacity[cpu]; }
/* arch_scale_cpu_capacity(cpu) (v5.4+) and arch_scale_cpu_capacity(sd, cpu)
 * (v4.10 .. v5.3, which Android backports of the capacity branch call as
 * arch_scale_cpu_capacity(NULL, cpu)): the last argument is the CPU. */
#define KSHIM_LAST_OF_1_OR_2(a, ...) KSHIM_LAST_ARG(a, ##__VA_ARGS__, a)
#define KSHIM_LAST_ARG(a, b, ...) b
#define arch_scale_cpu_capacity(...) kshim_arch_scale_cpu_capacity(KSHIM_LAST_OF_1_OR_2(__VA_ARGS__))
/* No frequency scaling is modelled: every CPU runs at its full capacity. */
#define arch_scale_freq_capacity(...) SCHED_CAPACITY_SCALE
/* The CPU that runs cpudl_find(): the task's caller runs on CPU 0. */
#define smp_processor_id() 0
#define raw_smp_processor_id() 0
struct static_key_false { int enabled; };
#define static_branch_unlikely(k) unlikely((k)->enabled)
#define static_branch_likely(k) likely((k)->enabled)
#define static_key_enabled(k) ((k)->enabled)
extern struct static_key_false sched_asym_cpucapacity;

#endif /* KSHIM_KSHIM_H */
