/* SPDX-License-Identifier: MIT */
/* kshim: <linux/bitmap.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
