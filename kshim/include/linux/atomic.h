/* SPDX-License-Identifier: MIT */
/* kshim: <linux/atomic.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
