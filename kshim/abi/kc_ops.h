/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: the cpudl ops of the driver's input (kc_driver.h),
 * written for diffsched. The one op table of the protocol, shared by the
 * driver's cpudl part (kshim/kmod/kc_subject_cpudl.c, in the module and in
 * the twin) and the host
 * (src/subjects/cpudl/kcheck_check.cpp, its driver lines), both reaching it through the include
 * directory kshim/abi (the module's Kbuild stages it beside kcheck_abi.h):
 *
 *   #define KC_HANDLER(letter, name) { letter, kc_op_##name },
 *   KC_CPUDL_OPS(KC_HANDLER)        (kc_subject_cpudl.c: a missing handler does not compile)
 *
 * X(letter, name): the op's input letter and its name, the kName of the op
 * in src/subjects/cpudl/ops.h. The rows are cpudl::Op's alternatives in order (a
 * static_assert on the host compares the names), and the host writes an
 * op's line as its letter and its fields in order (driver_line()). Letters
 * are unique; 'A', 'E', 'P', 'Q' and 'p' belong to the protocol's other
 * lines. Macros only: C and C++ include it.
 */
#ifndef KC_OPS_H
#define KC_OPS_H

#define KC_CPUDL_OPS(X)          \
	X('s', set)              \
	X('c', clear)            \
	X('o', clear_online)     \
	X('S', set_freecpu)      \
	X('C', clear_freecpu)    \
	X('f', find)             \
	X('n', find_nomask)      \
	X('F', find_cap)         \
	X('d', cpu_down)         \
	X('u', cpu_up)

#endif
