/* SPDX-License-Identifier: MIT */
/* kernel-check --in-kernel: the candidate's entry points get a prefix, so
 * that they cannot clash with the running kernel's (written for diffsched).
 * Force-included in every file of the module; a pick function's name is
 * renamed with -D by the host. */
#define cpudl_find kc_cpudl_find
#define cpudl_set kc_cpudl_set
#define cpudl_clear kc_cpudl_clear
#define cpudl_init kc_cpudl_init
#define cpudl_cleanup kc_cpudl_cleanup
#define cpudl_set_freecpu kc_cpudl_set_freecpu
#define cpudl_clear_freecpu kc_cpudl_clear_freecpu
#define cpudl_heapify kc_cpudl_heapify
#define cpudl_heapify_up kc_cpudl_heapify_up
#define cpudl_heapify_down kc_cpudl_heapify_down
#define cpudl_change_key kc_cpudl_change_key
#define cpudl_exchange kc_cpudl_exchange
#define cpudl_maximum kc_cpudl_maximum
