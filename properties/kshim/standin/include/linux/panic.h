/* SPDX-License-Identifier: MIT */
/* diffsched stand-in: <linux/panic.h> (add_taint() is in <linux/module.h>). */
#include <linux/module.h>
