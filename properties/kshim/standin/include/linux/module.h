/* SPDX-License-Identifier: MIT */
/* diffsched stand-in: <linux/module.h> for a test built as a program. */
#ifndef KSTM_LINUX_MODULE_H
#define KSTM_LINUX_MODULE_H
#include <kstm_standin.h>
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_INFO(tag, info)
#define TAINT_TEST 18
#define LOCKDEP_STILL_OK 0
static inline void add_taint(unsigned int flag, int lockdep_ok) { (void)flag; (void)lockdep_ok; }
/* The runner calls the module's init once (kstm_runner.c). */
#define module_init(fn) int (*kstm_module_init)(void) = fn
#define module_exit(fn) void (*kstm_module_exit)(void) = fn
#endif
