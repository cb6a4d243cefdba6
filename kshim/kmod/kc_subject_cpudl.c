// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the driver's cpudl part (kc_driver_internal.h),
 * written for diffsched; the host builds it into the driver of a cpudl
 * candidate. Its ops are the rows of KC_CPUDL_OPS (kshim/abi/kc_ops.h), one
 * handler each, on the candidate's table (the glue adapts the API form).
 *
 * After every op it prints the candidate's heap and checks it: the heap
 * order by dl_time_before(), the back-pointers of the slots, the size, the
 * heap's contents and the free mask against a model of the callers' contract
 * (as src/subjects/cpudl/model.cpp). Ops the callers never make are skipped
 * as the tool's model skips them (src/subjects/cpudl/model.cpp,
 * Model::permits): an op naming a CPU that is down (cpu_down), cpu_up of a
 * CPU that is up, set_freecpu of a heap member. Like the tool, it stops
 * judging a program once its deadlines leave a 2^63 window (dl_time_before()
 * orders none outside one).
 */
#include "kc_driver_internal.h"

#define KC_MAX_CAPS 31 /* src/subjects/cpudl/ops.h: kMaxCapacities */
#define KC_TASK_DEADLINE (1ULL << 20) /* the harness's task (kernel_c_side.h) */

/* The driver's model of the heap, and the program's configuration. */
struct kc_subject {
	int in_domain;
	unsigned long inheap[KC_LONGS], free_[KC_LONGS], down[KC_LONGS];
	unsigned long caps[KC_MAX_CAPS];
	unsigned ncaps;
	kc_u64 dl[KC_NR];
};

struct kc_subject *kc_subject_new(void) { return kc_zalloc(sizeof(struct kc_subject)); }

void kc_subject_free(struct kc_subject *s) { kc_free(s); }

void kc_subject_reset(struct kc_driver *d)
{
	d->s->in_domain = 1;
	memset(d->s->inheap, 0, sizeof(d->s->inheap));
	memset(d->s->free_, 0, sizeof(d->s->free_));
	memset(d->s->down, 0, sizeof(d->s->down));
	d->s->ncaps = 0;
}

int kc_subject_init(struct kc_driver *d)
{
	int r = d->c->init();

	if (r) {
		kc_begin(d);
		kc_puts(d, "X ");
		kc_puti(d, d->id);
		kc_puts(d, " cpudl_init() returned ");
		kc_puti(d, r);
		kc_end(d);
		return -1;
	}
	return 0;
}

static void kc_check_cpudl(struct kc_driver *d)
{
	struct kcheck_view v = d->c->view();
	int i, count = 0;

	for (i = 0; i < d->nr; i++)
		count += kc_test(d->s->inheap, i);
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
		if (!kc_test(d->s->inheap, cpu) || d->s->dl[cpu] != v.elements[i].dl) {
			kc_violation(d, "model", "slot.dl", "cpu", cpu, i);
			return;
		}
	}
	for (i = 0; i < d->nr; i++)
		if (kc_test(v.free_bits, i) != kc_test(d->s->free_, i)) {
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

static void kc_domain_after_set(struct kc_driver *d, int cpu, kc_u64 dl, int present, kc_u64 old)
{
	kc_s64 lo = 0, hi = 0, off;
	int i;

	if (!d->s->in_domain)
		return;
	if (present) {
		off = (kc_s64)(old - dl);
		lo = off < lo ? off : lo;
		hi = off > hi ? off : hi;
	}
	for (i = 0; i < d->nr; i++)
		if (kc_test(d->s->inheap, i) && i != cpu) {
			off = (kc_s64)(d->s->dl[i] - dl);
			lo = off < lo ? off : lo;
			hi = off > hi ? off : hi;
		}
	d->s->in_domain = (kc_u64)hi - (kc_u64)lo < (1ULL << 63);
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
	return kc_test(d->s->down, cpu) == !!is_up;
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
	kc_domain_after_set(d, cpu, v, kc_test(d->s->inheap, cpu), d->s->dl[cpu]);
	kc_set(d->s->inheap, cpu);
	kc_clr(d->s->free_, cpu);
	d->s->dl[cpu] = v;
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
	if (kc_test(d->s->inheap, cpu)) {
		kc_clr(d->s->inheap, cpu);
		kc_set(d->s->free_, cpu);
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
	kc_clr(d->s->inheap, cpu);
	if (online)
		kc_set(d->s->free_, cpu);
	else
		kc_clr(d->s->free_, cpu);
	return 0;
}

static int kc_op_set_freecpu(struct kc_driver *d, char **s, struct kc_result *r)
{
	int cpu;

	if (kc_cpu(d, s, &cpu) || !d->c->set_freecpu)
		return -1;
	if (!kc_permits(d, cpu, 0) || kc_test(d->s->inheap, cpu)) {
		r->skipped = 1; /* the callers' contract */
		return 0;
	}
	d->c->set_freecpu(cpu);
	kc_set(d->s->free_, cpu);
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
	kc_clr(d->s->free_, cpu);
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
	d->c->set_capacity(1, d->s->caps, d->s->ncaps);
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
	kc_clr(d->s->inheap, cpu);
	kc_clr(d->s->free_, cpu);
	kc_set(d->s->down, cpu);
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
	kc_clr(d->s->down, cpu);
	kc_set(d->s->free_, cpu);
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

	d->s->ncaps = 0;
	if (!w)
		return -1;
	while (*w) {
		kc_u64 v = 0;
		int digits = 0;

		while (*w >= '0' && *w <= '9' && digits < 5) {
			v = v * 10 + (kc_u64)(*w++ - '0');
			digits++;
		}
		if (!digits || v < 1 || v > 1024 || d->s->ncaps == KC_MAX_CAPS)
			return -1;
		d->s->caps[d->s->ncaps++] = (unsigned long)v;
		if (*w == ',')
			w++;
		else if (*w)
			return -1;
	}
	return 0;
}

int kc_subject_line(struct kc_driver *d, char kind, char *s)
{
	struct kc_result r = { 0, 0, 0, NULL };
	int i;

	if (kind == 'A')
		return kc_capacities(d, s);
	for (i = 0; i < KC_CPUDL_NR_OPS; i++)
		if (kc_cpudl_ops[i].letter == kind)
			break;
	if (i == KC_CPUDL_NR_OPS || kc_cpudl_ops[i].run(d, &s, &r))
		return -1;
	kc_state_begin(d);
	kc_puts(d, " ");
	if (r.skipped)
		kc_puts(d, "skipped ");
	kc_state_cpudl(d, r.has_ret, r.ret, r.later);
	kc_emit_state(d);
	if (d->s->in_domain && !d->failed)
		kc_check_cpudl(d);
	return 0;
}
