/* SPDX-License-Identifier: MIT */
/* kshim: <linux/minmax.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
