#include "perf/cost.h"

#include <array>
#include <memory>
#include <variant>

#include <fmt/format.h>

#include "subjects/cpudl/apply.h"
#include "engine/finding.h"
#include "engine/runner.h"
#include "kernel/counters.h"
#include "kernel/heapify.h"

namespace diffsched::perf {

namespace {

struct MetricInfo {
  Metric metric;
  std::string_view name;
  const SubjectTool* subject;
};

constexpr std::array<MetricInfo, 7> kMetrics{{
    {Metric::kAccesses, "accesses", &kCpudlTool},
    {Metric::kLoads, "loads", &kCpudlTool},
    {Metric::kStores, "stores", &kCpudlTool},
    {Metric::kCompares, "compares", &kCpudlTool},
    {Metric::kWork, "work", &kPickTool},
    {Metric::kWords, "words", &kPickTool},
    {Metric::kIterations, "iterations", &kPickTool},
}};


Counts from(const kernel::AccessCounters& a) {
  Counts c;
  c.loads = a.loads;
  c.stores = a.stores;
  c.compares = a.compares;
  return c;
}

}  // namespace

std::string_view metric_name(Metric m) {
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i.name;
  return "?";
}

std::optional<Metric> parse_metric(const SubjectTool& subject, std::string_view name) {
  for (const MetricInfo& i : kMetrics)
    if (i.subject == &subject && i.name == name) return i.metric;
  return std::nullopt;
}

Metric default_metric(const SubjectTool& subject) {
  return parse_metric(subject, subject.perf_metric).value_or(Metric::kAccesses);
}

std::string metric_names(const SubjectTool& subject) {
  std::string out;
  for (const MetricInfo& i : kMetrics) {
    if (i.subject != &subject) continue;
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out;
}

u64 metric_value(Metric m, const Counts& c) {
  switch (m) {
    case Metric::kAccesses: return c.loads + c.stores + c.compares;
    case Metric::kLoads: return c.loads;
    case Metric::kStores: return c.stores;
    case Metric::kCompares: return c.compares;
    case Metric::kWork: return c.words + c.iterations;
    case Metric::kWords: return c.words;
    case Metric::kIterations: return c.iterations;
  }
  return 0;
}

std::span<const std::string_view> side_names(const SubjectTool& subject) {
  return subject.perf_sides;
}

// ---- cpudl -------------------------------------------------------------------

using SwapCounted = kernel::cpudl<kernel::SwapHeapify, kernel::Counting>;
using HoleCounted = kernel::cpudl<kernel::HoleHeapify, kernel::Counting>;

struct Evaluator<cpudl::Subject>::Heaps {
  SwapCounted swap;
  HoleCounted hole;
};

Evaluator<cpudl::Subject>::Evaluator()
    : lockstep_(std::make_unique<cpudl::Lockstep>()), heaps_(std::make_unique<Heaps>()) {}
Evaluator<cpudl::Subject>::~Evaluator() = default;

namespace {

// One op on a counted heap, as KernelModelSide applies it (subjects/cpudl/apply.h);
// returns its counts.
template <class CP>
Counts apply_counted(CP* cp, const cpudl::Op& op, const cpudl::Config& config) {
  kernel::access_counters() = {};
  cpudl::apply_op(cp, op, nullptr, [&](int cpu) { return config.capacity_of(cpu); });
  return from(kernel::access_counters());
}

}  // namespace

Evaluation Evaluator<cpudl::Subject>::run(std::span<const cpudl::Op> ops,
                                          const cpudl::Config& config, bool per_op) {
  Evaluation e;
  e.side_count = 2;
  e.sides.assign(2, Counts{});
  if (per_op) e.per_op.reserve(ops.size() * 2);
  LockstepRun<cpudl::Subject> run(*lockstep_, config, cpudl::Subject::kDefaultLevel);
  kernel::cpudl_init(&heaps_->swap, config.nr_cpu_ids);
  kernel::cpudl_init(&heaps_->hole, config.nr_cpu_ids);
  bool checking = true;
  for (const cpudl::Op& op : ops) {
    // After a finding the lockstep stops and so does the measuring: the cost
    // covers the ops up to and including the one that found it.
    if (!checking) break;
    checking = run.feed(op);
    const bool skip = checking && run.lockstep().last_skipped();
    Counts ref, opt;
    if (!skip) {
      ref = apply_counted(&heaps_->swap, op, config);
      opt = apply_counted(&heaps_->hole, op, config);
    }
    e.sides[0] += ref;
    e.sides[1] += opt;
    if (per_op) {
      e.per_op.push_back(ref);
      e.per_op.push_back(opt);
    }
  }
  run.finish();
  e.verdict = run.verdict();
  return e;
}

// ---- pick --------------------------------------------------------------------

Evaluator<pick::Subject>::Evaluator() : lockstep_(std::make_unique<pick::Lockstep>()) {}

Evaluation Evaluator<pick::Subject>::run(std::span<const pick::Op> ops,
                                         const pick::Config& config, bool per_op) {
  Evaluation e;
  e.side_count = 3;
  e.sides.assign(3, Counts{});
  if (per_op) e.per_op.reserve(ops.size() * 3);
  LockstepRun<pick::Subject> run(*lockstep_, config, pick::Subject::kDefaultLevel);
  std::size_t index = 0;
  for (const pick::Op& any : ops) {
    const pick::Pick& op = std::get<pick::Pick>(any);
    const bool ok = run.feed(any);
    for (std::size_t s = 0; s < 3; ++s) {
      Counts c;
      const unsigned cpu = counted_pick(s, op, &c);
      e.sides[s] += c;
      if (per_op) e.per_op.push_back(c);
      // The counting walk must answer as the real pick does, else it does not
      // count the code compared.
      if (ok && cpu != lockstep_->result(s) && !e.verdict.finding) {
        Finding f = make_finding<pick::Subject>(FindingKind::kDivergence, any, index,
                                                {kPickTool.perf_sides[s], "pick", "perf", "cpu"});
        f.detail = fmt::format("perf: the counting walk of side {} answered {} where the "
                               "pick answered {}",
                               kPickTool.perf_sides[s], cpu, lockstep_->result(s));
        e.verdict.finding = std::move(f);
      }
    }
    ++index;
  }
  run.finish();
  if (!e.verdict.finding) {
    e.verdict = run.verdict();
  } else {
    Verdict v = run.verdict();
    v.finding = std::move(e.verdict.finding);
    e.verdict = std::move(v);
  }
  return e;
}

}  // namespace diffsched::perf
