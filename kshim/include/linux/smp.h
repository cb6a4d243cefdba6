/* SPDX-License-Identifier: MIT */
/* kshim: <linux/smp.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
