/* SPDX-License-Identifier: MIT */
/* kshim: <linux/sched.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
#include <linux/sched/prio.h>
