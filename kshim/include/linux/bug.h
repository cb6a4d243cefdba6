/* SPDX-License-Identifier: MIT */
/* kshim: <linux/bug.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
