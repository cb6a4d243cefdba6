/* SPDX-License-Identifier: MIT */
/* kshim: <linux/sort.h>, as lib/sort.c and its callers include it: the
 * whole shim (kshim/kshim.h) and the sort API's callback types. */
#ifndef KSHIM_LINUX_SORT_H
#define KSHIM_LINUX_SORT_H
#include <kshim/kshim.h>

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef void (*swap_func_t)(void *a, void *b, int size);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);

/* sort_r() is not declared: its swap callback's type changed (swap_func_t
 * in v5.10's lib/sort.c, swap_r_func_t later), and each version of
 * lib/sort.c defines it as it declares it. */
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func, swap_func_t swap_func);
#endif
