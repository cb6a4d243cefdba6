/* SPDX-License-Identifier: MIT */
/* kshim: <linux/cpu.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
