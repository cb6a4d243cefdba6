// What a subject's package instantiates for `diffsched perf`: the search,
// the minimisation and the whole run, generic over the subject, given the
// package's Evaluator<S> (perf.h) and Space<S>: its input space, which
// defines
//   S::Op random_op(Rng&) const;                    the generator's op
//   void mutate_op(Rng&, std::vector<S::Op>&, std::size_t i) const;
//   template <class Try> void simplify(S::Op&, Try&& try_op) const;
//   static void features(const Evaluation&, const SearchOptions&,
//                        std::span<const S::Op>, std::vector<std::uint32_t>*);
// A package's perf_search.cpp defines Space<S>, includes this header and
// writes DIFFSCHED_PERF_SUBJECT(S): perf/run.cpp, the CLI and the tests then
// reach that subject through the declarations in perf/search.h and run.h.
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "io/program.h"
#include "kernel/cpumask.h"
#include "perf/clock.h"
#include "perf/run.h"
#include "perf/search.h"
#include "util/ddmin.h"
#include "util/text.h"

namespace diffsched::perf {

namespace fs = std::filesystem;

namespace detail {

using kernel::Cpumask;
using Rng = std::mt19937_64;

inline u64 below(Rng& rng, u64 n) { return n == 0 ? 0 : rng() % n; }
inline bool chance(Rng& rng, unsigned percent) { return below(rng, 100) < percent; }

// One stream per search: the seed, the size, the side and the direction.
inline Rng make_rng(const SearchOptions& o) {
  std::seed_seq seq{static_cast<std::uint32_t>(o.seed), static_cast<std::uint32_t>(o.seed >> 32),
                    o.cpus, static_cast<unsigned>(o.side), o.worst ? 1u : 0u,
                    o.guided ? 1u : 0u};
  return Rng(seq);
}

// log2 class of a count: 0 for 0, else bit width (1..64).
inline int log_class(u64 v) { return static_cast<int>(std::bit_width(v)); }

template <class S>
struct Space;  // each subject's package defines it (perf_search.cpp)

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

}  // namespace detail

template <class S>
SearchResult<S> search(const SearchOptions& o, Evaluator<S>& ev) {
  using namespace detail;
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
  using namespace detail;
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

template <class S>
struct Task {
  SearchOptions options;
  SearchResult<S> guided, random;
};

template <class S>
std::optional<Report> run_subject(const PerfSettings& o, std::string* error) {
  const Metric metric = o.metric;
  const std::vector<unsigned>& cpus = o.cpus;
  using Op = typename S::Op;
  const auto names = side_names(*o.subject);
  std::vector<Task<S>> tasks;
  for (unsigned n : cpus)
    for (std::size_t side : sides_of(*o.subject, o.side))
      for (bool worst : {true, false}) {
        if (!worst && !o.best) continue;
        SearchOptions so;
        so.cpus = n;
        so.metric = metric;
        so.side = side;
        so.worst = worst;
        so.runs = o.runs;
        so.seed = o.seed;
        so.max_ops = o.max_ops;
        so.stop = o.stop;
        tasks.push_back({so, {}, {}});
      }
  // --time: the whole search's wall-clock budget, shared by every search.
  const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(tasks.size())));
  const double per_search =
      o.seconds > 0 ? o.seconds * jobs / (2.0 * static_cast<double>(tasks.size())) : 0.0;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    Evaluator<S> ev;
    for (std::size_t i; (i = next++) < tasks.size();) {
      Task<S>& t = tasks[i];
      t.options.seconds = per_search;
      SearchOptions ro = t.options;
      ro.guided = false;
      t.random = search(ro, ev);
      // The guided search gets as many evaluations as random generation made.
      t.options.runs = std::min(t.options.runs, std::max<u64>(t.random.runs, 1));
      t.guided = search(t.options, ev);
      minimise(t.options, ev, &t.guided);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();

  if (!o.out.empty()) {
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) {
      *error = fmt::format("cannot create --out {}: {}", o.out, ec.message());
      return std::nullopt;
    }
  }
  Report report{o.subject, metric, {}, {}, {}};
  for (Task<S>& t : tasks) {
    const std::size_t side = t.options.side;
    Row row;
    row.cpus = t.options.cpus;
    row.side = std::string(names[side]);
    row.worst = t.options.worst;
    const auto& g = t.guided;
    row.reference = g.evaluation.sides.empty() ? 0 : g.evaluation.cost(metric, 0);
    row.optimized = g.evaluation.sides.empty() ? 0 : g.evaluation.cost(metric, side);
    row.ratio = g.ratio;
    row.ops = g.ops.size();
    row.found_ratio = g.found_ratio;
    row.found_ops = g.found_ops;
    row.runs = g.runs;
    row.corpus = g.corpus;
    row.features = g.features;
    row.minimal = g.minimal;
    row.random_ratio = t.random.ratio;
    if (!t.random.evaluation.sides.empty()) {
      row.random_reference = t.random.evaluation.cost(metric, 0);
      row.random_optimized = t.random.evaluation.cost(metric, side);
    }
    row.random_runs = t.random.runs;
    for (const auto* r : {&t.guided, &t.random}) {
      if (!r->finding) continue;
      report.findings.push_back(fmt::format(
          "{} CPUs, {} search: {} at op {} ({}): {}", row.cpus, r == &t.guided ? "guided" : "random",
          r->finding->signature(), r->finding->op_index, r->finding->op_text,
          r->finding->detail));
    }
    if (!o.out.empty() && !g.ops.empty()) {
      const std::string file =
          OutDir{o.out}.reproducer(row.worst, o.subject->name, row.cpus, row.side).string();
      io::Program<S> p;
      p.config = typename S::Config{row.cpus};
      p.ops = g.ops;
      std::ofstream f(file);
      f << fmt::format("# diffsched perf: {} case of {} against the reference at {} CPUs.\n"
                       "# Counted {}: reference {}, {} {}, ratio (side + 1) / (reference + 1) "
                       "= {:.3f}.\n# Reproduce: {}\n",
                       row.worst ? "worst" : "best", row.side, row.cpus,
                       metric_name(metric), row.reference, row.side, row.optimized,
                       row.ratio, replay_command(o.self, *o.subject, metric, file));
      f << fmt::format("# perf-expect: {} {} {} {}\n", row.side, metric_name(metric),
                       row.reference, row.optimized);
      f << io::format_program(io::AnyProgram(p));
      if (!f) {
        *error = fmt::format("cannot write {}", file);
        return std::nullopt;
      }
      row.reproducer = file;
      row.command = replay_command(o.self, *o.subject, metric, file);
    }
    if (o.clock && !g.ops.empty())
      row.clock =
          time_input<S>(std::span<const Op>(g.ops), typename S::Config{row.cpus}, side, {});
    (row.worst ? report.worst : report.best).push_back(std::move(row));
  }
  return report;
}

template <class S>
Evaluation evaluate(std::span<const typename S::Op> ops, const typename S::Config& config) {
  Evaluator<S> ev;
  return ev.run(ops, config);
}

}  // namespace diffsched::perf

// Instantiates the perf mode for the subject S (in its package's perf_search.cpp).
#define DIFFSCHED_PERF_SUBJECT(S)                                                              \
  template ::diffsched::perf::SearchResult<S> diffsched::perf::search(                         \
      const ::diffsched::perf::SearchOptions&, ::diffsched::perf::Evaluator<S>&);              \
  template void diffsched::perf::minimise(const ::diffsched::perf::SearchOptions&,             \
                                          ::diffsched::perf::Evaluator<S>&,                    \
                                          ::diffsched::perf::SearchResult<S>*, double,         \
                                          ::diffsched::perf::u64);                             \
  template std::optional<::diffsched::perf::Report> diffsched::perf::run_subject<S>(           \
      const ::diffsched::perf::PerfSettings&, std::string*);                                   \
  template ::diffsched::perf::Evaluation diffsched::perf::evaluate<S>(                         \
      std::span<const typename S::Op>, const typename S::Config&)
