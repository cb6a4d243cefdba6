#include "perf/search.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <random>
#include <unordered_map>

#include "kernel/cpumask.h"
#include "util/ddmin.h"

namespace diffsched::perf {

namespace {

using kernel::Cpumask;
using Rng = std::mt19937_64;

u64 below(Rng& rng, u64 n) { return n == 0 ? 0 : rng() % n; }
bool chance(Rng& rng, unsigned percent) { return below(rng, 100) < percent; }

// One stream per search: the seed, the size, the side and the direction.
Rng make_rng(const SearchOptions& o) {
  std::seed_seq seq{static_cast<std::uint32_t>(o.seed), static_cast<std::uint32_t>(o.seed >> 32),
                    o.cpus, static_cast<unsigned>(o.side), o.worst ? 1u : 0u,
                    o.guided ? 1u : 0u};
  return Rng(seq);
}

// log2 class of a count: 0 for 0, else bit width (1..64).
int log_class(u64 v) { return static_cast<int>(std::bit_width(v)); }

// ---- the input space of each subject -------------------------------------------

template <class S>
struct Space;

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

template <class S>
std::vector<typename S::Op> random_input(const Space<S>& space, Rng& rng, std::size_t max_ops) {
  std::vector<typename S::Op> ops(1 + below(rng, max_ops));
  for (auto& op : ops) op = space.random_op(rng);
  return ops;
}

// 1-4 stacked mutations of `ops`; `donor` is another corpus entry (splice).
template <class S>
void mutate(const Space<S>& space, Rng& rng, std::vector<typename S::Op>& ops,
            const std::vector<typename S::Op>& donor, std::size_t max_ops) {
  const u64 n = 1 + below(rng, 4);
  for (u64 k = 0; k < n; ++k) {
    const std::size_t i = below(rng, ops.size());
    switch (below(rng, 10)) {
      case 0:  // insert a fresh op
        ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(i), space.random_op(rng));
        break;
      case 1: {  // duplicate an op in place (a repeated update)
        const auto op = ops[i];
        ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(i), op);
        break;
      }
      case 2:  // delete an op
        if (ops.size() > 1) ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      case 3: {  // repeat a block at the end
        const std::size_t len = 1 + below(rng, ops.size() - i);
        std::vector<typename S::Op> block(ops.begin() + static_cast<std::ptrdiff_t>(i),
                                          ops.begin() + static_cast<std::ptrdiff_t>(i + len));
        ops.insert(ops.end(), block.begin(), block.end());
        break;
      }
      case 4: {  // splice: this input's prefix, the donor's suffix
        const std::size_t j = below(rng, donor.size());
        ops.resize(i + 1);
        ops.insert(ops.end(), donor.begin() + static_cast<std::ptrdiff_t>(j), donor.end());
        break;
      }
      default: space.mutate_op(rng, ops, i); break;
    }
    if (ops.size() > max_ops) ops.resize(max_ops);
  }
}

using Clock = std::chrono::steady_clock;

}  // namespace

std::size_t default_max_ops(const SubjectTool& subject) { return subject.perf_max_ops; }

double score_of(const SearchOptions& o, const Evaluation& e) {
  if (e.verdict.finding) return 0.0;
  const double r = ratio(e.cost(o.metric, o.side), e.cost(o.metric, 0));
  return o.worst ? r : 1.0 / r;
}

template <class S>
SearchResult<S> search(const SearchOptions& o, Evaluator<S>& ev) {
  using Op = typename S::Op;
  const Space<S> space{o.cpus};
  const std::size_t max_ops = o.max_ops ? o.max_ops : default_max_ops(tool_of<S>());
  const typename S::Config config{o.cpus};
  Rng rng = make_rng(o);
  const auto start = Clock::now();

  SearchResult<S> r;
  double best = -1;
  struct Entry {
    std::vector<Op> ops;
    double score;
  };
  std::vector<Entry> corpus;
  std::unordered_map<std::uint32_t, double> feature_best;
  std::vector<std::uint32_t> features;

  auto out_of_budget = [&] {
    if (r.runs >= o.runs) return true;
    if (o.stop && o.stop->load()) return true;
    return o.seconds > 0 && (r.runs % 16) == 0 &&
           std::chrono::duration<double>(Clock::now() - start).count() >= o.seconds;
  };

  while (!out_of_budget()) {
    std::vector<Op> ops;
    if (!o.guided || corpus.size() < 8) {
      ops = random_input(space, rng, max_ops);
    } else {
      const Entry& parent = chance(rng, 50) ? *std::max_element(corpus.begin(), corpus.end(),
                                                                [](const Entry& a, const Entry& b) {
                                                                  return a.score < b.score;
                                                                })
                                            : corpus[below(rng, corpus.size())];
      ops = parent.ops;
      mutate(space, rng, ops, corpus[below(rng, corpus.size())].ops, max_ops);
    }
    Evaluation e = ev.run(std::span<const Op>(ops), config, o.guided);
    ++r.runs;
    if (e.verdict.finding) {
      if (!r.finding) {
        r.finding = e.verdict.finding;
        r.finding_ops = ops;
      }
      continue;
    }
    const double s = score_of(o, e);
    bool keep = false;
    if (s > best) {
      best = s;
      r.ops = ops;
      r.evaluation = e;
      keep = true;
    }
    if (!o.guided) continue;
    features.clear();
    Space<S>::features(e, o, std::span<const Op>(ops), &features);
    for (std::uint32_t f : features) {
      auto [it, added] = feature_best.try_emplace(f, s);
      if (added || s > it->second) {
        it->second = s;
        keep = true;
      }
    }
    if (keep) {
      if (corpus.size() >= 512) corpus.erase(corpus.begin() + static_cast<std::ptrdiff_t>(below(rng, corpus.size())));
      corpus.push_back({std::move(ops), s});
    }
  }
  r.corpus = corpus.size();
  r.features = feature_best.size();
  if (best >= 0) {
    r.ratio = ratio(r.evaluation.cost(o.metric, o.side), r.evaluation.cost(o.metric, 0));
  }
  r.found_ratio = r.ratio;
  r.found_ops = r.ops.size();
  return r;
}

template <class S>
void minimise(const SearchOptions& o, Evaluator<S>& ev, SearchResult<S>* r, double keep,
              u64 tries) {
  using Op = typename S::Op;
  if (r->ops.empty()) return;
  const typename S::Config config{o.cpus};
  const double target = keep * score_of(o, r->evaluation);
  u64 used = 0;
  bool ran_out = false;
  util::ddmin(
      r->ops,
      [&](const std::vector<Op>& fewer) {
        if (used >= tries || (o.stop && o.stop->load())) {
          ran_out = true;
          return false;
        }
        ++used;
        return score_of(o, ev.run(std::span<const Op>(fewer), config)) >= target;
      },
      [&] { return ran_out; });
  // Then simpler field values, op by op, under the same threshold.
  const Space<S> space{o.cpus};
  for (std::size_t i = 0; i < r->ops.size() && !ran_out; ++i) {
    space.simplify(r->ops[i], [&](const Op& candidate) {
      if (used >= tries || (o.stop && o.stop->load())) {
        ran_out = true;
        return false;
      }
      ++used;
      std::vector<Op> ops = r->ops;
      ops[i] = candidate;
      return score_of(o, ev.run(std::span<const Op>(ops), config)) >= target;
    });
  }
  r->minimal = !ran_out;
  r->evaluation = ev.run(std::span<const Op>(r->ops), config);
  r->ratio = ratio(r->evaluation.cost(o.metric, o.side), r->evaluation.cost(o.metric, 0));
}

template SearchResult<cpudl::Subject> search(const SearchOptions&, Evaluator<cpudl::Subject>&);
template SearchResult<pick::Subject> search(const SearchOptions&, Evaluator<pick::Subject>&);
template void minimise(const SearchOptions&, Evaluator<cpudl::Subject>&,
                       SearchResult<cpudl::Subject>*, double, u64);
template void minimise(const SearchOptions&, Evaluator<pick::Subject>&,
                       SearchResult<pick::Subject>*, double, u64);

}  // namespace diffsched::perf
