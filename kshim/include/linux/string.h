/* SPDX-License-Identifier: MIT */
/* kshim: <linux/string.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
