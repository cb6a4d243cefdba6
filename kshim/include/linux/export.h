/* SPDX-License-Identifier: MIT */
/* kshim: <linux/export.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
