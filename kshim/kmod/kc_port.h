/* SPDX-License-Identifier: MIT */
/* What kc_driver.c needs from its environment: the kernel or libc. */
#ifndef KC_PORT_H
#define KC_PORT_H
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#define kc_zalloc(n) vzalloc(n)
#define kc_free(p) vfree(p)
typedef u64 kc_u64;
typedef s64 kc_s64;
#else
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define kc_zalloc(n) calloc(1, (n))
#define kc_free(p) free(p)
typedef unsigned long long kc_u64;
typedef long long kc_s64;
#endif
#endif
