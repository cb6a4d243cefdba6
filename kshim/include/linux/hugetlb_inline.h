/* SPDX-License-Identifier: MIT */
/* kshim: <linux/hugetlb_inline.h>, as kernel/sched/fair.c includes it: gives the whole
 * shim (kshim/kshim.h); none of its own API is modelled. */
#include <kshim/kshim.h>
