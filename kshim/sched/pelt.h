/* SPDX-License-Identifier: MIT */
/* kshim: "pelt.h" of kernel/sched/, as fair.c includes it (v5.1+): gives what
 * "sched.h" gives; none of its own API (the PELT averages) is modelled. */
#include "sched.h"
