// Deterministic per-side cost of an input, counted by instrumentation rather
// than by the clock, so that `diffsched perf` is repeatable.
//
//   perf::Evaluator<cpudl::Subject> ev;                 // subjects/cpudl/perf.h
//   perf::Evaluation e = ev.run(ops, /*cpus=*/64);
//   double r = perf::ratio(e.cost(Metric::kAccesses, 1), e.cost(Metric::kAccesses, 0));
//
// Each subject's package says what it counts (src/subjects/<name>/perf.h,
// its Evaluator<S>); this header is the vocabulary they share.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

#include "engine/verdict.h"
#include "subject_tools.h"

namespace diffsched::perf {

using u64 = std::uint64_t;

// What is counted, per op and side.
struct Counts {
  u64 loads = 0;       // cpudl: element-field loads
  u64 stores = 0;      // cpudl: element-field stores
  u64 compares = 0;    // cpudl: dl_time_before() on element fields
  u64 words = 0;       // pick: 64-bit mask words read
  u64 iterations = 0;  // pick: loop iterations (word loops and the CPU loop)
  Counts& operator+=(const Counts& o) {
    loads += o.loads;
    stores += o.stores;
    compares += o.compares;
    words += o.words;
    iterations += o.iterations;
    return *this;
  }
};

// --metric: which count is the cost.
//   cpudl: accesses (loads + stores + compares, default), loads, stores, compares
//   pick:  work (words + iterations, default), words, iterations
enum class Metric : std::uint8_t { kAccesses, kLoads, kStores, kCompares, kWork, kWords, kIterations };

std::string_view metric_name(Metric m);
// The metric named `name` for subject "cpudl" or "pick"; nullopt if it does
// not exist there.
std::optional<Metric> parse_metric(const SubjectTool& subject, std::string_view name);
Metric default_metric(const SubjectTool& subject);
std::string metric_names(const SubjectTool& subject);  // "accesses, loads, stores, compares"
u64 metric_value(Metric m, const Counts& c);

// The ratio of two whole-input costs, with an additive constant of one unit
// of the metric on both sides: (optimized + 1) / (reference + 1). It is 1 for
// two empty costs, finite when the reference costs nothing, and the constant
// is negligible once an input costs more than a few units.
inline constexpr double kRatioConstant = 1.0;
inline double ratio(u64 optimized, u64 reference) {
  return (static_cast<double>(optimized) + kRatioConstant) /
         (static_cast<double>(reference) + kRatioConstant);
}

struct Evaluation {
  std::vector<Counts> sides;      // whole input, per side
  std::vector<Counts> per_op;     // per op: side 0 .. n-1 of op 0, then op 1, ...
  std::size_t side_count = 0;
  Verdict verdict;                // the lockstep's
  u64 cost(Metric m, std::size_t side) const { return metric_value(m, sides[side]); }
  const Counts& op_cost(std::size_t op, std::size_t side) const {
    return per_op[op * side_count + side];
  }
};

// The side names of a subject, side 0 the reference.
std::span<const std::string_view> side_names(const SubjectTool& subject);

// Each subject's evaluator is its package's (src/subjects/<name>/perf.h):
//   Evaluator<S>();  Evaluation run(std::span<const S::Op>, const S::Config&, bool per_op);
template <class S>
class Evaluator;

// One input's costs and the lockstep's verdict (a fresh Evaluator<S>), for
// callers that do not include the subject's perf.h.
template <class S>
Evaluation evaluate(std::span<const typename S::Op> ops, const typename S::Config& config);

}  // namespace diffsched::perf
