// cpudl's input space for `diffsched perf`'s search (perf/subject_impl.h),
// and the perf mode instantiated for it.
#include "perf/subject_impl.h"
#include "subjects/cpudl/perf.h"

namespace diffsched::perf {

namespace detail {

template <>
struct Space<cpudl::Subject> {
  static constexpr u64 kDeadlines = u64{1} << 32;  // the seed's workload: below 2^32
  unsigned cpus;

  cpudl::Op random_op(Rng& rng) const {
    const Cpu cpu = static_cast<int>(below(rng, cpus));
    if (chance(rng, 75)) return cpudl::Set{cpu, Deadline(below(rng, kDeadlines))};
    return cpudl::Clear{cpu};
  }

  static u64 clamp_dl(long double v) {
    if (v < 0) return 0;
    if (v >= static_cast<long double>(kDeadlines)) return kDeadlines - 1;
    return static_cast<u64>(v);
  }

  // A field-level change of ops[i], drawing values from the rest of the input.
  void mutate_op(Rng& rng, std::vector<cpudl::Op>& ops, std::size_t i) const {
    cpudl::Op& op = ops[i];
    const cpudl::Op& other = ops[below(rng, ops.size())];
    const int other_cpu = std::visit([](const auto& o) -> int {
      if constexpr (requires { o.cpu; }) return o.cpu; else return 0;
    }, other);
    const u64 other_dl = std::holds_alternative<cpudl::Set>(other)
                             ? static_cast<u64>(std::get<cpudl::Set>(other).dl)
                             : below(rng, kDeadlines);
    switch (below(rng, 6)) {
      case 0:  // another CPU
        std::visit([&](auto& o) {
          if constexpr (requires { o.cpu; }) o.cpu = static_cast<int>(below(rng, cpus));
        }, op);
        break;
      case 1:  // the CPU of another op
        std::visit([&](auto& o) {
          if constexpr (requires { o.cpu; }) o.cpu = other_cpu;
        }, op);
        break;
      case 2:  // set <-> clear
        if (auto* s = std::get_if<cpudl::Set>(&op)) op = cpudl::Clear{s->cpu};
        else if (auto* c = std::get_if<cpudl::Clear>(&op))
          op = cpudl::Set{c->cpu, Deadline(other_dl)};
        break;
      case 3:  // deadline: a small step
        if (auto* s = std::get_if<cpudl::Set>(&op)) {
          const long double step = static_cast<long double>(std::pow(2.0, below(rng, 33)));
          s->dl = clamp_dl(static_cast<long double>(s->dl) + (chance(rng, 50) ? step : -step));
        }
        break;
      case 4:  // deadline: another op's, or next to it
        if (auto* s = std::get_if<cpudl::Set>(&op))
          s->dl = clamp_dl(static_cast<long double>(other_dl) +
                           static_cast<long double>(below(rng, 5)) - 2);
        break;
      default:  // deadline: anything
        if (auto* s = std::get_if<cpudl::Set>(&op)) s->dl = below(rng, kDeadlines);
        break;
    }
  }

  // Deadlines stay as found (no simpler form of a heap's keys is obviously
  // more readable); the ops are what the minimiser drops.
  template <class Try>
  void simplify(cpudl::Op&, Try&&) const {}

  // Per-op features: op kind x signed log2 class of optimized - reference.
  static void features(const Evaluation& e, const SearchOptions& o,
                       std::span<const cpudl::Op> ops, std::vector<std::uint32_t>* out) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const u64 ref = metric_value(o.metric, e.op_cost(i, 0));
      const u64 opt = metric_value(o.metric, e.op_cost(i, o.side));
      const int d = opt >= ref ? log_class(opt - ref) : -log_class(ref - opt);
      out->push_back(static_cast<std::uint32_t>(ops[i].index() * 256 + 128 + d));
    }
  }
};

}  // namespace detail

}  // namespace diffsched::perf

DIFFSCHED_PERF_SUBJECT(diffsched::cpudl::Subject);
