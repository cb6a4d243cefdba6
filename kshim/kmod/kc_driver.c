// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the op-program driver (see kc_driver.h), written
 * for diffsched. Plain C for the kernel and for libc (kc_port.h).
 *
 * After every op it prints the candidate's state, and runs its own checks
 * on it (printed as V lines, so that a guest run is judged by itself, not
 * only against the shim): cpudl: the heap order by dl_time_before(), the
 * back-pointers of the slots, the size, the heap's contents and the free
 * mask against a model of the callers' contract (as src/subjects/cpudl/model.cpp);
 * pick: the first CPU of dst & cpus & allowed, or one >= nr_cpu_ids for
 * none. Ops the callers never make are skipped as the tool's model skips
 * them (src/subjects/cpudl/model.cpp, Model::permits): an op naming a CPU that is
 * down (cpu_down), cpu_up of a CPU that is up, set_freecpu of a heap member. Like the tool, it stops judging a cpudl program once its deadlines
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
#define KC_MAX_CAPS 31 /* src/subjects/cpudl/ops.h: kMaxCapacities */
#define KC_TASK_DEADLINE (1ULL << 20) /* the harness's task (kernel_c_side.h) */

struct kc_driver {
	const struct kcheck_candidate *c;
	unsigned host_nr;
	void (*emit)(const char *line);
	int id, nr, verbose, op, active, in_domain, failed;
	unsigned long nprograms, nops; /* started, and run, since kc_driver_new() */
	unsigned long inheap[KC_LONGS], free_[KC_LONGS], down[KC_LONGS];
	unsigned long caps[KC_MAX_CAPS];
	unsigned ncaps;
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
	memset(d->down, 0, sizeof(d->down));
	d->ncaps = 0;
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
	d->nprograms++;
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

/* What a cpudl op did, for its state line. */
struct kc_result {
	int has_ret, ret, skipped;
	unsigned long *later;
};

/* An op on `cpu` that the tool's model permits (Model::permits): none names
 * a CPU that is down, except cpu_up, which needs one. */
static int kc_permits(struct kc_driver *d, int cpu, int is_up)
{
	return kc_test(d->down, cpu) == !!is_up;
}

static int kc_op_set(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;
	kc_u64 v;

	if (kc_cpu(d, s, &cpu) || kc_num(s, &v))
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	d->c->set(cpu, v);
	kc_domain_after_set(d, cpu, v, kc_test(d->inheap, cpu), d->dl[cpu]);
	kc_set(d->inheap, cpu);
	kc_clr(d->free_, cpu);
	d->dl[cpu] = v;
	return 0;
}

static int kc_op_clear(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu))
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	d->c->clear(cpu);
	if (kc_test(d->inheap, cpu)) {
		kc_clr(d->inheap, cpu);
		kc_set(d->free_, cpu);
	}
	return 0;
}

static int kc_op_clear_online(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;
	kc_u64 online;

	if (kc_cpu(d, s, &cpu) || kc_num(s, &online) || online > 1 || !d->c->clear_online)
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	d->c->clear_online(cpu, (int)online);
	kc_clr(d->inheap, cpu);
	if (online)
		kc_set(d->free_, cpu);
	else
		kc_clr(d->free_, cpu);
	return 0;
}

static int kc_op_set_freecpu(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu) || !d->c->set_freecpu)
		return -1;
	if (!kc_permits(d, cpu, 0) || kc_test(d->inheap, cpu)) {
		r->skipped = 1; /* the callers' contract */
		return 0;
	}
	d->c->set_freecpu(cpu);
	kc_set(d->free_, cpu);
	return 0;
}

static int kc_op_clear_freecpu(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu) || !d->c->clear_freecpu)
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	d->c->clear_freecpu(cpu);
	kc_clr(d->free_, cpu);
	return 0;
}

/* The harness's per-find task (kshim/harness/kernel_c_side.cpp,
 * task_for_find(), --task-util 0): a splitmix64 of the deadline and the
 * affinity's first two words gives the utilisation (1..1024 in 1024ths of
 * the deadline) and, as the task's CPU, one CPU of the affinity below
 * nr_cpu_ids (CPU 0 when there is none). */
static kc_u64 kc_mix(kc_u64 z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void kc_task_for_find(const struct kc_driver *d, kc_u64 dl, const unsigned long *affinity,
			     unsigned *task_cpu, kc_u64 *runtime)
{
	kc_u64 h = kc_mix(dl), k;
	unsigned w, weight = 0;
	int c;

	for (w = 0; w < 2; w++)
		h = kc_mix(h ^ (kc_u64)affinity[w]);
	*runtime = KC_TASK_DEADLINE * (1 + h % 1024) / 1024;
	for (c = 0; c < d->nr; c++)
		weight += (unsigned)kc_test(affinity, c);
	*task_cpu = 0;
	if (!weight)
		return;
	k = (h >> 32) % weight;
	for (c = 0; c < d->nr; c++)
		if (kc_test(affinity, c) && k-- == 0) {
			*task_cpu = (unsigned)c;
			return;
		}
}

static int kc_find(struct kc_driver *d, char **s, struct kc_result *r, int with_mask)
{
	kc_u64 v, runtime;
	unsigned task_cpu;

	if (kc_num(s, &v) || kc_list(s, d->m1))
		return -1;
	if (with_mask) {
		memset(d->m2, 0, sizeof(d->m2));
		r->later = d->m2;
	}
	kc_task_for_find(d, v, d->m1, &task_cpu, &runtime);
	r->ret = d->c->find(v, d->m1, r->later, task_cpu, runtime, KC_TASK_DEADLINE);
	r->has_ret = 1;
	return 0;
}

static int kc_op_find(struct kc_driver *d, char **s, struct kc_result *r)
{
	return kc_find(d, s, r, 1);
}

static int kc_op_find_nomask(struct kc_driver *d, char **s, struct kc_result *r)
{
	return kc_find(d, s, r, 0);
}

/* find_cap: the capacity branch on with the program's capacities (the A
 * line; none: all 1024) for this one find, as the harness runs it. */
static int kc_op_find_cap(struct kc_driver *d, char **s, struct kc_result *r)
{
	kc_u64 v, runtime, deadline;
	int cpu;

	if (kc_num(s, &v) || kc_list(s, d->m1) || kc_cpu(d, s, &cpu) || kc_num(s, &runtime) ||
	    kc_num(s, &deadline))
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	memset(d->m2, 0, sizeof(d->m2));
	r->later = d->m2;
	d->c->set_capacity(1, d->caps, d->ncaps);
	r->ret = d->c->find(v, d->m1, r->later, (unsigned)cpu, runtime, deadline);
	d->c->set_capacity(0, NULL, 0);
	r->has_ret = 1;
	return 0;
}

/* CPU hotplug (the glue runs the kernel's order): rq_offline_dl() takes the
 * CPU out of the heap and the free set; rq_online_dl() without -dl tasks
 * makes it free. */
static int kc_op_cpu_down(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu) || !d->c->cpu_down)
		return -1;
	if (!kc_permits(d, cpu, 0)) {
		r->skipped = 1;
		return 0;
	}
	d->c->cpu_down(cpu);
	kc_clr(d->inheap, cpu);
	kc_clr(d->free_, cpu);
	kc_set(d->down, cpu);
	return 0;
}

static int kc_op_cpu_up(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu) || !d->c->cpu_up)
		return -1;
	if (!kc_permits(d, cpu, 1)) {
		r->skipped = 1;
		return 0;
	}
	d->c->cpu_up(cpu);
	kc_clr(d->down, cpu);
	kc_set(d->free_, cpu);
	return 0;
}

/* One handler per row of KC_CPUDL_OPS (kc_ops.h), in its order: a row
 * without its kc_op_<name> above does not compile (ctest -R
 * contract.add-an-op plants one), and a handler without a row is an unused
 * function (-Wall -Werror: ctest -R inkernel.driver). */
#define KC_HANDLER(letter, name) { letter, kc_op_##name },
static const struct {
	char letter;
	int (*run)(struct kc_driver *d, char **s, struct kc_result *r);
} kc_cpudl_ops[] = { KC_CPUDL_OPS(KC_HANDLER) };
#undef KC_HANDLER
#define KC_CPUDL_NR_OPS ((int)(sizeof(kc_cpudl_ops) / sizeof(kc_cpudl_ops[0])))

/* A: the program's capacities, 1..1024 each, at most KC_MAX_CAPS. */
static int kc_capacities(struct kc_driver *d, char *s)
{
	char *w = kc_word(&s);

	d->ncaps = 0;
	if (!w)
		return -1;
	while (*w) {
		kc_u64 v = 0;
		int digits = 0;

		while (*w >= '0' && *w <= '9' && digits < 5) {
			v = v * 10 + (kc_u64)(*w++ - '0');
			digits++;
		}
		if (!digits || v < 1 || v > 1024 || d->ncaps == KC_MAX_CAPS)
			return -1;
		d->caps[d->ncaps++] = (unsigned long)v;
		if (*w == ',')
			w++;
		else if (*w)
			return -1;
	}
	return 0;
}

static int kc_op(struct kc_driver *d, char kind, char *s)
{
	const struct kcheck_candidate *c = d->c;
	struct kc_result r = { 0, 0, 0, NULL };
	int i;

	if (kind == 'A')
		return kc_capacities(d, s);
	if (kind == 'p') {
		unsigned got;
		int want = -1;

		if (kc_list(&s, d->m1) || kc_list(&s, d->m2) || kc_list(&s, d->m3))
			return -1;
		got = c->pick(d->m1, d->m2, d->m3);
		d->op++;
		d->nops++;
		kc_begin(d);
		kc_puts(d, "S ");
		kc_puti(d, d->id);
		kc_puts(d, " ");
		kc_puti(d, d->op);
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
	for (i = 0; i < KC_CPUDL_NR_OPS; i++)
		if (kc_cpudl_ops[i].letter == kind)
			break;
	if (i == KC_CPUDL_NR_OPS || kc_cpudl_ops[i].run(d, &s, &r))
		return -1;
	d->op++;
	d->nops++;
	kc_begin(d);
	kc_puts(d, "S ");
	kc_puti(d, d->id);
	kc_puts(d, " ");
	kc_puti(d, d->op);
	kc_puts(d, " ");
	if (r.skipped)
		kc_puts(d, "skipped ");
	kc_state_cpudl(d, r.has_ret, r.ret, r.later);
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
	if (kc_op(d, kind, line + 1) == 0)
		return 0;
bad:
	kc_error(d, "malformed op line");
	d->active = 0;
	return -1;
}
