// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the op-program driver (see kc_driver.h), written
 * for diffsched: the protocol's part, which names no subject. Plain C for the
 * kernel and for libc (kc_port.h).
 *
 * It starts and ends programs (P, E), prints the result record (Q), builds
 * the output lines and parses the input's words; every other line goes to
 * the subject's part (kc_driver_internal.h, kc_subject_<name>.c), which runs
 * the op on the candidate's table, prints its state and runs its own checks
 * on it (V lines, so that a guest run is judged by itself, not only against
 * the shim).
 */
#include "kc_driver_internal.h"

/* The output buffer. */
void kc_puts(struct kc_driver *d, const char *s)
{
	int n = (int)strlen(s);

	if (d->len + n >= KC_LINE - 1)
		n = KC_LINE - 1 - d->len;
	if (n <= 0)
		return;
	memcpy(d->buf + d->len, s, (size_t)n);
	d->len += n;
	d->buf[d->len] = 0;
}

void kc_putu(struct kc_driver *d, kc_u64 v)
{
	char t[24];
	int i = 23;

	t[i] = 0;
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	kc_puts(d, t + i);
}

void kc_puti(struct kc_driver *d, long long v)
{
	if (v < 0) {
		kc_puts(d, "-");
		kc_putu(d, (kc_u64)(-(v + 1)) + 1);
	} else {
		kc_putu(d, (kc_u64)v);
	}
}

void kc_putlist(struct kc_driver *d, const unsigned long *b, int nbits)
{
	int i = 0, first = 1;

	while (i < nbits) {
		int j;

		if (!kc_test(b, i)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < nbits && kc_test(b, j + 1); j++)
			;
		if (!first)
			kc_puts(d, ",");
		first = 0;
		kc_putu(d, (kc_u64)i);
		if (j > i) {
			kc_puts(d, "-");
			kc_putu(d, (kc_u64)j);
		}
		i = j + 1;
	}
	if (first)
		kc_puts(d, "-");
}

void kc_begin(struct kc_driver *d) { d->len = 0; d->buf[0] = 0; }
void kc_end(struct kc_driver *d) { d->emit(d->buf); }

static void kc_error(struct kc_driver *d, const char *what)
{
	kc_begin(d);
	kc_puts(d, "X ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puts(d, what);
	kc_end(d);
}

/* Input parsing. */
char *kc_word(char **s)
{
	char *w;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	if (!**s)
		return NULL;
	w = *s;
	while (**s && **s != ' ' && **s != '\t')
		(*s)++;
	if (**s)
		*(*s)++ = 0;
	return w;
}

int kc_num(char **s, kc_u64 *out)
{
	char *w = kc_word(s);
	kc_u64 v = 0;

	if (!w || !*w)
		return -1;
	for (; *w; w++) {
		kc_u64 digit = (kc_u64)(*w - '0');

		if (*w < '0' || *w > '9')
			return -1;
		if (v > (~0ULL - digit) / 10)
			return -1; /* beyond 2^64-1 */
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int kc_list(char **s, unsigned long *b)
{
	char *w = kc_word(s);

	memset(b, 0, KC_LONGS * sizeof(unsigned long));
	if (!w)
		return -1;
	if (!strcmp(w, "-"))
		return 0;
	while (*w) {
		kc_u64 lo = 0, hi;
		int digits = 0;

		while (*w >= '0' && *w <= '9' && digits < 6) {
			lo = lo * 10 + (kc_u64)(*w++ - '0');
			digits++;
		}
		if (!digits)
			return -1;
		hi = lo;
		if (*w == '-') {
			w++;
			hi = 0;
			digits = 0;
			while (*w >= '0' && *w <= '9' && digits < 6) {
				hi = hi * 10 + (kc_u64)(*w++ - '0');
				digits++;
			}
			if (!digits)
				return -1;
		}
		if (hi < lo || hi >= KC_NR)
			return -1;
		for (; lo <= hi; lo++)
			kc_set(b, (int)lo);
		if (*w == ',')
			w++;
		else if (*w)
			return -1;
	}
	return 0;
}

/* The driver's own checks. */
void kc_violation(struct kc_driver *d, const char *inv, const char *field, const char *what,
		  long long a, long long b)
{
	d->failed = 1;
	kc_begin(d);
	kc_puts(d, "V ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->op);
	kc_puts(d, " ");
	kc_puts(d, inv);
	kc_puts(d, " ");
	kc_puts(d, field);
	kc_puts(d, " ");
	kc_puts(d, what);
	kc_puts(d, " ");
	kc_puti(d, a);
	kc_puts(d, " ");
	kc_puti(d, b);
	kc_end(d);
}

static kc_u64 kc_fnv(const char *s)
{
	kc_u64 h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

void kc_emit_state(struct kc_driver *d)
{
	/* d->buf holds "S id op " + state: shorten a long state to its hash. */
	static const char hex[] = "0123456789abcdef";
	char *state, tmp[24];
	kc_u64 h;
	int i, at = 0;

	for (i = 0; i < 3 && at < d->len; at++)
		if (d->buf[at] == ' ')
			i++;
	state = d->buf + at;
	if (!d->verbose && (int)strlen(state) > KC_LONG_STATE) {
		h = kc_fnv(state);
		tmp[0] = 'x';
		tmp[1] = '=';
		for (i = 0; i < 16; i++)
			tmp[2 + i] = hex[(h >> (60 - 4 * i)) & 15];
		tmp[18] = 0;
		d->len = at;
		d->buf[at] = 0;
		kc_puts(d, tmp);
	}
	kc_end(d);
}

void kc_state_begin(struct kc_driver *d)
{
	d->op++;
	d->nops++;
	kc_begin(d);
	kc_puts(d, "S ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->op);
}

static int kc_start(struct kc_driver *d, char *s)
{
	kc_u64 id, nr, verbose;

	if (kc_num(&s, &id) || kc_num(&s, &nr) || kc_num(&s, &verbose) || nr < 1 || nr > KC_NR)
		return -1;
	d->id = (int)id;
	d->nr = (int)nr;
	d->verbose = (int)verbose;
	d->op = 0;
	d->active = 0;
	d->failed = 0;
	kc_subject_reset(d);
	if (d->host_nr && d->host_nr != nr) {
		kc_error(d, "nr_cpu_ids differs from the program's");
		return 0;
	}
	d->c->reset_runtime((unsigned)nr);
	if (kc_subject_init(d))
		return 0; /* its X line said why */
	d->active = 1;
	kc_begin(d);
	kc_puts(d, "P ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->nr);
	kc_end(d);
	d->nprograms++;
	return 0;
}

int kc_cpu(struct kc_driver *d, char **s, int *cpu)
{
	kc_u64 v;

	if (kc_num(s, &v) || v >= (kc_u64)d->nr)
		return -1;
	*cpu = (int)v;
	return 0;
}
struct kc_driver *kc_driver_new(const struct kcheck_candidate *c, unsigned host_nr_cpu_ids,
				void (*emit)(const char *line))
{
	struct kc_driver *d = kc_zalloc(sizeof(*d));

	if (!d)
		return NULL;
	d->buf = kc_zalloc(KC_LINE);
	if (!d->buf) {
		kc_free(d);
		return NULL;
	}
	d->s = kc_subject_new();
	if (!d->s) {
		kc_free(d->buf);
		kc_free(d);
		return NULL;
	}
	d->c = c;
	d->host_nr = host_nr_cpu_ids;
	d->emit = emit;
	return d;
}

void kc_driver_free(struct kc_driver *d)
{
	if (!d)
		return;
	kc_subject_free(d->s);
	kc_free(d->buf);
	kc_free(d);
}

int kc_driver_line(struct kc_driver *d, char *line)
{
	char kind = line[0];

	if (!kind || kind == '#')
		return 0;
	if (line[1] && line[1] != ' ')
		goto bad;
	if (kind == 'P')
		return kc_start(d, line + 1) ? (kc_error(d, "malformed program line"), -1) : 0;
	if (kind == 'E') {
		d->active = 0;
		return 0;
	}
	if (kind == 'Q') { /* the result record: what ran, and the host's token */
		kc_begin(d);
		kc_puts(d, "D ");
		kc_putu(d, d->nprograms);
		kc_puts(d, " ");
		kc_putu(d, d->nops);
		kc_puts(d, " ");
		kc_puts(d, line[1] ? line + 2 : "-");
		kc_end(d);
		return 0;
	}
	if (!d->active)
		return 0; /* a program that could not start: its X line said why */
	if (kc_subject_line(d, kind, line + 1) == 0)
		return 0;
bad:
	kc_error(d, "malformed op line");
	d->active = 0;
	return -1;
}
