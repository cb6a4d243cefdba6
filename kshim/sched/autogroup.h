/* SPDX-License-Identifier: MIT */
/* kshim: "autogroup.h" of kernel/sched/, as fair.c includes it: gives what
 * "sched.h" gives; none of its own API is modelled. */
#include "sched.h"
