// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the op-program driver (see kc_driver.h), written
 * for diffsched. Plain C for the kernel and for libc (kc_port.h).
 *
 * After every op it prints the candidate's state, and runs its own checks
 * on it (printed as V lines, so that a guest run is judged by itself, not
 * only against the shim): cpudl: the heap order by dl_time_before(), the
 * back-pointers of the slots, the size, the heap's contents and the free
 * mask against a model of the callers' contract (as src/cpudl/model.cpp);
 * pick: the first CPU of dst & cpus & allowed, or one >= nr_cpu_ids for
 * none. Like the tool, it stops judging a cpudl program once its deadlines
 * leave a 2^63 window (dl_time_before() orders none outside one), and skips
 * set_freecpu of a CPU in the heap (the callers never do it).
 */
#include "kc_port.h"
#include "kc_driver.h"

#define KC_NR 8192
#define KC_BPL (8 * (int)sizeof(unsigned long))
#define KC_LONGS (KC_NR / KC_BPL)
#define KC_LINE (1 << 20)
#define KC_LONG_STATE 600

struct kc_driver {
	const struct kcheck_candidate *c;
	unsigned host_nr;
	void (*emit)(const char *line);
	int id, nr, verbose, op, active, in_domain, failed;
	unsigned long inheap[KC_LONGS], free_[KC_LONGS];
	kc_u64 dl[KC_NR];
	unsigned long m1[KC_LONGS], m2[KC_LONGS], m3[KC_LONGS];
	char *buf;
	int len;
};

static int kc_test(const unsigned long *b, int i) { return (b[i / KC_BPL] >> (i % KC_BPL)) & 1; }
static void kc_set(unsigned long *b, int i) { b[i / KC_BPL] |= 1UL << (i % KC_BPL); }
static void kc_clr(unsigned long *b, int i) { b[i / KC_BPL] &= ~(1UL << (i % KC_BPL)); }
static int kc_before(kc_u64 a, kc_u64 b) { return (kc_s64)(a - b) < 0; }

/* The output buffer. */
static void kc_puts(struct kc_driver *d, const char *s)
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

static void kc_putu(struct kc_driver *d, kc_u64 v)
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

static void kc_puti(struct kc_driver *d, long long v)
{
	if (v < 0) {
		kc_puts(d, "-");
		kc_putu(d, (kc_u64)(-(v + 1)) + 1);
	} else {
		kc_putu(d, (kc_u64)v);
	}
}

static void kc_putlist(struct kc_driver *d, const unsigned long *b, int nbits)
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

static void kc_begin(struct kc_driver *d) { d->len = 0; d->buf[0] = 0; }
static void kc_end(struct kc_driver *d) { d->emit(d->buf); }

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
static char *kc_word(char **s)
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

static int kc_num(char **s, kc_u64 *out)
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

static int kc_list(char **s, unsigned long *b)
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
static void kc_violation(struct kc_driver *d, const char *inv, const char *field, const char *what,
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

static void kc_check_cpudl(struct kc_driver *d)
{
	struct kcheck_view v = d->c->view();
	int i, count = 0;

	for (i = 0; i < d->nr; i++)
		count += kc_test(d->inheap, i);
	if (v.size < 0 || v.size > d->nr || v.size != count) {
		kc_violation(d, "model", "size", "size-vs-model", v.size, count);
		return;
	}
	for (i = 1; i < v.size; i++)
		if (kc_before(v.elements[(i - 1) / 2].dl, v.elements[i].dl)) {
			kc_violation(d, "heap-order", "slot.dl", "slot", i, (i - 1) / 2);
			return;
		}
	for (i = 0; i < v.size; i++) {
		int cpu = v.elements[i].cpu;

		if (cpu < 0 || cpu >= d->nr) {
			kc_violation(d, "cpu-in-range", "slot.cpu", "slot", i, cpu);
			return;
		}
		if (v.elements[cpu].idx != i) {
			kc_violation(d, "idx-of-slot", "idx", "slot", i, v.elements[cpu].idx);
			return;
		}
		if (!kc_test(d->inheap, cpu) || d->dl[cpu] != v.elements[i].dl) {
			kc_violation(d, "model", "slot.dl", "cpu", cpu, i);
			return;
		}
	}
	for (i = 0; i < d->nr; i++)
		if (kc_test(v.free_bits, i) != kc_test(d->free_, i)) {
			kc_violation(d, "model", "free_cpus", "cpu", i, kc_test(v.free_bits, i));
			return;
		}
}

static void kc_state_cpudl(struct kc_driver *d, int has_ret, int ret, const unsigned long *later)
{
	struct kcheck_view v = d->c->view();
	int i, n = v.size < 0 ? 0 : v.size > d->nr ? d->nr : v.size;

	kc_puts(d, "r=");
	if (has_ret)
		kc_puti(d, ret);
	else
		kc_puts(d, "-");
	kc_puts(d, " n=");
	kc_puti(d, v.size);
	kc_puts(d, " h=");
	for (i = 0; i < n; i++) {
		if (i)
			kc_puts(d, ",");
		kc_puti(d, v.elements[i].cpu);
		kc_puts(d, ":");
		kc_putu(d, v.elements[i].dl);
	}
	kc_puts(d, " i=");
	for (i = 0; i < d->nr; i++)
		if (v.elements[i].idx != -1) {
			kc_puti(d, i);
			kc_puts(d, ":");
			kc_puti(d, v.elements[i].idx);
			kc_puts(d, ",");
		}
	kc_puts(d, " f=");
	kc_putlist(d, v.free_bits, d->nr); /* the kernel allocates nr_cpu_ids bits */
	if (later) {
		kc_puts(d, " l=");
		kc_putlist(d, later, d->nr);
	}
}

static kc_u64 kc_fnv(const char *s)
{
	kc_u64 h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void kc_emit_state(struct kc_driver *d)
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

static void kc_domain_after_set(struct kc_driver *d, int cpu, kc_u64 dl, int present, kc_u64 old)
{
	kc_s64 lo = 0, hi = 0, off;
	int i;

	if (!d->in_domain)
		return;
	if (present) {
		off = (kc_s64)(old - dl);
		lo = off < lo ? off : lo;
		hi = off > hi ? off : hi;
	}
	for (i = 0; i < d->nr; i++)
		if (kc_test(d->inheap, i) && i != cpu) {
			off = (kc_s64)(d->dl[i] - dl);
			lo = off < lo ? off : lo;
			hi = off > hi ? off : hi;
		}
	d->in_domain = (kc_u64)hi - (kc_u64)lo < (1ULL << 63);
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
	d->in_domain = 1;
	d->failed = 0;
	memset(d->inheap, 0, sizeof(d->inheap));
	memset(d->free_, 0, sizeof(d->free_));
	if (d->host_nr && d->host_nr != nr) {
		kc_error(d, "nr_cpu_ids differs from the program's");
		return 0;
	}
	d->c->reset_runtime((unsigned)nr);
	if (d->c->api != KCHECK_API_PICK) {
		int r = d->c->init();

		if (r) {
			kc_begin(d);
			kc_puts(d, "X ");
			kc_puti(d, d->id);
			kc_puts(d, " cpudl_init() returned ");
			kc_puti(d, r);
			kc_end(d);
			return 0;
		}
	}
	d->active = 1;
	kc_begin(d);
	kc_puts(d, "P ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->nr);
	kc_end(d);
	return 0;
}

static int kc_cpu(struct kc_driver *d, char **s, int *cpu)
{
	kc_u64 v;

	if (kc_num(s, &v) || v >= (kc_u64)d->nr)
		return -1;
	*cpu = (int)v;
	return 0;
}

static int kc_op(struct kc_driver *d, char kind, char *s)
{
	const struct kcheck_candidate *c = d->c;
	int cpu = 0, has_ret = 0, ret = 0, skipped = 0;
	unsigned long *later = NULL;
	kc_u64 v = 0, online = 0;

	if (kind == 'p') {
		unsigned r;
		int i, want = -1;

		if (kc_list(&s, d->m1) || kc_list(&s, d->m2) || kc_list(&s, d->m3))
			return -1;
		r = c->pick(d->m1, d->m2, d->m3);
		d->op++;
		kc_begin(d);
		kc_puts(d, "S ");
		kc_puti(d, d->id);
		kc_puts(d, " ");
		kc_puti(d, d->op);
		kc_puts(d, " r=");
		kc_putu(d, r);
		kc_emit_state(d);
		for (i = 0; i < d->nr && want < 0; i++)
			if (kc_test(d->m1, i) && kc_test(d->m2, i) && kc_test(d->m3, i))
				want = i;
		if (want < 0 ? r < (unsigned)d->nr : r != (unsigned)want)
			kc_violation(d, "pick-first-common", "cpu", "returned", r, want);
		return 0;
	}
	switch (kind) {
	case 's':
		if (kc_cpu(d, &s, &cpu) || kc_num(&s, &v))
			return -1;
		c->set(cpu, v);
		kc_domain_after_set(d, cpu, v, kc_test(d->inheap, cpu), d->dl[cpu]);
		kc_set(d->inheap, cpu);
		kc_clr(d->free_, cpu);
		d->dl[cpu] = v;
		break;
	case 'c':
		if (kc_cpu(d, &s, &cpu))
			return -1;
		c->clear(cpu);
		if (kc_test(d->inheap, cpu)) {
			kc_clr(d->inheap, cpu);
			kc_set(d->free_, cpu);
		}
		break;
	case 'o':
		if (kc_cpu(d, &s, &cpu) || kc_num(&s, &online) || online > 1)
			return -1;
		if (!c->clear_online)
			return -1;
		c->clear_online(cpu, (int)online);
		kc_clr(d->inheap, cpu);
		if (online)
			kc_set(d->free_, cpu);
		else
			kc_clr(d->free_, cpu);
		break;
	case 'S':
		if (kc_cpu(d, &s, &cpu) || !c->set_freecpu)
			return -1;
		if (kc_test(d->inheap, cpu)) {
			skipped = 1; /* the callers' contract */
		} else {
			c->set_freecpu(cpu);
			kc_set(d->free_, cpu);
		}
		break;
	case 'C':
		if (kc_cpu(d, &s, &cpu) || !c->clear_freecpu)
			return -1;
		c->clear_freecpu(cpu);
		kc_clr(d->free_, cpu);
		break;
	case 'f':
	case 'n':
		if (kc_num(&s, &v) || kc_list(&s, d->m1))
			return -1;
		if (kind == 'f') {
			memset(d->m2, 0, sizeof(d->m2));
			later = d->m2;
		}
		/* The harness's task shape (kshim/harness/kernel_c_side.h). */
		ret = c->find(v, d->m1, later, 0, 1ULL << 19, 1ULL << 20);
		has_ret = 1;
		break;
	default:
		return -1;
	}
	d->op++;
	kc_begin(d);
	kc_puts(d, "S ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->op);
	kc_puts(d, " ");
	if (skipped)
		kc_puts(d, "skipped ");
	kc_state_cpudl(d, has_ret, ret, later);
	kc_emit_state(d);
	if (d->in_domain && !d->failed)
		kc_check_cpudl(d);
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
	d->c = c;
	d->host_nr = host_nr_cpu_ids;
	d->emit = emit;
	return d;
}

void kc_driver_free(struct kc_driver *d)
{
	if (!d)
		return;
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
	if (!d->active)
		return 0; /* a program that could not start: its X line said why */
	if (kc_op(d, kind, line + 1) == 0)
		return 0;
bad:
	kc_error(d, "malformed op line");
	d->active = 0;
	return -1;
}
