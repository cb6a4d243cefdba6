/* SPDX-License-Identifier: MIT */
/* kshim: <linux/kconfig.h> gives the whole shim (kshim/kshim.h), IS_ENABLED() with it. */
#include <kshim/kshim.h>
