/* SPDX-License-Identifier: MIT */
/*
 * kshim: per-CPU variables (include/linux/percpu-defs.h), written for
 * diffsched, as kernel/sched/fair.c (v6.1) uses them. A per-CPU variable
 * is an array of KSHIM_NR_PERCPU copies, one per CPU: DEFINE_PER_CPU(T, v)
 * defines `T v[KSHIM_NR_PERCPU]`, per_cpu(v, cpu) is v[cpu], and the
 * this_cpu_* forms take the copy of smp_processor_id() (CPU 0 here). A
 * pointer taken with `&v` is the array's address, so per_cpu_ptr(&v, cpu)
 * and this_cpu_ptr(&v) index it; memory from alloc_percpu() is not modelled.
 *
 * KSHIM_NR_PERCPU is 128, the largest nr_cpu_ids diffsched fn draws, not
 * NR_CPUS: a file's own per-CPU variable is an input (`global v input`),
 * one value per copy, and 8192 of them made a run 64 times slower and its
 * input lines unreadable. With --nr-cpus above 128, a CPU past the copies
 * is an out-of-bounds index, which the sanitizers report as a fault.
 */
#ifndef KSHIM_PERCPU_H
#define KSHIM_PERCPU_H

#define KSHIM_NR_PERCPU 128
/* Marks the copies as a per-CPU variable for diffsched fn's extraction
 * (annotate "kshim:per-cpu"): their copies at or past nr_cpu_ids are
 * zeros in a generated input, not drawn. */
#define KSHIM_PER_CPU __attribute__((__annotate__("kshim:per-cpu")))
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name[KSHIM_NR_PERCPU] KSHIM_PER_CPU
#define DEFINE_PER_CPU(type, name) __typeof__(type) name[KSHIM_NR_PERCPU] KSHIM_PER_CPU
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) DEFINE_PER_CPU(type, name)
#define DEFINE_PER_CPU_READ_MOSTLY(type, name) DEFINE_PER_CPU(type, name)
#define DECLARE_PER_CPU_READ_MOSTLY(type, name) DECLARE_PER_CPU(type, name)

#define per_cpu(var, cpu) ((var)[(cpu)])
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[(cpu)])
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define this_cpu_read(var) per_cpu(var, smp_processor_id())
#define __this_cpu_read(var) this_cpu_read(var)
#define this_cpu_write(var, v) (per_cpu(var, smp_processor_id()) = (v))
#define __this_cpu_write(var, v) this_cpu_write(var, v)
/* A per-CPU cpumask_var_t (CONFIG_CPUMASK_OFFSTACK=y: a pointer) of this CPU. */
#define this_cpu_cpumask_var_ptr(x) this_cpu_read(x)

#endif /* KSHIM_PERCPU_H */
