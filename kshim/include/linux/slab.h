/* SPDX-License-Identifier: MIT */
/* kshim: <linux/slab.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
