/* SPDX-License-Identifier: MIT */
/* kshim: <linux/cpumask.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
