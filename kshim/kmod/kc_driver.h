/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: the op-program driver, written for diffsched.
 * The same C file is built twice: into the kernel module (kc_module.c, the
 * candidate against the real kernel) and into the userspace twin (twin.c,
 * the same candidate against the shim, kshim/). Both feed the same program
 * lines to the candidate's table (kshim/abi/kcheck_abi.h, the glue adapts
 * the API form) and print the same state lines, which the host compares.
 *
 * Input, one line each (the host writes them from .ops programs):
 *   P id nr verbose      a program at nr_cpu_ids nr (cpudl: cpudl_init())
 *   s cpu dl | c cpu | o cpu online | S cpu | C cpu
 *   f dl LIST | n dl LIST                 find / find_nomask, affinity LIST
 *                        (the task of each: kc_task_for_find(), as the harness's
 *                        per-find task of --task-util 0)
 *   F dl LIST cpu runtime deadline        find_cap: the capacity branch on, the
 *                                         program's capacities, that task
 *   d cpu | u cpu                         cpu_down / cpu_up (ABI 3: the active and
 *                                         online masks are state of the program)
 *   A CAP,CAP,...        the program's capacities (after P; repeated over the CPUs)
 *   p DST CPUS ALLOWED                    pick
 *   E                                     end of the program
 *   Q TOKEN              the end of the input: print the result record
 * LIST is a cpulist ("0-3,64") or "-" for none; numbers are decimal.
 * Output, one line each (the module prints them with a "KC" prefix on the
 * console; long lines continue on "KC+" lines):
 *   P id nr
 *   S id op STATE        after every op; STATE is "x=<fnv64>" when long
 *   V id op INVARIANT FIELD DETAIL        a check of the driver failed
 *   X id MESSAGE         the program could not run (nr_cpu_ids, init)
 *   D PROGRAMS OPS TOKEN the result record, after Q: how many programs started
 *                        and ops ran, and the host's token (a line the
 *                        candidate printed is not it: it cannot know TOKEN)
 */
#ifndef KC_DRIVER_H
#define KC_DRIVER_H

#include <kcheck_abi.h>
#include <kc_ops.h>

struct kc_driver;

/* emit(line) prints one output line (without a newline). */
struct kc_driver *kc_driver_new(const struct kcheck_candidate *c, unsigned host_nr_cpu_ids,
				void (*emit)(const char *line));
/* Feeds one input line (no newline). Returns 0, or -1 on a malformed line
 * (reported with an X line). */
int kc_driver_line(struct kc_driver *d, char *line);
void kc_driver_free(struct kc_driver *d);

#endif
