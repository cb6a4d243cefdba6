/* SPDX-License-Identifier: MIT */
/*
 * The table a kernel-check candidate exports, shared by the C glue compiled
 * with the candidate (kshim/runtime/glue_*.c) and the C++ harness that
 * dlopen()s it (kshim/harness/). Plain C types only: the harness includes it
 * without the shim.
 *
 *   const struct kcheck_candidate *c = dlsym(handle, "kcheck_candidate");
 *   c->reset_runtime(8);  c->init();  c->set(3, 100);
 *
 * Every entry point has the v4.9..v6.18 meaning; the glue adapts the
 * candidate's API form to it (see docs/kernel-check.md, "API forms").
 */
#ifndef KSHIM_KCHECK_ABI_H
#define KSHIM_KCHECK_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

#define KCHECK_ABI_VERSION 5

/* The API forms, written once here: each is a KCHECK_API_<ID> macro (the
 * glue selects code with #if, and the host passes -DKCHECK_API=<its value>)
 * and a row X(ID, "name") of KCHECK_APIS beside it, which every other place
 * reads: the host's KernelApi and its names (src/kcheck/kernel_check.h), the
 * harness's (kshim/harness/kernel_c_side.cpp). A new form is its two lines
 * here; a static_assert in kernel_check.cpp keeps the values distinct. */
#define KCHECK_API_V3_14 314  /* cpudl_set(cp, cpu, dl, is_valid), cpu_to_idx[], no freecpu helpers */
#define KCHECK_API_V4_8 48    /* cpudl_set(cp, cpu, dl, is_valid), find returns a CPU or -1 */
#define KCHECK_API_V4_9 49    /* cpudl_set/cpudl_clear, set/clear_freecpu, find returns 0/1 */
#define KCHECK_API_V6_19 619  /* cpudl_clear(cp, cpu, online), no freecpu helpers */
#define KCHECK_API_PICK 1000  /* int select_dst_cpu(dst_grpmask, cpus, allowed) */

#define KCHECK_APIS(X)      \
	X(V3_14, "v3.14")   \
	X(V4_8, "v4.8")     \
	X(V4_9, "v4.9")     \
	X(V6_19, "v6.19")   \
	X(PICK, "pick")

/* struct cpudl_item as the harness reads it. */
struct kcheck_item {
	unsigned long long dl;
	int cpu;
	int idx;
};

struct kcheck_warning {
	const char *file;
	int line;
	const char *what; /* "WARN_ON(cond)" */
	unsigned count;   /* warnings since the last take_warning() */
};

struct kcheck_view {
	int size;
	const struct kcheck_item *elements; /* nr_cpu_ids items */
	const unsigned long *free_bits;     /* NR_CPUS bits */
	/* cp->free_cpus itself (free_bits is a copy masked to nr_cpu_ids):
	 * where kernel-check --race's store hook sees the file store. */
	const unsigned long *free_words;
	/* The v3.14 form only (NULL otherwise). Its struct cpudl keeps the CPU
	 * -> slot map in cpu_to_idx[], apart from items without an index, so
	 * `elements` is the glue's copy (idx from cpu_to_idx[]). These are the
	 * file's own arrays, where the store hook sees the file store: a store
	 * to file_items[s].dl/.cpu is logged against elements[s].dl/.cpu, one to
	 * file_cpu_to_idx[c] against elements[c].idx, each with the value it
	 * overwrites, and the copy is refreshed by the next view(). */
	const void *file_items;         /* nr_cpu_ids items of file_item_size bytes */
	unsigned file_item_size;
	unsigned file_dl_offset;        /* of the u64 deadline in an item */
	unsigned file_cpu_offset;       /* of the int CPU in an item */
	const int *file_cpu_to_idx;     /* nr_cpu_ids ints */
};

struct kcheck_candidate {
	int abi_version;
	int api;             /* KCHECK_API_* */
	const char *source;  /* the candidate file as given */
	const char *function; /* pick: the function's name */

	/* Runtime: nr_cpu_ids and the possible/present/online/active masks
	 * (CPUs 0..nr-1: every CPU up) for the next run. */
	void (*reset_runtime)(unsigned nr_cpu_ids);
	/* 1 and the first warning recorded since the last call, else 0. */
	int (*take_warning)(struct kcheck_warning *out);
	/* Asymmetric CPU capacity: on/off and a capacity per CPU (n values,
	 * repeated over all CPUs; SCHED_CAPACITY_SCALE is 1024). */
	void (*set_capacity)(int asym, const unsigned long *caps, unsigned n);
	/* Allocation number n (from 1, counted from the last reset_runtime)
	 * fails; 0: none does. */
	void (*fail_alloc)(long n);
	/* Whether an allocation failed as asked since the last fail_alloc(). */
	int (*alloc_failed)(void);

	/* cpudl: cpudl_cleanup() of the previous heap, then cpudl_init();
	 * returns cpudl_init()'s value. */
	int (*init)(void);
	void (*set)(int cpu, unsigned long long dl);
	void (*clear)(int cpu);
	void (*clear_online)(int cpu, int online);
	/* NULL when the candidate's API form has no equivalent. */
	void (*set_freecpu)(int cpu);
	void (*clear_freecpu)(int cpu);
	/* The hotplug path of a CPU as it reaches cpudl: down clears the CPU's
	 * active bit, runs rq_offline_dl() and clears its online bit; up sets
	 * the online bit, then the active bit, and runs rq_online_dl() for a
	 * runqueue without -dl tasks. NULL when the form has no free-CPU
	 * equivalent. */
	void (*cpu_down)(int cpu);
	void (*cpu_up)(int cpu);
	/* cpudl_find() for a task with deadline dl, affinity `affinity`
	 * (NR_CPUS bits), on CPU task_cpu, with dl_runtime/dl_deadline for the
	 * capacity check; later_mask (NR_CPUS bits) may be NULL. 1 if found. */
	int (*find)(unsigned long long dl, const unsigned long *affinity, unsigned long *later_mask,
		    unsigned task_cpu, unsigned long long dl_runtime, unsigned long long dl_deadline);
	struct kcheck_view (*view)(void);

	/* pick: the candidate's function, its int result as unsigned. */
	unsigned (*pick)(const unsigned long *dst_grpmask, const unsigned long *cpus,
			 const unsigned long *allowed);
};

#ifdef __cplusplus
}
#endif

#endif /* KSHIM_KCHECK_ABI_H */
