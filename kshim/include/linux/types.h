/* SPDX-License-Identifier: MIT */
/* kshim: <linux/types.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
