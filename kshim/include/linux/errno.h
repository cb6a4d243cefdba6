/* SPDX-License-Identifier: MIT */
/* kshim: <linux/errno.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
