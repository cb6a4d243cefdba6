/* SPDX-License-Identifier: MIT */
/* kshim: <linux/static_key.h> gives the whole shim (kshim/kshim.h). */
#include <kshim/kshim.h>
