/* SPDX-License-Identifier: MIT */
/* kshim: <linux/spinlock.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
