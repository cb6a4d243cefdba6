/* SPDX-License-Identifier: MIT */
/*
 * kshim: the scheduler-internal state that kernel/sched/fair.c's load
 * balancer and wake-up paths read (kernel/sched/sched.h, stats.h,
 * include/linux/sched/topology.h, idle.h; v6.1, and what other eras name
 * differently: KSHIM_KERNEL_VERSION), written for diffsched.
 * Only a file that includes "sched.h" (kshim/sched/sched.h) gets it.
 *
 * The model is a CONFIG_SMP=y kernel without CONFIG_SCHED_DEBUG,
 * CONFIG_SCHEDSTATS, CONFIG_LOCKDEP, CONFIG_CGROUP_SCHED (so no
 * CONFIG_FAIR_GROUP_SCHED, CONFIG_CFS_BANDWIDTH), CONFIG_SCHED_CORE,
 * CONFIG_SCHED_SMT or CONFIG_NUMA_BALANCING: the #else branches of fair.c
 * apply. Consequences:
 *  - sched_feat(F) is F's default in features.h, a constant;
 *  - schedstat_*() evaluate nothing; lockdep_assert_rq_held() checks nothing;
 *  - task_group(p) is NULL;
 *  - the run queues (per_cpu(runqueues, cpu), cpu_rq(), this_rq()) are the
 *    runtime's, zeroed before every input unless fn's spec draws them
 *    (`global runqueues input`); a function handed a struct rq * gets a
 *    generated one (its nested struct cfs_rq zeroed: past the field depth);
 *  - the scheduling classes are declared, never defined to a unit: a task's
 *    p->sched_class is an opaque object, never &fair_sched_class;
 *  - no CONFIG_UCLAMP_TASK (uclamp_is_used() is false, the bounds 0 and
 *    SCHED_CAPACITY_SCALE) and no thermal pressure; `current` is a stub
 *    (get_current());
 *  - a domain's groups (sd->groups) are a ring in the kernel: fn generates
 *    one with the spec's `param sd.groups ring next N` (docs/fn.md "Spec
 *    files"), else one group whose next is zeroed;
 *  - functions defined in other files (kthread_is_per_cpu(),
 *    available_idle_cpu(), cpu_clock(), ...) are declared only, so fn makes
 *    them stubs whose results are inputs (KSHIM_ELSEWHERE).
 * A helper older fair.c files define themselves (task_of(), cfs_rq_of(),
 * update_avg(), task_running(), ...) is guarded by KSHIM_OWN_<name>
 * (src/kcheck/libclang.h, kShimOverridable).
 */
#ifndef KSHIM_SCHED_FAIR_H
#define KSHIM_SCHED_FAIR_H

#include <kshim/kshim.h>

/* ---- include/linux/sched/idle.h ----------------------------------------- */
enum cpu_idle_type {
	CPU_IDLE,
	CPU_NOT_IDLE,
	CPU_NEWLY_IDLE,
	CPU_MAX_IDLE_TYPES
};

/* ---- include/linux/sched/topology.h: domain flags and a domain ----------- */
/* The flags' bit numbers (__SD_BALANCE_NEWIDLE is 0, ...) and values
 * (SD_BALANCE_NEWIDLE is 1 << 0, ...) from the list of
 * <linux/sched/sd_flags.h>, as the kernel's enums (v5.10+; the list is the
 * era's, KSHIM_KERNEL_VERSION). A flag's name and meta flags
 * (sd_flag_debug[], defined by topology.c from the same list). */
enum {
#define SD_FLAG(name, mflags) __##name,
#include <linux/sched/sd_flags.h>
#undef SD_FLAG
	__SD_FLAG_CNT,
};
enum {
#define SD_FLAG(name, mflags) name = 1 << __##name,
#include <linux/sched/sd_flags.h>
#undef SD_FLAG
};
struct sd_flag_debug {
	unsigned int meta_flags;
	char *name;
};
extern const struct sd_flag_debug sd_flag_debug[];

/* What the domains of one LLC share: the idle-core hint and (v6.0+) the
 * SIS_UTIL scan budget. */
struct sched_domain_shared {
	int nr_busy_cpus;
	int has_idle_cores;
	int nr_idle_scan;
};

/* One level of a CPU's domain tree, the fields fair.c reads. The kernel's
 * span is a trailing bitmap; here a struct cpumask field (generated as a
 * mask), and sched_domain_span() its address. */
struct sched_domain {
	struct sched_domain *parent;
	struct sched_domain *child;
	unsigned int imbalance_pct;
	unsigned int cache_nice_tries;
	int flags;
	int level;
	unsigned int balance_interval;
	unsigned int nr_balance_failed;
	u64 max_newidle_lb_cost;
	u64 avg_scan_cost;
	struct sched_domain_shared *shared;
	unsigned int span_weight;
	unsigned int imb_numa_nr;
	struct sched_group *groups;
	struct cpumask span;
};
static inline struct cpumask *sched_domain_span(struct sched_domain *sd) { return &sd->span; }

/* A domain's groups form a ring (next) that the balancer walks from
 * sd->groups until it is back at the start. Each group names its CPUs (the
 * kernel keeps them in a trailing bitmap; here a struct cpumask field and
 * sched_group_span() its address), how many there are (group_weight), and
 * the capacity data the groups of its CPUs share (sgc): the summed capacity,
 * the smallest and largest CPU capacity, and the imbalance note a pinned
 * task left for the parent level. */
struct sched_group_capacity {
	int ref;
	unsigned long capacity;
	unsigned long min_capacity;
	unsigned long max_capacity;
	unsigned long next_update;
	int imbalance;
	int id;
};
struct sched_group {
	struct sched_group *next;
	int ref;
	unsigned int group_weight;
	struct sched_group_capacity *sgc;
	int asym_prefer_cpu;
	int flags;
	struct cpumask span;
};
static inline struct cpumask *sched_group_span(struct sched_group *sg) { return &sg->span; }

/* The LLC of each CPU (kernel/sched/topology.c keeps them, sched.h declares
 * them). What each LLC shares, sd_llc_shared, is an input (KSHIM_ELSEWHERE:
 * `global sd_llc_shared input`; its nr_idle_scan is select_idle_cpu()'s
 * SIS_UTIL budget); the rest are the runtime's, zeroed (no domains built). */
/* The SMT siblings of a CPU (include/linux/topology.h): without
 * CONFIG_SCHED_SMT each CPU is its own (v7.x's fair.c calls it outside the
 * #ifdef). */
#define cpu_smt_mask(cpu) cpumask_of(cpu)

/* Whether a cluster level was built (v6.7+, sched.h): a static key, off
 * (no CONFIG_SCHED_CLUSTER here). */
extern struct static_key_false sched_cluster_active;

DECLARE_PER_CPU(struct sched_domain *, sd_llc);
DECLARE_PER_CPU(int, sd_llc_size);
DECLARE_PER_CPU(int, sd_llc_id);
KSHIM_ELSEWHERE DECLARE_PER_CPU(struct sched_domain_shared *, sd_llc_shared);
/* v7.x keeps the idle-core hint in the balance domain's share instead: an
 * input the same way (`global sd_balance_shared input`). */
KSHIM_ELSEWHERE DECLARE_PER_CPU(struct sched_domain_shared *, sd_balance_shared);

/* ---- kernel/sched/sched.h: run queues ------------------------------------ */
/* The queue's counts, by each era's names (KSHIM_KERNEL_VERSION):
 * h_nr_running and idle_h_nr_running up to v6.13; h_nr_queued (with
 * h_nr_runnable) from v6.14, and in 6.12.y stable kernels beside the old
 * names (6.12.37+ took that rename, not h_nr_idle), so from v6.12 here;
 * nr_queued and h_nr_idle from v6.14. The load and v7.x's EEVDF sums
 * (the weighted vruntimes' sum relative to zero_vruntime, shifted right by
 * sum_shift, and the weights' sum) where the functions checked read them:
 * v6.6+ and v6.19+. Up to v6.5 (before EEVDF) the queue's entities are kept
 * in tasks_timeline, which is not modelled. */
struct cfs_rq {
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 6)
	struct load_weight load;
#endif
	struct sched_avg avg;
	unsigned int nr_running;
#if KSHIM_KERNEL_VERSION < KSHIM_KV(6, 14)
	unsigned int h_nr_running;
#endif
	unsigned int idle_nr_running;
#if KSHIM_KERNEL_VERSION < KSHIM_KV(6, 14)
	unsigned int idle_h_nr_running;
#endif
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 12)
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
#endif
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 14)
	unsigned int nr_queued;
	unsigned int h_nr_idle;
#endif
	u64 min_vruntime;
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 19)
	s64 sum_w_vruntime;
	u64 sum_weight;
	u64 zero_vruntime;
	unsigned int sum_shift;
#endif
	struct sched_entity *curr;
	struct sched_entity *next;
	struct sched_entity *last;
	struct sched_entity *skip;
};

/* The run queue's lock is __lock from v5.14 (core scheduling), lock
 * before. */
struct rq {
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(5, 14)
	raw_spinlock_t __lock;
#else
	raw_spinlock_t lock;
#endif
	unsigned int nr_running;
	unsigned long cpu_capacity;
	struct cfs_rq cfs;
	struct task_struct *curr;
	struct task_struct *idle;
	u64 clock;
	u64 clock_task;
	int cpu;
	int online;
	u64 avg_idle;
	unsigned long wake_stamp;
	u64 wake_avg_idle;
	u64 max_idle_balance_cost;
	unsigned int ttwu_pending;
};

DECLARE_PER_CPU_SHARED_ALIGNED(struct rq, runqueues);
#define cpu_rq(cpu) (&per_cpu(runqueues, (cpu)))
#define this_rq() this_cpu_ptr(&runqueues)
#define task_rq(p) cpu_rq(task_cpu(p))
#define cpu_curr(cpu) (cpu_rq(cpu)->curr)

static inline u64 rq_clock_task(struct rq *rq) { return rq->clock_task; }
static inline u64 rq_clock(struct rq *rq) { return rq->clock; }
#ifndef KSHIM_OWN_cpu_of
static inline int cpu_of(struct rq *rq) { return rq->cpu; }
#endif
#define lockdep_assert_rq_held(rq) do { (void)(rq); } while (0)

/* The fair entity's queue without group scheduling: the task's CPU's. */
#ifndef KSHIM_OWN_task_of
static inline struct task_struct *task_of(struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}
#endif
#ifndef KSHIM_OWN_task_cfs_rq
static inline struct cfs_rq *task_cfs_rq(struct task_struct *p) { return &task_rq(p)->cfs; }
#endif
#ifndef KSHIM_OWN_cfs_rq_of
static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se) { return task_cfs_rq(task_of(se)); }
#endif
#ifndef KSHIM_OWN_group_cfs_rq
static inline struct cfs_rq *group_cfs_rq(struct sched_entity *grp) { (void)grp; return NULL; }
#endif

/* ---- the task, as sched.h sees it ---------------------------------------- */
struct task_group;
static inline struct task_group *task_group(struct task_struct *p) { (void)p; return NULL; }
static inline int idle_policy(int policy) { return policy == SCHED_IDLE; }
static inline int task_has_idle_policy(struct task_struct *p) { return idle_policy(p->policy); }
static inline int task_current(struct rq *rq, struct task_struct *p) { return rq->curr == p; }
/* Whether p runs on a CPU now: task_on_cpu() (v6.1.y, v6.2+), task_running()
 * before. */
#ifndef KSHIM_OWN_task_on_cpu
static inline int task_on_cpu(struct rq *rq, struct task_struct *p) { (void)rq; return p->on_cpu; }
#endif
#ifndef KSHIM_OWN_task_running
static inline int task_running(struct rq *rq, struct task_struct *p) { return task_on_cpu(rq, p); }
#endif
static inline bool is_migration_disabled(struct task_struct *p) { return p->migration_disabled; }
/* Core scheduling (CONFIG_SCHED_CORE) is off: every cookie matches. */
static inline bool sched_core_enabled(struct rq *rq) { (void)rq; return false; }
static inline bool sched_core_cookie_match(struct rq *rq, struct task_struct *p) { (void)rq; (void)p; return true; }
static inline bool sched_cpu_cookie_match(struct rq *rq, struct task_struct *p) { (void)rq; (void)p; return true; }
/* include/linux/kthread.h: a per-CPU kthread (defined in kernel/kthread.c). */
KSHIM_ELSEWHERE bool kthread_is_per_cpu(struct task_struct *p);

/* Whether p is on a run queue: p->on_rq holds 0, queued or migrating. */
#define TASK_ON_RQ_QUEUED	1
#define TASK_ON_RQ_MIGRATING	2
static inline int task_on_rq_queued(struct task_struct *p) { return p->on_rq == TASK_ON_RQ_QUEUED; }
static inline int task_on_rq_migrating(struct task_struct *p) { return p->on_rq == TASK_ON_RQ_MIGRATING; }
/* With CONFIG_SCHED_CORE off every group's cookie matches too. */
static inline bool sched_group_cookie_match(struct rq *rq, struct task_struct *p, struct sched_group *group)
{ (void)rq; (void)p; (void)group; return true; }
/* The task this CPU runs (arch code, include/asm/current.h): a stub. */
KSHIM_ELSEWHERE struct task_struct *get_current(void);
#define current get_current()

/* Load weights: the fixed-point scale of 64-bit kernels (a weight carries
 * SCHED_FIXEDPOINT_SHIFT extra bits; scaling down keeps a non-zero weight at
 * least 2). NICE_0_LOAD is the weight of a nice-0 task. */
#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT (SCHED_FIXEDPOINT_SHIFT + SCHED_FIXEDPOINT_SHIFT)
#define scale_load(w) ((w) << SCHED_FIXEDPOINT_SHIFT)
#define scale_load_down(w) ({ unsigned long __kshim_w = (w); \
	if (__kshim_w) __kshim_w = max(2UL, __kshim_w >> SCHED_FIXEDPOINT_SHIFT); __kshim_w; })
#define NICE_0_LOAD (1L << NICE_0_LOAD_SHIFT)

/* Utilisation clamping (CONFIG_UCLAMP_TASK) is off: no clamp is used, the
 * effective bounds are 0 and the full scale. */
enum uclamp_id { UCLAMP_MIN = 0, UCLAMP_MAX, UCLAMP_CNT };
static inline bool uclamp_is_used(void) { return false; }
static inline unsigned long uclamp_eff_value(struct task_struct *p, enum uclamp_id clamp_id)
{ (void)p; return clamp_id == UCLAMP_MIN ? 0 : SCHED_CAPACITY_SCALE; }
/* No thermal pressure is modelled (CONFIG_SCHED_THERMAL_PRESSURE off). */
#define arch_scale_thermal_pressure(cpu) ((void)(cpu), 0UL)

/* The classes (sched.h declares them; each class's file defines it). */
extern const struct sched_class stop_sched_class;
extern const struct sched_class dl_sched_class;
extern const struct sched_class rt_sched_class;
extern const struct sched_class fair_sched_class;
extern const struct sched_class idle_sched_class;

/* A moving average: avg += (sample - avg) / 8. */
#ifndef KSHIM_OWN_update_avg
static inline void update_avg(u64 *avg, u64 sample)
{
	s64 diff = sample - *avg;

	*avg += diff / 8;
}
#endif

/* kernel/sched/core.c and friends: defined elsewhere, stubs to fn. */
KSHIM_ELSEWHERE int available_idle_cpu(int cpu);
KSHIM_ELSEWHERE int idle_cpu(int cpu);
KSHIM_ELSEWHERE u64 cpu_clock(int cpu);
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
extern unsigned long volatile jiffies;

/* ---- sched_feat(): features.h defaults (no CONFIG_SCHED_DEBUG) ----------- */
/* Every feature of v5.10 to v7.2, each at its default, a constant. A
 * feature's default is the same in every era that has it, but SIS_PROP's:
 * on until SIS_UTIL came (v6.0), gone from v6.7. SIS_AVG_CPU is v5.11-,
 * UTIL_EST_FASTUP v6.7-, EEVDF's (PLACE_LAG ... DELAY_ZERO) v6.6+. */
#define sched_feat(x) (KSHIM_SCHED_FEAT_##x)
#define KSHIM_SCHED_FEAT_GENTLE_FAIR_SLEEPERS 1
#define KSHIM_SCHED_FEAT_START_DEBIT 1
#define KSHIM_SCHED_FEAT_PLACE_LAG 1
#define KSHIM_SCHED_FEAT_PLACE_DEADLINE_INITIAL 1
#define KSHIM_SCHED_FEAT_PLACE_REL_DEADLINE 1
#define KSHIM_SCHED_FEAT_RUN_TO_PARITY 1
#define KSHIM_SCHED_FEAT_PREEMPT_SHORT 1
#define KSHIM_SCHED_FEAT_NEXT_BUDDY 0
#define KSHIM_SCHED_FEAT_LAST_BUDDY 1
#define KSHIM_SCHED_FEAT_PICK_BUDDY 1
#define KSHIM_SCHED_FEAT_CACHE_HOT_BUDDY 1
#define KSHIM_SCHED_FEAT_DELAY_DEQUEUE 1
#define KSHIM_SCHED_FEAT_DELAY_ZERO 1
#define KSHIM_SCHED_FEAT_PARANOID_AVG 0
#define KSHIM_SCHED_FEAT_WAKEUP_PREEMPTION 1
#define KSHIM_SCHED_FEAT_HRTICK 0
#define KSHIM_SCHED_FEAT_HRTICK_DL 0
#define KSHIM_SCHED_FEAT_DOUBLE_TICK 0
#define KSHIM_SCHED_FEAT_NONTASK_CAPACITY 1
#define KSHIM_SCHED_FEAT_TTWU_QUEUE 1
#define KSHIM_SCHED_FEAT_SIS_AVG_CPU 0
#define KSHIM_SCHED_FEAT_SIS_PROP (KSHIM_KERNEL_VERSION < KSHIM_KV(6, 0))
#define KSHIM_SCHED_FEAT_SIS_UTIL 1
#define KSHIM_SCHED_FEAT_WARN_DOUBLE_CLOCK 0
#define KSHIM_SCHED_FEAT_RT_PUSH_IPI 1
#define KSHIM_SCHED_FEAT_RT_RUNTIME_SHARE 0
#define KSHIM_SCHED_FEAT_LB_MIN 0
#define KSHIM_SCHED_FEAT_ATTACH_AGE_LOAD 1
#define KSHIM_SCHED_FEAT_WA_IDLE 1
#define KSHIM_SCHED_FEAT_WA_WEIGHT 1
#define KSHIM_SCHED_FEAT_WA_BIAS 1
#define KSHIM_SCHED_FEAT_UTIL_EST 1
#define KSHIM_SCHED_FEAT_UTIL_EST_FASTUP 1
#define KSHIM_SCHED_FEAT_LATENCY_WARN 0
#define KSHIM_SCHED_FEAT_NI_RANDOM 1
#define KSHIM_SCHED_FEAT_NI_RATE 1
#define KSHIM_SCHED_FEAT_ALT_PERIOD 1
#define KSHIM_SCHED_FEAT_BASE_SLICE 1
/* Tunables that are const without CONFIG_SCHED_DEBUG (fair.c defines them). */
#define const_debug const

/* ---- kernel/sched/stats.h without CONFIG_SCHEDSTATS ---------------------- */
#define schedstat_enabled() 0
#define schedstat_inc(var) do { } while (0)
#define schedstat_add(var, amt) do { } while (0)
#define schedstat_set(var, val) do { } while (0)
#define schedstat_val(var) 0
#define __schedstat_inc(var) do { } while (0)
#define __schedstat_add(var, amt) do { } while (0)
#define __schedstat_set(var, val) do { } while (0)

/* The CFS utilisation of a CPU: its root queue's util_avg, raised to the
 * enqueued estimate when UTIL_EST is on, capped at the CPU's original
 * capacity (sched.h; capacity_orig_of() is kshim/sched/sched.h's). */
static inline unsigned long capacity_orig_of(int cpu);
static inline unsigned long cpu_util_cfs(int cpu)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	unsigned long util = READ_ONCE(cfs_rq->avg.util_avg);

	if (sched_feat(UTIL_EST)) {
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 8)
		unsigned long est = READ_ONCE(cfs_rq->avg.util_est);
#else
		unsigned long est = READ_ONCE(cfs_rq->avg.util_est.enqueued);
#endif

		if (est > util)
			util = est;
	}
	return min(util, capacity_orig_of(cpu));
}

#endif /* KSHIM_SCHED_FAIR_H */
