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

/* The kernel whose contract the shim follows where kernels differ (each
 * such place says so: bitmap_fill(), cpumask_next_wrap(), ...):
 * -DKSHIM_KERNEL_VERSION='KSHIM_KV(4,14)'; the default is v6.19. */
#define KSHIM_KV(major, minor) ((major) * 256 + (minor))
#ifndef KSHIM_KERNEL_VERSION
#define KSHIM_KERNEL_VERSION KSHIM_KV(6, 19)
#endif

/* ---- include/linux/kconfig.h (the kernel's build includes it first) ------ */
/* IS_ENABLED(CONFIG_X) and the like, in #if and in C: 1 when CONFIG_X (or,
 * for a module, CONFIG_X_MODULE) is defined as 1, as Kconfig defines the
 * options that are on (the shim's CONFIG_NUMA, --config CONFIG_X), else 0.
 * An option defined as 1 turns `__kshim_on_##x` into `0,`, so that the
 * second argument picked is 1; anything else leaves one argument before 0. */
#define __kshim_on_1 0,
#define __kshim_second(ignored, val, ...) val
#define __kshim_pick(arg1_or_junk) __kshim_second(arg1_or_junk 1, 0, 0)
#define __kshim_paste_on(val) __kshim_pick(__kshim_on_##val)
#define __is_defined(x) __kshim_paste_on(x)
#define IS_BUILTIN(option) __is_defined(option)
#define IS_MODULE(option) __is_defined(option##_MODULE)
#define IS_ENABLED(option) (IS_BUILTIN(option) || IS_MODULE(option))
#define IS_REACHABLE(option) (IS_BUILTIN(option) || (IS_MODULE(option) && __is_defined(MODULE)))

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
typedef unsigned long uintptr_t;
typedef unsigned int gfp_t;
#define true 1
#define false 0
#define NULL ((void *)0)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((__always_inline__))
#define __attribute_const__ __attribute__((__const__))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#define __read_mostly
#define __init
#define __exit
#define __must_check
#define __initdata
#define __initconst
#define __used __attribute__((__used__))
#define __pure __attribute__((__pure__))
#define __user
#define __cacheline_aligned
#define __percpu
#define __rcu
/* A prototype of a function that another kernel file defines (not the
 * runtime): diffsched fn makes it a stub, its results drawn from the input. */
#define KSHIM_ELSEWHERE __attribute__((__annotate__("kshim:elsewhere")))
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
/* BUILD_BUG_ON(c): as the kernel's (compiletime_assert), the optimiser must
 * prove c false, so it accepts what folds only after inlining
 * (__builtin_constant_p of an inline's result); unoptimised, c must be an
 * integer constant expression. */
#ifdef __OPTIMIZE__
#define KSHIM_PASTE2(a, b) a##b
#define KSHIM_PASTE(a, b) KSHIM_PASTE2(a, b)
#define KSHIM_BUILD_BUG_ON(c, name) do { \
	extern void name(void) __attribute__((__error__("BUILD_BUG_ON(" #c ") failed"))); \
	if (c) name(); } while (0)
#define BUILD_BUG_ON(c) KSHIM_BUILD_BUG_ON(c, KSHIM_PASTE(__kshim_build_bug_, __COUNTER__))
#else
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON(" #c ")")
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define __round_mask(x, y) ((__typeof__(x))((y) - 1))
#define round_up(x, y) ((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define ALIGN(x, a) (((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define INT_MAX ((int)(~0U >> 1))
#define UINT_MAX (~0U)
#define LONG_MAX ((long)(~0UL >> 1))
#define ULONG_MAX (~0UL)
#define U32_MAX ((u32)~0U)
#define U64_MAX ((u64)~0ULL)
#define PAGE_SIZE 4096UL
typedef long long loff_t;
typedef int pid_t;
/* A list node (include/linux/types.h); no list API is modelled. */
struct list_head { struct list_head *next, *prev; };
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define abs(x) ({ __typeof__(x) __kshim_x = (x); __kshim_x < 0 ? -__kshim_x : __kshim_x; })
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
/* swap(a, b) as include/linux/minmax.h has it. Called with another number
 * of arguments, `swap` is left as written (a macro's own name is not
 * expanded again): a member named swap, as lib/sort.c's
 * `((const struct wrapper *)priv)->swap(a, b, (int)size)`, which the
 * kernel's lib/sort.c compiles without minmax.h. */
#define __kshim_swap2(a, b) \
	do { __typeof__(a) __kshim_tmp = (a); (a) = (b); (b) = __kshim_tmp; } while (0)
#define __kshim_swap_pick(a, b, c, name, ...) name
#define swap(...) __kshim_swap_pick(__VA_ARGS__, swap, __kshim_swap2, 0)(__VA_ARGS__)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

/* ---- include/linux/string.h: the C library's, as the kernel's lib/string.c */
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#define ENOMEM 12
#define EINVAL 22
#define ERANGE 34
#define EOVERFLOW 75

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

/* ---- include/linux/printk.h: messages, not observed ----------------------
 * printk() evaluates its arguments (a call among them runs, as in the
 * kernel) and prints nothing: a message is not compared. pr_debug() and
 * no_printk() are the kernel's without DEBUG: type-checked, not evaluated. */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT KERN_SOH "c"
#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "kshim"
#endif
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
static inline __attribute__((format(printf, 1, 2))) int printk(const char *fmt, ...) { (void)fmt; return 0; }
#define printk_deferred printk
#define no_printk(fmt, ...) ({ if (0) printk(fmt, ##__VA_ARGS__); 0; })
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning pr_warn
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define printk_once printk
#define pr_err_once pr_err
#define pr_warn_once pr_warn
#define pr_info_once pr_info
#define pr_err_ratelimited pr_err
#define pr_warn_ratelimited pr_warn
#define pr_info_ratelimited pr_info

/* ---- allocation (include/linux/slab.h, gfp.h) ---------------------------- */
#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define GFP_NOWAIT 0x4u
#define __GFP_ZERO 0x100u
void *kshim_alloc(size_t n, size_t size, bool zero);
void kfree(const void *p);
/* include/linux/sched.h's cond_resched(): a scheduling point; a single
 * thread here has nothing to yield to (lib/sort.c's __sort_r()). */
static inline int cond_resched(void) { return 0; }
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

/* ---- bitops, find-bit, bitmap, cpumask ----------------------------------- */
#include <kshim/find.h>
#include <kshim/bitmap.h>
#include <kshim/cpumask.h>

/* ---- locking: single-threaded bookkeeping -------------------------------- */
typedef struct raw_spinlock { int held; } raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;
/* include/linux/types.h, refcount.h: an atomic int (one thread runs here,
 * so plain loads and stores) and a reference count on it, without the
 * kernel's saturation at overflow (fair.c's numa_group holds one). */
typedef struct { int counter; } atomic_t;
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
typedef struct refcount_struct { atomic_t refs; } refcount_t;
static inline unsigned int refcount_read(const refcount_t *r) { return (unsigned int)atomic_read(&r->refs); }
static inline void refcount_set(refcount_t *r, int n) { atomic_set(&r->refs, n); }
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	if (!r->refs.counter)
		return false;
	r->refs.counter++;
	return true;
}
static inline bool refcount_dec_and_test(refcount_t *r) { return --r->refs.counter == 0; }
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
/* An RCU callback's link (include/linux/types.h); nothing runs it here. */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head
/* RCU pointers: one thread, so a plain load and store. */
#define rcu_dereference(p) (p)
#define rcu_dereference_check(p, c) (p)
#define rcu_dereference_raw(p) (p)
#define rcu_dereference_all(p) (p)	/* v7.x */
#define rcu_access_pointer(p) (p)
#define rcu_assign_pointer(p, v) ((p) = (v))
#define RCU_INIT_POINTER(p, v) ((p) = (v))

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
/* The PELT averages of an entity or a queue (include/linux/sched.h, v6.1):
 * the running sums, their averages, and the estimated utilisation a task
 * keeps across sleeps (util_est; UTIL_AVG_UNCHANGED is a flag bit in its
 * enqueued value). fair.c reads them; nothing here updates them.
 * Up to v6.8 util_est is a struct of the enqueued value and its moving
 * average; from v6.8 one unsigned int (the average went), the flag bit in
 * it (KSHIM_KERNEL_VERSION). */
struct util_est {
	unsigned int enqueued;
	unsigned int ewma;
};
#define UTIL_EST_WEIGHT_SHIFT 2
#define UTIL_AVG_UNCHANGED 0x80000000
struct sched_avg {
	u64 last_update_time;
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 8)
	unsigned int util_est;
#else
	struct util_est util_est;
#endif
};
/* The fair class's view of a task (include/linux/sched.h, v6.1): the
 * fields kernel/sched/fair.c's load balancer reads. */
/* An entity's or a queue's load weight and its inverse (2^32 / weight). */
struct load_weight {
	unsigned long weight;
	u32 inv_weight;
};
struct sched_entity {
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 6)
	struct load_weight load;	/* every era's; here where EEVDF reads it */
#endif
	unsigned int on_rq;
	struct sched_avg avg;
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 vruntime;
	u64 nr_migrations;
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 6)
	/* EEVDF's (v6.6+): the virtual deadline, the subtree's least vruntime
	 * and slices, the lag, the protected deadline, the requested slice,
	 * and (v6.12+, here with the rest) whether the dequeue is delayed. */
	u64 deadline;
	u64 min_vruntime;
	u64 min_slice;
	u64 max_slice;
	unsigned char sched_delayed;
	unsigned char rel_deadline;
	unsigned char custom_slice;
	s64 vlag;
	u64 vprot;
	u64 slice;
#endif
};
struct sched_class;	/* kshim/sched_rq.h: never defined to a unit */
/* Scheduling policies (include/uapi/linux/sched.h). */
#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define SCHED_DEADLINE 6
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
	/* What fair.c (v6.1) reads: the policy and class, the fair entity,
	 * whether the task runs now (on_cpu), migrate_disable() depth, and
	 * the load balancer's cache-hot note (a 1-bit field in the kernel). */
	unsigned int sched_task_hot;
	unsigned int policy;
	const struct sched_class *sched_class;
	struct sched_entity se;
	int on_rq;
	int on_cpu;
	unsigned short migration_disabled;
	unsigned int flags;
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

#include <kshim/percpu.h>
#include <kshim/numa.h>
#include <kshim/sched_topology.h>

#endif /* KSHIM_KSHIM_H */
