/* SPDX-License-Identifier: MIT */
/* kshim: <linux/printk.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
