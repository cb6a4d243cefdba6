/* SPDX-License-Identifier: MIT */
/* kshim: <linux/find.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
