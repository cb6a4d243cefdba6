/* SPDX-License-Identifier: MIT */
/* kshim: <linux/init.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
