/* SPDX-License-Identifier: MIT */
/* kernel-check --in-kernel: the <kshim/kshim.h> that kshim/runtime/glue_pick.c
 * includes, for a module: the real kernel's headers (written for diffsched). */
#ifndef KC_KMOD_KSHIM_H
#define KC_KMOD_KSHIM_H
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include "kc_pick.h"
#endif
