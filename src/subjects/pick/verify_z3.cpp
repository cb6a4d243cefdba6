#include "subjects/pick/verify_z3.h"

#include <random>

#include <fmt/format.h>
#include <z3++.h>

#include "kernel/cpumask.h"
#include "verify/progress.h"

namespace diffsched::pick::verify {

std::string_view lemma_status_name(Lemma::Status status) {
  switch (status) {
    case Lemma::Status::kProved: return "proved";
    case Lemma::Status::kRefuted: return "REFUTED";
    case Lemma::Status::kUnknown: return "unknown";
  }
  return "?";
}

namespace {

// A word's outcome as one 64-bit value: a CPU b < n ("found b"), n ("end:
// none"), or kContinue; a round of the reference loop may also answer
// kNextRound | s: "call find_next_and_bit() again from offset s of this word".
constexpr std::uint64_t kContinue = ~0ULL;        // go on to word w+1
constexpr std::uint64_t kNextRound = 1ULL << 62;  // | offset s in 1..63

// The transcription of kernel/pick.h, one word at a time. Inputs: words d, c, a
// (dst_grpmask, cpus, p->cpus_ptr at word w), n = nr_cpu_ids, the word index w.
class WordModel {
 public:
  explicit WordModel(z3::context& ctx) : ctx_(ctx) {}

  z3::expr bv(std::uint64_t v) const { return ctx_.bv_val(v, 64); }

  // __ffs / countr_zero: the index of the lowest set bit; 64 for 0.
  z3::expr ctz(const z3::expr& x) const {
    z3::expr r = bv(64);
    for (int i = 63; i >= 0; --i)
      r = z3::ite(x.extract(static_cast<unsigned>(i), static_cast<unsigned>(i)) ==
                      ctx_.bv_val(1, 1),
                  bv(static_cast<std::uint64_t>(i)), r);
    return r;
  }

  // The scan leaves word w: the search functions' `idx * BITS_PER_LONG < size`.
  z3::expr next_word(const z3::expr& n, const z3::expr& base) const {
    return z3::ite(z3::uge(base + bv(64), n), n, bv(kContinue));
  }

  // The CPUs of word w below n, as a word mask.
  z3::expr valid(const z3::expr& n, const z3::expr& w) const {
    const z3::expr rem = n - w * bv(64);
    return z3::ite(z3::uge(rem, bv(64)), bv(~0ULL), z3::shl(bv(1), rem) - bv(1));
  }

  // The spec: the first CPU below n of d & c & a in word w.
  z3::expr spec(const z3::expr& d, const z3::expr& c, const z3::expr& a, const z3::expr& n,
                const z3::expr& w) const {
    const z3::expr v = d & c & a & valid(n, w);
    return z3::ite(v != bv(0), w * bv(64) + ctz(v), next_word(n, w * bv(64)));
  }

  // The reference loop's invariant at offset s of word w: no CPU of word w
  // below 64w + s is in all three masks (and below n).
  z3::expr invariant(const z3::expr& d, const z3::expr& c, const z3::expr& a,
                     const z3::expr& n, const z3::expr& w, const z3::expr& s) const {
    return (d & c & a & valid(n, w) & (z3::shl(bv(1), s) - bv(1))) == bv(0);
  }

  // One round of pick_reference (v6.13) in word w, from offset s:
  // for_each_cpu_and(cpu, dst, cpus) calls find_next_and_bit(dst, cpus, n,
  // start) with start = 64w + s (s = 0 on entering the word, cpu + 1 after a
  // miss). FIND_NEXT_BIT: tmp = d & c & (~0 << s); if tmp is 0 it goes on to
  // the next word (or returns n); else returns the bit if below n, else n.
  // The body returns cpu if cpumask_test_cpu(cpu, allowed); else the next
  // start cpu + 1 is n or beyond (find_next returns n), or the next word's
  // first bit (word w+1 is entered at offset 0), or offset bit + 1 here.
  z3::expr reference_round(const z3::expr& d, const z3::expr& c, const z3::expr& a,
                           const z3::expr& n, const z3::expr& w, const z3::expr& s) const {
    const z3::expr base = w * bv(64);
    const z3::expr tmp = d & c & z3::shl(bv(~0ULL), s);
    const z3::expr bit = ctz(tmp);
    const z3::expr cpu = base + bit;
    const z3::expr allowed = (z3::lshr(a, bit) & bv(1)) == bv(1);
    return z3::ite(tmp == bv(0), next_word(n, base),
           z3::ite(z3::uge(cpu, n), n,
           z3::ite(allowed, cpu,
           z3::ite(z3::uge(cpu + bv(1), n), n,
           z3::ite(bit == bv(63), bv(kContinue), bv(kNextRound) | (bit + bv(1)))))));
  }

  // find_first_bit's handling of word w holding `val`.
  z3::expr first_bit(const z3::expr& val, const z3::expr& n, const z3::expr& base) const {
    const z3::expr cpu = base + ctz(val);
    return z3::ite(val != bv(0), z3::ite(z3::ult(cpu, n), cpu, n), next_word(n, base));
  }

  // pick_optimized (the RFC): cpumask_and() twice into dst_mask, then
  // cpumask_first(). __bitmap_and writes words k < n/64 whole and the partial
  // last word masked with BITMAP_LAST_WORD_MASK(n) = ~0 >> (-n & 63).
  z3::expr optimized(const z3::expr& d, const z3::expr& c, const z3::expr& a,
                     const z3::expr& n, const z3::expr& w) const {
    const z3::expr lim = z3::udiv(n, bv(64));
    const z3::expr last_word_mask = z3::lshr(bv(~0ULL), (bv(0) - n) & bv(63));
    const z3::expr whole = z3::ult(w, lim);
    const z3::expr dst1 = z3::ite(whole, d & c, d & c & last_word_mask);
    const z3::expr dst2 = z3::ite(whole, dst1 & a, dst1 & a & last_word_mask);
    return first_bit(dst2, n, w * bv(64));
  }

  // pick_fused (v6.15): find_first_and_and_bit() ANDs the three words.
  z3::expr fused(const z3::expr& d, const z3::expr& c, const z3::expr& a, const z3::expr& n,
                 const z3::expr& w) const {
    return first_bit(d & c & a, n, w * bv(64));
  }

 private:
  z3::context& ctx_;
};

struct Vars {
  z3::expr d, c, a, n, w, s;
  explicit Vars(z3::context& ctx)
      : d(ctx.bv_const("d", 64)),
        c(ctx.bv_const("c", 64)),
        a(ctx.bv_const("a", 64)),
        n(ctx.bv_const("n", 64)),
        w(ctx.bv_const("w", 64)),
        s(ctx.bv_const("s", 64)) {}
};

// Asks Z3 for values with `hyp` and not `claim`: unsat proves the claim.
Lemma prove(z3::context& ctx, const Vars& x, std::string name, std::string statement,
            const z3::expr& hyp, const z3::expr& claim, unsigned timeout_ms) {
  Stopwatch clock;
  Lemma l;
  l.name = std::move(name);
  l.statement = std::move(statement);
  try {
    z3::solver solver(ctx, "QF_BV");
    z3::params p(ctx);
    p.set("timeout", timeout_ms);
    solver.set(p);
    solver.add(hyp);
    solver.add(!claim);
    switch (solver.check()) {
      case z3::unsat:
        l.status = Lemma::Status::kProved;
        break;
      case z3::sat: {
        l.status = Lemma::Status::kRefuted;
        z3::model m = solver.get_model();
        auto val = [&](const z3::expr& e) { return m.eval(e, true).get_numeral_uint64(); };
        l.detail = fmt::format("counterexample n={} w={} s={} d={:#x} c={:#x} a={:#x}",
                               val(x.n), val(x.w), val(x.s), val(x.d), val(x.c), val(x.a));
        break;
      }
      case z3::unknown:
        l.status = Lemma::Status::kUnknown;
        l.detail = solver.reason_unknown();
        break;
    }
  } catch (const z3::exception& e) {
    l.status = Lemma::Status::kUnknown;
    l.detail = e.msg();
  }
  l.seconds = clock.seconds();
  return l;
}

// The loop claim for one round R of the reference from offset s (with the
// invariant at s): R is the word's spec outcome, or a next round from an
// offset s' > s (so at most 64 rounds) still in the word, below n, with the
// invariant at s'. With the invariant at s = 0 (trivially true), the loop
// returns the spec outcome for the word.
z3::expr round_claim(const WordModel& m, const Vars& x, const z3::expr& n, const z3::expr& w,
                     const z3::expr& round, const z3::expr& spec) {
  const z3::expr next = round & m.bv(127);
  const z3::expr is_next = (round & ~m.bv(127)) == m.bv(kNextRound);
  return round == spec || (is_next && z3::ugt(next, x.s) && z3::ule(next, m.bv(63)) &&
                           z3::ult(w * m.bv(64) + next, n) &&
                           m.invariant(x.d, x.c, x.a, n, w, next));
}

using Step = z3::expr (WordModel::*)(const z3::expr&, const z3::expr&, const z3::expr&,
                                     const z3::expr&, const z3::expr&) const;

}  // namespace

std::vector<Lemma> prove_pick_lemmas(unsigned timeout_ms) {
  z3::context ctx;
  const WordModel m(ctx);
  const Vars x(ctx);
  std::vector<Lemma> out;
  const z3::expr zero = m.bv(0);
  const z3::expr dca = x.d & x.c & x.a;

  // One full word: nr_cpu_ids 64, word 0.
  {
    const z3::expr& n = x.n;
    const z3::expr& w = x.w;
    out.push_back(prove(
        ctx, x, "word-first-match",
        "for all 64-bit d, c, a: the v6.13 loop (for_each_cpu_and, cpumask_test_cpu, break) "
        "over one word returns the first set bit of d & c & a, or 64 if there is none "
        "(loop invariant: each round returns that, or resumes at a later offset with no "
        "common bit below it)",
        x.n == m.bv(64) && x.w == zero,
        m.invariant(x.d, x.c, x.a, n, w, zero) &&
            z3::implies(z3::ule(x.s, m.bv(63)) && m.invariant(x.d, x.c, x.a, n, w, x.s),
                        round_claim(m, x, n, w, m.reference_round(x.d, x.c, x.a, n, w, x.s),
                                    z3::ite(dca == zero, m.bv(64), m.ctz(dca)))),
        timeout_ms));
  }

  const z3::expr base = x.w * m.bv(64);
  const z3::expr scan_hyp = z3::uge(x.n, m.bv(1)) && z3::ule(x.n, m.bv(kernel::NR_CPUS)) &&
                            z3::ult(x.w, m.bv(kernel::NR_CPUS / 64)) && z3::ult(base, x.n);
  const z3::expr spec = m.spec(x.d, x.c, x.a, x.n, x.w);
  const std::string for_all = fmt::format(
      "for all nr_cpu_ids n in 1..{}, words w with 64w < n and 64-bit d, c, a (bits at or "
      "beyond n too)",
      kernel::NR_CPUS);

  {
    const z3::expr v = dca & m.valid(x.n, x.w);
    const z3::expr off = spec - base;
    const z3::expr found = spec != m.bv(kContinue) && spec != x.n;
    out.push_back(prove(
        ctx, x, "spec-step",
        for_all + ": the spec's outcome on word w is CPU b < n in all three masks with no "
                  "common CPU below it in the word, or n when word w is the last and has no "
                  "common CPU below n, or word w+1 when it is not the last and has none",
        scan_hyp,
        z3::implies(spec == m.bv(kContinue), v == zero && z3::ult(base + m.bv(64), x.n)) &&
            z3::implies(spec == x.n, v == zero && z3::uge(base + m.bv(64), x.n)) &&
            z3::implies(found, z3::ult(spec, x.n) && z3::uge(spec, base) &&
                                   z3::ult(off, m.bv(64)) &&
                                   (z3::lshr(dca, off) & m.bv(1)) == m.bv(1) &&
                                   (dca & (z3::shl(m.bv(1), off) - m.bv(1))) == zero),
        timeout_ms));
  }
  out.push_back(prove(
      ctx, x, "scan-step/reference",
      for_all + ": each round of the reference loop in word w, from an offset s below 64 and "
                "n with no common CPU below it, gives the spec's outcome or resumes at a "
                "later offset below 64 and n with none below it",
      scan_hyp && z3::ule(x.s, m.bv(63)) && z3::ult(base + x.s, x.n) &&
          m.invariant(x.d, x.c, x.a, x.n, x.w, x.s),
      round_claim(m, x, x.n, x.w, m.reference_round(x.d, x.c, x.a, x.n, x.w, x.s), spec),
      timeout_ms));
  const std::pair<const char*, Step> variants[] = {
      {"optimized", &WordModel::optimized},
      {"fused", &WordModel::fused},
  };
  for (const auto& [name, step] : variants)
    out.push_back(prove(ctx, x, fmt::format("scan-step/{}", name),
                        fmt::format("{}: {} on word w gives the spec's outcome", for_all, name),
                        scan_hyp, (m.*step)(x.d, x.c, x.a, x.n, x.w) == spec, timeout_ms));
  return out;
}

Transcription transcription_check(std::span<const pick::PickSide> sides, unsigned samples,
                                  std::uint64_t seed) {
  Transcription t;
  z3::context ctx;
  const WordModel m(ctx);
  const Vars x(ctx);
  struct Variant {
    std::string_view name;
    pick::PickFn fn = nullptr;
    z3::expr step;  // reference: one round, from offset x.s
  };
  std::vector<Variant> vs;
  for (std::string_view name : {"reference", "optimized", "fused"}) {
    pick::PickFn fn = nullptr;
    for (const auto& side : sides)
      if (side.name == name) fn = side.fn;
    if (!fn) {
      t.mismatch = fmt::format("no side named {}", name);
      return t;
    }
    vs.push_back({name, fn,
                  name == "reference" ? m.reference_round(x.d, x.c, x.a, x.n, x.w, x.s)
                  : name == "optimized" ? m.optimized(x.d, x.c, x.a, x.n, x.w)
                                        : m.fused(x.d, x.c, x.a, x.n, x.w)});
  }

  std::mt19937_64 rng(seed);
  for (unsigned sample = 0; sample < samples; ++sample) {
    // nr_cpu_ids over 1..5 words; masks dense or sparse, so that the first
    // common CPU falls anywhere, or nowhere.
    const auto n = static_cast<unsigned>(1 + rng() % 320);
    kernel::NrCpuIdsScope scope(n);
    kernel::Cpumask masks[3] = {};
    for (auto& mask : masks) {
      const unsigned density = 1u << (rng() % 7);  // a bit in 1, 2, .., 64
      for (unsigned cpu = 0; cpu < n; ++cpu)
        if (rng() % density == 0) kernel::cpumask_set_cpu(cpu, &mask);
    }
    for (auto& v : vs) {
      const unsigned code = v.fn(&masks[0], &masks[1], &masks[2]);
      std::uint64_t model = kContinue;
      for (unsigned w = 0; model == kContinue; ++w) {
        std::uint64_t s = 0;
        do {  // rounds of the reference loop; one for the others
          z3::expr_vector from(ctx), to(ctx);
          for (const z3::expr& e : {x.d, x.c, x.a, x.n, x.w, x.s}) from.push_back(e);
          for (const auto& mask : masks) to.push_back(m.bv(mask.bits[w]));
          for (std::uint64_t value : {std::uint64_t{n}, std::uint64_t{w}, s})
            to.push_back(m.bv(value));
          const z3::expr r = v.step.substitute(from, to).simplify();
          if (!r.is_numeral()) {
            t.mismatch = fmt::format("{}: the word model did not evaluate to a value", v.name);
            return t;
          }
          model = r.get_numeral_uint64();
          s = model & 127;
        } while ((model & ~std::uint64_t{127}) == kNextRound);
      }
      if (model != code) {
        t.mismatch = fmt::format(
            "{} on nr_cpu_ids {} dst={} cpus={} allowed={}: code {}, word model {}", v.name, n,
            kernel::cpumask_to_cpulist(masks[0]), kernel::cpumask_to_cpulist(masks[1]),
            kernel::cpumask_to_cpulist(masks[2]), code, model);
        return t;
      }
    }
    ++t.samples;
  }
  return t;
}

}  // namespace diffsched::pick::verify
