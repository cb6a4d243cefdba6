/* SPDX-License-Identifier: MIT */
/* kshim: <linux/percpu.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
