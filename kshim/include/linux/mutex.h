/* SPDX-License-Identifier: MIT */
/* kshim: <linux/mutex.h>, as kernel/sched/topology.c (v4.12) includes it: gives the
 * whole shim (kshim/kshim.h), where struct mutex and DEFINE_MUTEX() are
 * (kshim/sched_topology.h: a mutex starts unheld; nothing blocks). */
#include <kshim/kshim.h>
