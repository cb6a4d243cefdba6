// diffsched fn: the C harness appended to one side's extracted unit
// (docs/fn.md "The harness"). It includes nothing but the shim's ABI header
// and declares the few libc calls it makes. Its argv: BATCH OUT START.
//
// Batch file (host byte order, u64 words): "DSFNBAT1", the number of
// inputs, then per input: nr_cpu_ids, the number of values, the values
// (model.h: the value stream). From input START on, each input is one call,
// and one JSON line is appended to OUT after it returns:
//
//   {"k":K,"ret":R,"out":[...],"glob":[...],"warn":W}
//
// ret: the result (absent for void; a pointer result is its identity,
// null, "&inK+OFF" or "&other", fnh_put_ptr());
// out: for each pointer or array parameter, its pointee after the call; glob:
// each covered or written global after the call; a mask is its words, a
// struct or array a JSON array; a mask the call left as drawn is "=" (below).
// warn: the WARN_ON/BUG_ON count of the call (kshim_warn, through the
// runtime's kshim_take_warning()).
//
// "=": a mask in memory the harness allocated for the call, whose words
// below nr_cpu_ids equal what was drawn into them (a copy taken before the
// call). Both sides draw the same values, so "=" on both is the same mask,
// and "=" against words is a difference, as the words would be: the record
// says exactly what printing the words says, without printing 128 of them
// per 8192-CPU mask. Not inside a dynamic array, whose elements the
// multiset and sorted levels compare as a bag.
#include <set>

#include <fmt/format.h>

#include "fn/model.h"

namespace diffsched::fn {

namespace {

constexpr const char* kPrologue = R"(
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

// After harness_numbers() (harness_print.cpp).
constexpr const char* kPrologueMasks = R"(
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

// fn --fuzz (fuzz.cpp): the side as a library, one call per fnh_one(), its
// record returned (the unit is linked with the other side's into one fuzzer).
constexpr const char* kLibraryEntry = R"(
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

constexpr const char* kMain = R"(
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

struct Emitter {
  std::string out;
  std::string types;  // the tagged element structs, first
  std::string defs;   // the callbacks, defined before fnh_call()
  std::vector<std::string> callbacks;  // "kind|type|signature", fnh_cb<i> each, counting calls
  std::set<std::string> tagged_done;
  int temps = 0;
  bool in_bag = false;  // emitting a dynamic array's elements (the levels compare them as a bag)
  bool as_drawn = false;  // a record may say "=": fnh_snap() before the call

  void tagged_struct(const ElemType& e) {
    if (!e.tagged || !tagged_done.insert(e.c_type()).second) return;
    types += fmt::format("{} {{\n\t{} key;\n\tunsigned int tag;\n}};\n\n", e.c_type(), e.key);
  }

  // The key of the element at `ptr`: the type's (elem_key_expr), or for a
  // `less` over a type the harness does not know, the whole object.
  std::string key_of(const std::string& type, const std::string& ptr) {
    ElemType e;
    if (!parse_elem_type(type, &e)) return fmt::format("(*(const {} *)({}))", type, ptr);
    tagged_struct(e);
    return elem_key_expr(e, ptr);
  }

  // The harness's callback for `node` with the callback's own signature: a
  // and b, then whatever else it takes (a swap's int size is used; the rest
  // unused). It counts its calls in fnh_cb<i>_calls.
  std::string callback(const Node& node, const CType& t) {
    const ParamSpec& s = node.spec;
    const std::string type = node.callback == "less" ? s.less : node.callback == "cmp" ? s.cmp : s.swap_type;
    const std::string key = node.callback + "|" + type + "|" + t.canonical;
    for (std::size_t i = 0; i < callbacks.size(); ++i)
      if (callbacks[i] == key) return fmt::format("fnh_cb{}", i);
    const std::string name = fmt::format("fnh_cb{}", callbacks.size());
    callbacks.push_back(key);
    const bool swap = node.callback == "swap";
    std::string params = swap ? "void *fnh_a, void *fnh_b" : "const void *fnh_a, const void *fnh_b";
    std::string size;
    for (std::size_t i = 3; i < t.inner.size(); ++i) {
      const std::string pt = c_spelling(t.inner[i], true);
      params += fmt::format(", {} fnh_x{}", pt.empty() ? "void *" : pt, i);
      if (swap && i == 3 && (t.inner[i].kind == TypeKind::kInteger)) size = fmt::format("(size_t)fnh_x{}", i);
    }
    std::string body;
    if (swap) {
      ElemType e;
      if (size.empty() && parse_elem_type(type, &e)) size = fmt::format("{}", e.size());
      body = fmt::format("\tunsigned char *x = fnh_a, *y = fnh_b, c;\n\tsize_t i;\n\n\t{}_calls++;\n"
                         "\tfor (i = 0; i < {}; i++) {{\n\t\tc = x[i];\n\t\tx[i] = y[i];\n"
                         "\t\ty[i] = c;\n\t}}\n", name, size.empty() ? "0" : size);
    } else if (node.callback == "cmp") {
      body = fmt::format("\t{}_calls++;\n\tif ({} < {})\n\t\treturn -1;\n\treturn {} > {};\n",
                         name, key_of(type, "fnh_a"), key_of(type, "fnh_b"), key_of(type, "fnh_a"),
                         key_of(type, "fnh_b"));
    } else {
      body = fmt::format("\t{}_calls++;\n\treturn {} < {};\n", name, key_of(type, "fnh_a"),
                         key_of(type, "fnh_b"));
    }
    const std::string ret = swap ? "void" : c_spelling(t.inner[0]);
    defs += fmt::format("static unsigned long {}_calls;\nstatic {} {}({})\n{{\n{}}}\n\n", name,
                        ret.empty() ? "_Bool" : ret, name, params, body);
    return name;
  }

  void line(int indent, const std::string& text) { out += std::string(indent, '\t') + text + "\n"; }
  std::string temp(const char* prefix) { return fmt::format("fnh_{}{}", prefix, temps++); }

  // Code that sets the lvalue `lv` of `node`'s type from the value stream.
  void gen(const Node& node, const std::string& lv, int indent, int depth) {
    switch (node.kind) {
      case NodeKind::kScalar:
        if (node.is_bool)
          line(indent, fmt::format("{} = fnh_draw() != 0;", lv));
        else
          line(indent, fmt::format("{} = ({})fnh_draw();", lv, node.c_type));
        return;
      case NodeKind::kMask: line(indent, fmt::format("fnh_draw_mask(&({}));", lv)); return;
      case NodeKind::kNull:
        line(indent, fmt::format("{} = {};", lv, node.spec.fn.empty() ? "0" : node.spec.fn));
        return;
      case NodeKind::kLess:
        line(indent, fmt::format("{} = (__typeof__({})){};", lv, lv, callback(node, *node.fn_type)));
        return;
      case NodeKind::kStruct:
        if (ElemType e; node.c_type.rfind("struct fnh_tagged_", 0) == 0 && node.kids.size() == 2 &&
                        parse_elem_type(node.kids[0].c_type + " tagged", &e))
          tagged_struct(e);
        for (const Node& k : node.kids) gen(k, fmt::format("({}).{}", lv, k.field), indent, depth);
        return;
      case NodeKind::kPointer: {
        const std::string p = temp("p");
        const std::string& t = node.kids[0].c_type;
        const bool small = node.kids[0].opaque && !node.kids[0].zeroed;  // zeroed: sizeof(t)
        const std::string size = small ? std::to_string(kOpaqueBytes) : "sizeof(" + t + ")";
        line(indent, fmt::format("{{ {} *{} = fnh_alloc({});", t, p, size));
        gen(node.kids[0], "(*" + p + ")", indent + 1, depth);
        line(indent + 1, fmt::format("{} = {}; }}", lv, p));
        return;
      }
      case NodeKind::kArray: {
        const std::string i = fmt::format("fnh_i{}", depth);
        std::string at = lv;
        if (node.by_pointer) {  // exactly count elements (and a zeroed terminator), allocated for the call
          at = temp("p");
          const std::string& t = node.kids[0].c_type;
          line(indent, fmt::format("{{ {} *{} = fnh_alloc({} * sizeof({}));", t, at,
                                   node.count + (node.spec.terminated ? 1 : 0), t));
        }
        line(indent, fmt::format("{{ int {}; for ({} = 0; {} < {}; {}++) {{", i, i, i, node.count, i));
        gen(node.kids[0], fmt::format("({})[{}]", at, i), indent + 1, depth + 1);
        line(indent, "} }");
        if (!node.spec.ring.empty())  // `ring FIELD N`: each to the next, the last to the first
          line(indent, fmt::format("{{ int {0}; for ({0} = 0; {0} < {1}; {0}++) ({2})[{0}].{3} = &({2})[({0} + 1) % {1}]; }}",
                                   i, node.count, at, node.spec.ring));
        if (node.by_pointer) line(indent, fmt::format("{} = {}; }}", lv, at));
        return;
      }
    }
  }

  // Code that prints the rvalue `e` of `node`'s type as JSON.
  void emit(const Node& node, const std::string& e, int indent, int depth) {
    switch (node.kind) {
      case NodeKind::kScalar:
        if (node.is_signed)
          line(indent, fmt::format("fnh_puti((long long)({}));", e));
        else
          line(indent, fmt::format("fnh_putu((unsigned long long)({}));", e));
        return;
      case NodeKind::kMask:  // "=" as drawn, but not in a bag (the header comment)
        line(indent, fmt::format("fnh_put{}_mask(&({}));", in_bag ? "" : "_out", e));
        as_drawn |= !in_bag;
        return;
      case NodeKind::kNull:  // a data pointer (NULL, a ring's link): its identity, compared
        if (!node.fn_type) {
          line(indent, fmt::format("fnh_put_ptr((const void *)({}));", e));
          return;
        }
        [[fallthrough]];
      case NodeKind::kLess: line(indent, "fnh_puts(\"null\");"); return;  // not compared
      case NodeKind::kStruct: {
        line(indent, "fnh_puts(\"[\");");
        bool first = true;
        for (const Node& k : node.kids) {
          if (!first) line(indent, "fnh_puts(\",\");");
          first = false;
          emit(k, fmt::format("({}).{}", e, k.field), indent, depth);
        }
        line(indent, "fnh_puts(\"]\");");
        return;
      }
      case NodeKind::kPointer:
        line(indent, fmt::format("if (!({})) fnh_puts(\"null\"); else {{", e));
        emit(node.kids[0], "(*(" + e + "))", indent + 1, depth);
        line(indent, "}");
        return;
      case NodeKind::kArray:
        if (node.by_pointer) line(indent, fmt::format("if (!({})) fnh_puts(\"null\"); else", e));
        // A pointer's elements by their own type (a `void *` the spec typed).
        emit_elements(node, node.by_pointer ? fmt::format("(({} *)({}))", node.kids[0].c_type, e) : e,
                      std::to_string(node.count), indent, depth);
        return;
    }
  }

  void emit_elements(const Node& node, const std::string& e, const std::string& count, int indent,
                     int depth) {
    const std::string i = fmt::format("fnh_i{}", depth);
    line(indent, fmt::format("{{ unsigned long long {}; fnh_puts(\"[\");", i));
    line(indent, fmt::format("for ({} = 0; {} < (unsigned long long)({}); {}++) {{", i, i, count, i));
    line(indent + 1, fmt::format("if ({}) fnh_puts(\",\");", i));
    emit(node.kids[0], fmt::format("({})[{}]", e, i), indent + 1, depth + 1);
    line(indent, "} fnh_puts(\"]\"); }");
  }
};

// A type to declare a variable of: a function pointer's spelling
// (`int (*)(const void *, const void *)`) through GNU C's __typeof__.
std::string declarable(const std::string& c_type) {
  return c_type.find("(*)") == std::string::npos ? c_type : "__typeof__(" + c_type + ")";
}

bool observed_param(const Slot& s) {
  return !s.is_length && (s.node.kind == NodeKind::kPointer || s.node.kind == NodeKind::kArray);
}

// fnh_call(k): one input's call (of FNH_TARGET, target_of()) and its record.
std::string call_function(const Layout& layout) {
  Emitter em;
  em.line(0, "static void fnh_call(unsigned long long k)\n{");
  for (std::size_t i = 0; i < layout.params.size(); ++i)
    em.line(1, fmt::format("{} fnh_arg{};", declarable(layout.params[i].node.c_type), i));
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    // An array's storage is of its element type, top-level const dropped.
    const std::string keep = s.node.kind == NodeKind::kArray && s.node.count < 0
                                 ? s.node.kids[0].c_type + " *"
                             : s.node.kind == NodeKind::kPointer ? s.node.c_type
                                                                 : std::string("void *");
    em.line(1, fmt::format("{} fnh_keep{} = 0; unsigned long long fnh_len{} = 0;", keep, i, i));
  }
  em.line(1, "struct kcheck_warning fnh_w;");
  em.line(1, "unsigned int fnh_nwarn = 0;");
  for (const Slot& g : layout.globals)
    em.gen(g.node, g.is_stub ? "fnh_sv_" + g.name.substr(0, g.name.size() - 2) : g.lvalue(), 1, 0);
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    const std::string arg = fmt::format("fnh_arg{}", i);
    if (s.is_length) continue;
    if (s.node.kind == NodeKind::kArray && s.node.count < 0) {
      const Node& e = s.node.kids[0];
      const std::size_t len = i + 1;
      em.line(1, fmt::format("fnh_len{} = fnh_draw();", i));
      em.line(1, fmt::format("fnh_keep{} = fnh_alloc(fnh_len{} * sizeof({}));", i, i, e.c_type));
      em.line(1, fmt::format("{{ unsigned long long fnh_j; for (fnh_j = 0; fnh_j < fnh_len{}; fnh_j++) {{", i));
      em.gen(e, fmt::format("fnh_keep{}[fnh_j]", i), 2, 0);
      em.line(1, "} }");
      em.line(1, fmt::format("{} = fnh_keep{};", arg, i));
      em.line(1, fmt::format("fnh_arg{} = ({})fnh_len{};", len, layout.params[len].node.c_type, i));
    } else {
      em.gen(s.node, arg, 1, 0);
      if (s.node.kind == NodeKind::kPointer) em.line(1, fmt::format("fnh_keep{} = {};", i, arg));
    }
  }
  em.line(1, "/*fnh_snap*/");  // made a call if a record says "=" (below)
  em.line(1, "kshim_take_warning(&fnh_w);");
  if (!layout.stubs.empty()) em.line(1, "fnh_stubs_reset();");
  for (std::size_t i = 0; i < em.callbacks.size(); ++i) em.line(1, fmt::format("fnh_cb{}_calls = 0;", i));
  std::string args;
  for (std::size_t i = 0; i < layout.params.size(); ++i)
    args += fmt::format("{}fnh_arg{}", i ? ", " : "", i);
  // Only the call's own loads and stores count (fnh_counting); only the
  // call is timed (the clock build), and then nothing is recorded.
  const std::string call =
      fmt::format("(fnh_mem = 0, fnh_counting = 1, fnh_t0 = fnh_timing ? fnh_now() : 0, FNH_TARGET({}))",
                  args);
  const std::string after =
      "fnh_ns = fnh_timing ? fnh_now() - fnh_t0 : 0; fnh_counting = 0; "
      "__asm__ volatile(\"\" ::: \"memory\"); if (fnh_timing) { fnh_free_all(); return; }";
  if (layout.result_pointer) {
    em.line(1, fmt::format("{{ const void *fnh_p = (const void *){}; {}", call, after));
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
    em.line(1, "fnh_puts(\",\\\"ret\\\":\"); fnh_put_ptr(fnh_p); }");
  } else if (!layout.result_void) {
    // The result kept (its address escapes), so the call is not dropped.
    em.line(1, fmt::format("{{ {} fnh_ret = {}; __asm__ volatile(\"\" : : \"r\"(&fnh_ret) : \"memory\"); {}",
                           layout.result.c_type, call, after));
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
    em.line(1, "fnh_puts(\",\\\"ret\\\":\");");
    em.emit(layout.result, "fnh_ret", 1, 0);
    em.line(1, "}");
  } else {
    em.line(1, call + "; " + after);
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
  }
  em.line(1, "if (kshim_take_warning(&fnh_w)) fnh_nwarn = fnh_w.count;");
  em.line(1, "fnh_puts(\",\\\"out\\\":[\");");
  bool first = true;
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    if (!observed_param(s)) continue;
    if (!first) em.line(1, "fnh_puts(\",\");");
    first = false;
    if (s.node.kind == NodeKind::kArray && s.node.count < 0) {
      em.in_bag = true;
      em.emit_elements(s.node, fmt::format("fnh_keep{}", i), fmt::format("fnh_len{}", i), 1, 0);
      em.in_bag = false;
    } else
      em.emit(s.node, fmt::format("fnh_keep{}", i), 1, 0);
  }
  if (!em.callbacks.empty()) {  // the cost: callback calls of this call, compared only by --max-cost-ratio
    std::string sum;
    for (std::size_t i = 0; i < em.callbacks.size(); ++i)
      sum += fmt::format("{}fnh_cb{}_calls", i ? " + " : "", i);
    em.line(1, fmt::format("fnh_puts(\"],\\\"cost\\\":\"); fnh_putu({}); fnh_puts(\",\\\"mem\\\":\");", sum));
  } else {
    em.line(1, "fnh_puts(\"],\\\"mem\\\":\");");
  }
  em.line(1, "fnh_putu(fnh_mem);");
  if (!layout.stubs.empty()) {  // the stubs' calls (stubs.cpp): the row `calls`
    em.line(1, "fnh_tr[fnh_trlen] = 0; fnh_puts(\",\\\"calls\\\":[\"); fnh_puts(fnh_tr);");
    em.line(1, "if (fnh_ncalls > FNH_MAX_TRACE) { fnh_puts(\",[\\\"...\\\",\"); "
               "fnh_putu(fnh_ncalls - FNH_MAX_TRACE); fnh_puts(\"]\"); }");
    em.line(1, "fnh_puts(\"]\");");
  }
  em.line(1, "fnh_puts(\",\\\"glob\\\":[\");");
  first = true;
  for (const auto* list : {&layout.globals, &layout.written})
    for (const Slot& g : *list) {
      if (g.is_stub) continue;  // inputs, not outputs
      if (!first) em.line(1, "fnh_puts(\",\");");
      first = false;
      em.emit(g.node, g.lvalue(), 1, 0);
    }
  em.line(1, "fnh_puts(\"],\\\"warn\\\":\"); fnh_putu(fnh_nwarn); fnh_puts(\"}\\n\");");
  em.line(1, "fnh_flush();");
  em.line(1, "fnh_free_all();");
  em.line(0, "}");
  const std::string marker = "/*fnh_snap*/";
  em.out.replace(em.out.find(marker), marker.size(), em.as_drawn ? "fnh_snap();" : "");
  return em.types + em.defs + em.out;
}

// The function as the harness calls it. The counted build calls it through
// a volatile pointer: inlined into the harness (not instrumented), its loads
// and stores would not count (a small function counted 0). The clock build
// calls it directly, as a caller in the kernel would.
std::string target_of(const std::string& function) {
  return fmt::format(
      "#ifdef FNH_CLOCK_REPS\n#define FNH_TARGET {0}\n#else\n"
      "static __typeof__({0}) *volatile fnh_target = {0};\n#define FNH_TARGET fnh_target\n#endif\n",
      function);
}

}  // namespace

std::string harness_source(const Layout& layout, const std::string& function) {
  // The harness is not instrumented for memory operations: only the unit is.
  return fmt::format("#define FNH_HANG_SECONDS {}\n", kHangSeconds) +
         "#pragma clang attribute push (__attribute__((no_sanitize(\"coverage\"))), apply_to = function)\n" +
         kPrologue + harness_numbers() + kPrologueMasks + stub_definitions(layout) + "\n" + target_of(function) +
         call_function(layout) + kLibraryEntry + kMain +
         "#pragma clang attribute pop\n";
}

}  // namespace diffsched::fn
