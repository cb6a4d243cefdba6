/* SPDX-License-Identifier: MIT */
/* diffsched stand-in: <linux/uaccess.h>; no user memory here. */
#include <kstm_standin.h>
