/* SPDX-License-Identifier: MIT */
/*
 * kshim: <linux/sched/prio.h>, written for diffsched: the priority scale
 * (as v5.10 to v7.2 have it; <linux/sched.h> includes it, and fair.c
 * names it itself from v6.14, for NICE_TO_PRIO()). Priorities 0..MAX_RT_PRIO-1 are real-time; nice
 * values MIN_NICE..MAX_NICE map onto MAX_RT_PRIO..MAX_PRIO-1, nice 0 onto
 * DEFAULT_PRIO.
 */
#ifndef KSHIM_LINUX_SCHED_PRIO_H
#define KSHIM_LINUX_SCHED_PRIO_H

#include <kshim/kshim.h>

#define MAX_NICE	19
#define MIN_NICE	(-20)
#define NICE_WIDTH	(MAX_NICE - MIN_NICE + 1)

#define MAX_RT_PRIO	100
#define MAX_DL_PRIO	0

#define MAX_PRIO	(MAX_RT_PRIO + NICE_WIDTH)
#define DEFAULT_PRIO	(MAX_RT_PRIO + NICE_WIDTH / 2)

#define NICE_TO_PRIO(nice)	((nice) + DEFAULT_PRIO)
#define PRIO_TO_NICE(prio)	((prio) - DEFAULT_PRIO)

#endif /* KSHIM_LINUX_SCHED_PRIO_H */
