/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: the cpudl ops the driver knows, one input letter
 * each (kc_driver.h), written for diffsched. The host's op list
 * (src/subjects/cpudl/ops.h) must have exactly this many ops (a static_assert in
 * src/kcheck/in_kernel_programs.cpp, which includes this file), and the driver
 * a handler for each (a _Static_assert in kc_driver.c): a new op does not
 * compile until the driver replays it. Macros only: C and C++ include it.
 */
#ifndef KC_OPS_H
#define KC_OPS_H
#define KC_CPUDL_OP_LETTERS "scoSCfnFdu"
#define KC_CPUDL_NR_OPS 10
#endif
