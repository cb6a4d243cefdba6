// pick's input space for `diffsched perf`'s search (perf/subject_impl.h),
// and the perf mode instantiated for it.
#include "perf/subject_impl.h"
#include "subjects/pick/perf.h"

namespace diffsched::perf {

namespace detail {

template <>
struct Space<pick::Subject> {
  unsigned cpus;

  unsigned words() const { return (cpus + 63) / 64; }
  void trim(Cpumask& m) const {
    for (unsigned b = cpus; b < words() * 64; ++b) m.bits[b / 64] &= ~(1UL << (b % 64));
  }
  Cpumask random_mask(Rng& rng) const {
    Cpumask m{};
    for (unsigned k = 0; k < words(); ++k) m.bits[k] = rng();
    trim(m);
    return m;
  }
  pick::Op random_op(Rng& rng) const {
    return pick::Pick{random_mask(rng), random_mask(rng), random_mask(rng)};
  }
  void set_range(Cpumask& m, unsigned a, unsigned b, bool on) const {
    if (a > b) std::swap(a, b);
    for (unsigned c = a; c <= b && c < cpus; ++c) {
      if (on) m.bits[c / 64] |= 1UL << (c % 64);
      else m.bits[c / 64] &= ~(1UL << (c % 64));
    }
  }
  void mutate_op(Rng& rng, std::vector<pick::Op>& ops, std::size_t i) const {
    pick::Pick& op = std::get<pick::Pick>(ops[i]);
    Cpumask* masks[3] = {&op.dst, &op.cpus, &op.allowed};
    Cpumask& m = *masks[below(rng, 3)];
    const unsigned cpu = static_cast<unsigned>(below(rng, cpus));
    switch (below(rng, 9)) {
      case 0: m.bits[cpu / 64] ^= 1UL << (cpu % 64); break;
      case 1: set_range(m, cpu, static_cast<unsigned>(below(rng, cpus)), true); break;
      case 2: set_range(m, cpu, static_cast<unsigned>(below(rng, cpus)), false); break;
      case 3: set_range(m, 0, cpus - 1, chance(rng, 50)); break;
      case 4: m.bits[below(rng, words())] = chance(rng, 50) ? rng() : 0; break;
      case 5: m = *masks[below(rng, 3)]; break;
      case 6: set_range(m, 0, cpu, false); break;         // nothing below cpu
      case 7: set_range(m, cpu, cpus - 1, false); break;  // nothing from cpu on
      default: m.bits[cpu / 64] |= 1UL << (cpu % 64); break;
    }
    trim(m);
  }
  // Simpler masks to try in place of m, simplest first (the minimiser's
  // second pass): all CPUs, none, the lowest or highest CPU alone, the span
  // from the lowest to the highest.
  std::vector<Cpumask> simpler(const Cpumask& m) const {
    unsigned lo = cpus, hi = 0;
    for (unsigned c = 0; c < cpus; ++c)
      if (m.bits[c / 64] >> (c % 64) & 1UL) {
        lo = std::min(lo, c);
        hi = c;
      }
    std::vector<Cpumask> out;
    Cpumask x{};
    set_range(x, 0, cpus - 1, true);
    out.push_back(x);
    out.push_back(Cpumask{});
    if (lo < cpus) {
      x = Cpumask{};
      set_range(x, lo, lo, true);
      out.push_back(x);
      x = Cpumask{};
      set_range(x, hi, hi, true);
      out.push_back(x);
      x = Cpumask{};
      set_range(x, lo, hi, true);
      out.push_back(x);
    }
    return out;
  }
  // Calls try_op(candidate op) for simpler versions of op; stops at the first
  // it accepts, per mask.
  template <class Try>
  void simplify(pick::Op& any, Try&& try_op) const {
    for (int k = 0; k < 3; ++k) {
      pick::Pick& op = std::get<pick::Pick>(any);
      Cpumask* masks[3] = {&op.dst, &op.cpus, &op.allowed};
      for (const Cpumask& c : simpler(*masks[k])) {
        if (std::equal(std::begin(c.bits), std::end(c.bits), std::begin(masks[k]->bits)))
          break;  // already this simple
        pick::Op candidate = any;
        Cpumask* cm[3] = {&std::get<pick::Pick>(candidate).dst,
                          &std::get<pick::Pick>(candidate).cpus,
                          &std::get<pick::Pick>(candidate).allowed};
        *cm[k] = c;
        if (try_op(candidate)) {
          any = candidate;
          break;
        }
      }
    }
  }
  // Per-op features: log2 classes of the reference's and the side's cost.
  static void features(const Evaluation& e, const SearchOptions& o,
                       std::span<const pick::Op> ops, std::vector<std::uint32_t>* out) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const u64 ref = metric_value(o.metric, e.op_cost(i, 0));
      const u64 opt = metric_value(o.metric, e.op_cost(i, o.side));
      out->push_back(static_cast<std::uint32_t>(log_class(ref) * 128 + log_class(opt)));
    }
  }
};

}  // namespace detail

}  // namespace diffsched::perf

DIFFSCHED_PERF_SUBJECT(diffsched::pick::Subject);
