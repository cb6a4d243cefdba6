/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: the driver's inside, written for diffsched,
 * shared by the protocol part (kc_driver.c: the P, E and Q lines, the
 * output, the parsing) and a subject's part, one file per subject
 * (kc_subject_<name>.c: its op lines, its state line, its own checks and
 * model). The host builds the driver with the candidate's subject's file
 * only, picked by the subject's name (src/kcheck/in_kernel_module.cpp), so
 * a new subject adds its file and edits none here.
 *
 *   kc_subject_new()/kc_subject_free()  its state, for the driver's life
 *   kc_subject_reset(d)  a P line: the program's state afresh (before the
 *                        runtime is reset, even for a program that cannot run)
 *   kc_subject_init(d)   after reset_runtime(): 0, or -1 with the program's
 *                        X line printed (cpudl: cpudl_init() failed)
 *   kc_subject_line(d, kind, s)  an op or configuration line of the subject
 *                        (kind its letter, s the rest): 0, or -1 if malformed;
 *                        an op prints its S line (kc_state_begin(), then the
 *                        state, kc_emit_state()) and any V lines after it
 * Plain C for the kernel and for libc (kc_port.h).
 */
#ifndef KC_DRIVER_INTERNAL_H
#define KC_DRIVER_INTERNAL_H

#include "kc_port.h"
#include "kc_driver.h"

#define KC_NR 8192
#define KC_BPL (8 * (int)sizeof(unsigned long))
#define KC_LONGS (KC_NR / KC_BPL)
#define KC_LINE (1 << 20)
#define KC_LONG_STATE 600

struct kc_subject; /* the subject file's own */

struct kc_driver {
	const struct kcheck_candidate *c;
	unsigned host_nr;
	void (*emit)(const char *line);
	int id, nr, verbose, op, active, failed;
	unsigned long nprograms, nops; /* started, and run, since kc_driver_new() */
	unsigned long m1[KC_LONGS], m2[KC_LONGS], m3[KC_LONGS];
	struct kc_subject *s;
	char *buf;
	int len;
};

static inline int kc_test(const unsigned long *b, int i)
{
	return (b[i / KC_BPL] >> (i % KC_BPL)) & 1;
}
static inline void kc_set(unsigned long *b, int i) { b[i / KC_BPL] |= 1UL << (i % KC_BPL); }
static inline void kc_clr(unsigned long *b, int i) { b[i / KC_BPL] &= ~(1UL << (i % KC_BPL)); }
static inline int kc_before(kc_u64 a, kc_u64 b) { return (kc_s64)(a - b) < 0; }

/* The output line being built: kc_begin(), kc_put*(), kc_end() emits it. */
void kc_begin(struct kc_driver *d);
void kc_end(struct kc_driver *d);
void kc_puts(struct kc_driver *d, const char *s);
void kc_putu(struct kc_driver *d, kc_u64 v);
void kc_puti(struct kc_driver *d, long long v);
void kc_putlist(struct kc_driver *d, const unsigned long *b, int nbits); /* a cpulist, "-" for none */
/* An op ran: counts it and begins its line "S id op". */
void kc_state_begin(struct kc_driver *d);
/* Emits the S line, a long state shortened to its hash unless verbose. */
void kc_emit_state(struct kc_driver *d);
/* A V line: a check of the driver failed (d->failed is set). */
void kc_violation(struct kc_driver *d, const char *inv, const char *field, const char *what,
		  long long a, long long b);

/* Input parsing: 0, or -1 when malformed. */
char *kc_word(char **s);
int kc_num(char **s, kc_u64 *out);
int kc_list(char **s, unsigned long *b);  /* a cpulist or "-" into KC_NR bits */
int kc_cpu(struct kc_driver *d, char **s, int *cpu);  /* a CPU below the program's nr */

/* The subject's part (kc_subject_<name>.c). */
struct kc_subject *kc_subject_new(void);
void kc_subject_free(struct kc_subject *s);
void kc_subject_reset(struct kc_driver *d);
int kc_subject_init(struct kc_driver *d);
int kc_subject_line(struct kc_driver *d, char kind, char *s);

#endif
