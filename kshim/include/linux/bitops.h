/* SPDX-License-Identifier: MIT */
/* kshim: <linux/bitops.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
