/* SPDX-License-Identifier: MIT */
/* kshim: "stats.h" of kernel/sched/, as fair.c includes it: gives what
 * "sched.h" gives; none of its own API is modelled. */
#include "sched.h"
