/* SPDX-License-Identifier: MIT */
/* kshim: <linux/kernel.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
