/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: what the module's two front ends share (written
 * for diffsched). kc_runtime.c holds the shim runtime's entry points the glue
 * calls, for the real kernel; kc_module.c (/proc/kcheck, kernel-check
 * --in-kernel and export --kmod) and kc_ktap.c (export --ktap-module, a
 * kselftest-style test module) both link it.
 */
#ifndef KC_RUNTIME_H
#define KC_RUNTIME_H

/* Marks every possible CPU present, returns how many it marked. The guest
 * runs one vCPU (-smp 1, possible_cpus=N): the others are possible but not
 * present. The shim models every CPU below nr_cpu_ids as present
 * (cpudeadline.c's WARN_ON(!cpu_present(cpu))), and so does a machine with
 * that many CPUs. They stay offline (nothing is scheduled on them). */
unsigned int kc_mark_present(void);
/* The program's online and active CPUs: 0..nr-1. */
void kshim_reset_runtime(unsigned nr);
/* The capacities (asym: the capacity branch on), repeated over the CPUs. */
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n);

#endif
