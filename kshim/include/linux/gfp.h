/* SPDX-License-Identifier: MIT */
/* kshim: <linux/gfp.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
