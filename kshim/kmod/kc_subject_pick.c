// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the driver's pick part (kc_driver_internal.h),
 * written for diffsched; the host builds it into the driver of a pick
 * candidate. Its one op, "p DST CPUS ALLOWED", calls the candidate's
 * function; the driver checks the answer itself: the first CPU of
 * dst & cpus & allowed, or one >= nr_cpu_ids for none.
 */
#include "kc_driver_internal.h"

struct kc_subject {
	int unused; /* a pick keeps no state between calls */
};

struct kc_subject *kc_subject_new(void) { return kc_zalloc(sizeof(struct kc_subject)); }

void kc_subject_free(struct kc_subject *s) { kc_free(s); }

void kc_subject_reset(struct kc_driver *d) { (void)d; }

int kc_subject_init(struct kc_driver *d)
{
	(void)d;
	return 0;
}

int kc_subject_line(struct kc_driver *d, char kind, char *s)
{
	unsigned got;
	int i, want = -1;

	if (kind != 'p')
		return -1;
	if (kc_list(&s, d->m1) || kc_list(&s, d->m2) || kc_list(&s, d->m3))
		return -1;
	got = d->c->pick(d->m1, d->m2, d->m3);
	kc_state_begin(d);
	kc_puts(d, " r=");
	kc_putu(d, got);
	kc_emit_state(d);
	for (i = 0; i < d->nr && want < 0; i++)
		if (kc_test(d->m1, i) && kc_test(d->m2, i) && kc_test(d->m3, i))
			want = i;
	if (want < 0 ? got < (unsigned)d->nr : got != (unsigned)want)
		kc_violation(d, "pick-first-common", "cpu", "returned", got, want);
	return 0;
}
