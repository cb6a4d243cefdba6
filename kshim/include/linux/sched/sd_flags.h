/* SPDX-License-Identifier: MIT */
/*
 * kshim: <linux/sched/sd_flags.h> (v5.10+), written for diffsched. The
 * scheduling-domain flags as a list, SD_FLAG(name, meta flags), one per flag
 * in bit order, for a file that defines SD_FLAG(name, mflags) before it
 * includes this (topology.c builds sd_flag_debug[] and
 * SD_DEGENERATE_GROUPS_MASK so; the shim's enum of bit numbers below its
 * SD_* values, kshim/sched_fair.h). The flags and their meta flags are
 * the era's (KSHIM_KERNEL_VERSION, checked against v5.10, v6.1, v6.12 and
 * v7.2): SD_ASYM_CPUCAPACITY_FULL from v5.14, SD_CLUSTER from v6.7,
 * SD_SHARE_PKG_RESOURCES named SD_SHARE_LLC from v6.9, SD_OVERLAP gone
 * from v6.17, and SD_ASYM_PACKING no longer SDF_SHARED_CHILD between v6.1
 * and v6.12 (taken as v6.5). A flag's bit is its place in the list, so a
 * flag added or removed moves the bits after it. No include guard: it is included once per list,
 * as the kernel's.
 */
#include <kshim/kshim.h>

#ifndef SDF_SHARED_CHILD
/* A flag set on a domain is set on its children too. */
#define SDF_SHARED_CHILD	0x1
/* A flag set on a domain is set on its parents too. */
#define SDF_SHARED_PARENT	0x2
/* The flag only means something on a domain with more than one group. */
#define SDF_NEEDS_GROUPS	0x4
#endif

#ifndef SD_FLAG
#define SD_FLAG(name, mflags)
#endif

SD_FLAG(SD_BALANCE_NEWIDLE, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
SD_FLAG(SD_BALANCE_EXEC, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
SD_FLAG(SD_BALANCE_FORK, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
SD_FLAG(SD_BALANCE_WAKE, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
SD_FLAG(SD_WAKE_AFFINE, SDF_SHARED_CHILD)
SD_FLAG(SD_ASYM_CPUCAPACITY, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(5, 14)
SD_FLAG(SD_ASYM_CPUCAPACITY_FULL, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)
#endif
SD_FLAG(SD_SHARE_CPUCAPACITY, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 7)
SD_FLAG(SD_CLUSTER, SDF_NEEDS_GROUPS)
#endif
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 9)
SD_FLAG(SD_SHARE_LLC, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
#else
SD_FLAG(SD_SHARE_PKG_RESOURCES, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
#endif
SD_FLAG(SD_SERIALIZE, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)
#if KSHIM_KERNEL_VERSION >= KSHIM_KV(6, 5)
SD_FLAG(SD_ASYM_PACKING, SDF_NEEDS_GROUPS)
#else
SD_FLAG(SD_ASYM_PACKING, SDF_SHARED_CHILD | SDF_NEEDS_GROUPS)
#endif
SD_FLAG(SD_PREFER_SIBLING, SDF_NEEDS_GROUPS)
#if KSHIM_KERNEL_VERSION < KSHIM_KV(6, 17)
SD_FLAG(SD_OVERLAP, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)
#endif
SD_FLAG(SD_NUMA, SDF_SHARED_PARENT | SDF_NEEDS_GROUPS)
