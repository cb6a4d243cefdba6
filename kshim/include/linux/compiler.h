/* SPDX-License-Identifier: MIT */
/* kshim: <linux/compiler.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
