// diffsched fn: the harness's fixed C text (model.h), in the order
// harness_source() (harness_gen.cpp) joins it with the generated parts:
// the prologue (the value stream, the record buffer), harness_numbers()
// (harness_print.cpp), the masks' printer, the stubs and the call,
// fn --fuzz's library entry, and main(). Kernel-style C, no #include.
#include "fn/model.h"

namespace diffsched::fn {

const char* harness_prologue() {
  return R"(
/* ---- diffsched fn harness (generated; docs/fn.md) ---------------------- */
#include <kcheck_abi.h>
long read(int fd, void *buf, size_t n);
long write(int fd, const void *buf, size_t n);
int open(const char *path, int flags, ...);
void *malloc(size_t n);
void *realloc(void *p, size_t n);
void free(void *p);
unsigned int alarm(unsigned int seconds);
int kshim_take_warning(struct kcheck_warning *out);
extern struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask,
	__cpu_active_mask;

static const unsigned long long *fnh_vals;
static size_t fnh_nvals, fnh_at;
static void *fnh_ptrs[65536];
static size_t fnh_psize[65536];
static int fnh_nptrs;
/* The blocks' contents as drawn, taken before the call (fnh_snap()). */
static unsigned char fnh_drawn[1 << 20];
static size_t fnh_drawn_at[65536];
static int fnh_nsnap;	/* blocks 0..fnh_nsnap-1 have their copy */
static char fnh_tr[1 << 20];	/* the stubs' call trace of one call */
static size_t fnh_trlen;
static int fnh_to_tr;	/* fnh_puts() writes to the trace */
static char fnh_out[1 << 20];
static size_t fnh_olen;
static int fnh_lost;	/* fnh_one(): the record did not fit in fnh_out */
static int fnh_fd = -1;

/*
 * The memory operations of one call: the unit and the shim's runtime are
 * built with -fsanitize-coverage=trace-loads,trace-stores, which calls these
 * before each load and store; the harness's own functions are not
 * instrumented (the pragma around it), so its callbacks do not count.
 */
static unsigned long long fnh_mem;
static int fnh_counting;

/*
 * The clock build (FNH_CLOCK_REPS defined: -O2, no sanitizer, no
 * coverage): fnh_call() in timing mode draws the input, times the call
 * alone with CLOCK_MONOTONIC, and records nothing.
 */
struct fnh_timespec { long sec, nsec; };
int clock_gettime(int clock, struct fnh_timespec *ts);
static int fnh_timing;
static int fnh_discard;	/* the clock build's harness timing: records made, not written */
static unsigned long long fnh_t0, fnh_ns;

static unsigned long long fnh_now(void)
{
	struct fnh_timespec t;

	clock_gettime(1, &t);	/* CLOCK_MONOTONIC */
	return (unsigned long long)t.sec * 1000000000ULL + (unsigned long long)t.nsec;
}
#define FNH_MEM_HOOKS(k, T) \
	void __sanitizer_cov_load##k(T *p) { (void)p; fnh_mem += (unsigned)fnh_counting; } \
	void __sanitizer_cov_store##k(T *p) { (void)p; fnh_mem += (unsigned)fnh_counting; }
FNH_MEM_HOOKS(1, unsigned char)
FNH_MEM_HOOKS(2, unsigned short)
FNH_MEM_HOOKS(4, unsigned int)
FNH_MEM_HOOKS(8, unsigned long long)
FNH_MEM_HOOKS(16, __int128)

static unsigned long long fnh_draw(void)
{
	return fnh_at < fnh_nvals ? fnh_vals[fnh_at++] : 0;
}

/* Exactly n bytes, zeroed, freed after the call: a read past them is ASan's. */
static void *fnh_alloc(size_t n)
{
	void *p = malloc(n);

	if (n)
		memset(p, 0, n);
	if (fnh_nptrs < (int)(sizeof(fnh_ptrs) / sizeof(fnh_ptrs[0]))) {
		fnh_psize[fnh_nptrs] = n;
		fnh_ptrs[fnh_nptrs++] = p;
	}
	return p;
}

static void fnh_free_all(void)
{
	while (fnh_nptrs)
		free(fnh_ptrs[--fnh_nptrs]);
	fnh_nsnap = 0;
}

static void fnh_snap(void)
{
	size_t used = 0;

	for (fnh_nsnap = 0; fnh_nsnap < fnh_nptrs; fnh_nsnap++) {
		size_t n = fnh_psize[fnh_nsnap];

		if (n > sizeof(fnh_drawn) - used)
			break;
		__builtin_memcpy(fnh_drawn + used, fnh_ptrs[fnh_nsnap], n);
		fnh_drawn_at[fnh_nsnap] = used;
		used += n;
	}
}

/* Whether [p, p + n) lies in one copied block and equals its copy. */
static int fnh_as_drawn(const void *p, size_t n)
{
	const unsigned char *c = (const unsigned char *)p;
	int i;

	for (i = 0; i < fnh_nsnap; i++) {
		const unsigned char *b = (const unsigned char *)fnh_ptrs[i];

		if (c >= b && c + n <= b + fnh_psize[i])
			return !__builtin_memcmp(c, fnh_drawn + fnh_drawn_at[i] + (size_t)(c - b), n);
	}
	return 0;
}

static void fnh_draw_mask(struct cpumask *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < (nr_cpu_ids + 63) / 64; i++)
		m->bits[i] = fnh_draw();
}

static void fnh_flush(void)
{
	size_t done = 0;

#ifdef FNH_LIBRARY
	return;	/* fnh_one() hands the record over whole */
#endif
	if (fnh_discard)
		done = fnh_olen;

	while (done < fnh_olen) {
		long w = write(fnh_fd, fnh_out + done, fnh_olen - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	fnh_olen = 0;
}

/* The buffer is full: written out, or (fnh_one(), whose record must be
 * whole) the record marked lost and the buffer reused. */
static void fnh_full(void)
{
#ifdef FNH_LIBRARY
	fnh_lost = 1;
	fnh_olen = 0;
#else
	fnh_flush();
#endif
}

/* Every record goes through these: inlined, a constant string is a few moves. */
static inline __attribute__((always_inline)) void fnh_putn(const char *s, size_t n)
{
	if (fnh_to_tr) {
		while (n-- && fnh_trlen < sizeof(fnh_tr) - 1)
			fnh_tr[fnh_trlen++] = *s++;
		return;
	}
	if (n > sizeof(fnh_out) - fnh_olen)
		fnh_full();
	if (n > sizeof(fnh_out) - fnh_olen)
		n = sizeof(fnh_out) - fnh_olen;
	__builtin_memcpy(fnh_out + fnh_olen, s, n);
	fnh_olen += n;
}

static inline __attribute__((always_inline)) void fnh_puts(const char *s)
{
	fnh_putn(s, __builtin_strlen(s));
}

)";
}

// After harness_numbers() (harness_print.cpp).
const char* harness_prologue_masks() {
  return R"(
static void fnh_put_mask(const struct cpumask *m)
{
	unsigned int i;

	fnh_puts("[");
	for (i = 0; i < (nr_cpu_ids + 63) / 64; i++) {
		if (i)
			fnh_puts(",");
		fnh_putu(m->bits[i]);
	}
	fnh_puts("]");
}

/* An output mask: "=" if the call left it as drawn (the record's words). */
static void fnh_put_out_mask(const struct cpumask *m)
{
	if (fnh_as_drawn(m, (nr_cpu_ids + 63) / 64 * sizeof(m->bits[0])))
		fnh_puts("\"=\"");
	else
		fnh_put_mask(m);
}

/* kshim/runtime/runtime.c: nr_cpu_ids, the possible, present, online and
 * active masks (CPUs 0..nr-1), and the shim's other state zeroed (the run
 * queues, the LLC domains, cpumask_any_distribute()'s cursor): every input
 * starts from the same shim, whatever the call before it wrote there. */
void kshim_reset_runtime(unsigned nr);
)";
}

// fn --fuzz (fuzz.cpp): the side as a library, one call per fnh_one(), its
// record returned (the unit is linked with the other side's into one fuzzer).
const char* harness_library_entry() {
  return R"(
#ifdef FNH_LIBRARY
unsigned long FNH_LIBRARY(unsigned int nr, const unsigned long long *vals, unsigned long nvals,
			  const char **record)
{
	kshim_reset_runtime(nr);
	fnh_vals = vals;
	fnh_nvals = nvals;
	fnh_at = 0;
	fnh_olen = 0;
	fnh_lost = 0;
	fnh_call(0);
	*record = fnh_lost ? 0 : fnh_out;
	return fnh_lost ? 0 : fnh_olen;
}
#else
)";
}

const char* harness_main() {
  return R"(
int main(int argc, char **argv)
{
	unsigned char *buf = 0;
	size_t len = 0, cap = 0, at = 16;
	unsigned long long n, k, start = 0;
	const char *s;
	int fd;

	if (argc != 4)
		return 2;
	for (s = argv[3]; *s; s++)
		start = start * 10 + (unsigned long long)(*s - '0');
	fd = open(argv[1], 0);
	if (fd < 0)
		return 2;
	for (;;) {
		long r;

		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
		}
		r = read(fd, buf + len, cap - len);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (len < 16 || memcmp(buf, "DSFNBAT1", 8))
		return 2;
	fnh_fd = open(argv[2], 01 | 0100 | 02000, 0644);	/* O_WRONLY|O_CREAT|O_APPEND */
	if (fnh_fd < 0)
		return 2;
	memcpy(&n, buf + 8, 8);
	for (k = 0; k < n; k++) {
		unsigned long long nr, nv;

		if (at + 16 > len)
			return 2;
		memcpy(&nr, buf + at, 8);
		memcpy(&nv, buf + at + 8, 8);
		at += 16;
		if (nv > (len - at) / 8)
			return 2;
		if (k >= start) {
			kshim_reset_runtime((unsigned int)nr);
			fnh_vals = (const unsigned long long *)(buf + at);
			fnh_nvals = (size_t)nv;
			fnh_at = 0;
			alarm(FNH_HANG_SECONDS);	/* a hang is SIGALRM: a fault of this input */
#ifdef FNH_CLOCK_REPS
			{
				unsigned long long best = ~0ULL, whole = ~0ULL;
				int r;

				fnh_timing = 1;
				for (r = 0; r < FNH_CLOCK_REPS; r++) {
					fnh_at = 0;	/* the same input again */
					fnh_call(k);
					if (fnh_ns < best)
						best = fnh_ns;
				}
				fnh_timing = 0;
				/*
				 * The harness's whole work for the input, as a fuzz
				 * target's would be: values drawn into the arguments,
				 * the call, its record made (not written), freed.
				 */
				fnh_discard = 1;
				for (r = 0; r < FNH_CLOCK_REPS; r++) {
					unsigned long long t = fnh_now();

					fnh_at = 0;
					fnh_call(k);
					t = fnh_now() - t;
					if (t < whole)
						whole = t;
				}
				fnh_flush();
				fnh_discard = 0;
				fnh_puts("{\"k\":");
				fnh_putu(k);
				fnh_puts(",\"ns\":");
				fnh_putu(best);
				fnh_puts(",\"whole_ns\":");
				fnh_putu(whole);
				fnh_puts("}\n");
				fnh_flush();
			}
#else
			fnh_call(k);
#endif
			alarm(0);
		}
		at += 8 * nv;
	}
	return 0;
}
#endif
)";
}

}  // namespace diffsched::fn
