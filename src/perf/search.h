// The search of `diffsched perf`: inputs on which one side costs most (or
// least) relative to the reference, by counted cost (perf/cost.h).
//
//   perf::Evaluator<pick::Subject> ev;
//   perf::SearchOptions o{.cpus = 8192, .metric = Metric::kWork, .side = 1};
//   perf::SearchResult<pick::Subject> r = perf::search(o, ev);   // r.ratio, r.ops
//   perf::minimise(o, ev, &r);                                   // keeps >= 90%
//
// Two strategies with the same budget (evaluations, and optionally seconds):
//   guided: an in-process mutation loop over a corpus, in the manner of
//     PerfFuzz. Each evaluated input yields features: for each op, the class
//     of its cost pair (cpudl: op kind x signed log2 of optimized - reference;
//     pick: log2 of each side's cost). The loop keeps, per feature, the best
//     score of any input that showed it, and admits an input to the corpus
//     when it raises that best for some feature (a new feature included) or
//     the global best. Parents: the global best half of the time, else any
//     corpus entry; 1-4 stacked structural mutations per child (op-level:
//     insert, duplicate, delete, splice, repeat a block; field-level: CPU,
//     deadline by small steps or copies, mask bits, ranges and words).
//   random: plain generation, every input fresh from the same generator the
//     guided loop starts from (cpudl: the seed's 75% set / 25% clear, random
//     CPUs, deadlines below 2^32; pick: three uniformly random masks).
// Score: ratio = (cost(side) + 1) / (cost(reference) + 1) (perf::ratio), or
// its inverse for the best case. Inputs with a behavioural finding score
// nothing; the first one met is kept in SearchResult::finding.
// Deterministic for a given seed when no seconds cap is hit.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/verdict.h"
#include "perf/cost.h"

namespace diffsched::perf {

struct SearchOptions {
  unsigned cpus = 64;
  Metric metric = Metric::kAccesses;
  std::size_t side = 1;      // the side measured against side 0 (the reference)
  bool worst = true;         // maximise cost(side)/cost(ref); false: the inverse
  bool guided = true;        // false: plain random generation
  u64 runs = 4000;           // evaluations
  double seconds = 0;        // wall-clock cap per search, 0: none
  u64 seed = 1;
  std::size_t max_ops = 0;   // longest input; 0: the subject's default
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler
};

// Longest input by default: cpudl 64 ops, pick 4 ops.
std::size_t default_max_ops(const SubjectTool& subject);

template <class S>
struct SearchResult {
  std::vector<typename S::Op> ops;  // the best input found (minimised by minimise())
  Evaluation evaluation;            // its costs
  double ratio = 1.0;               // cost(side) / cost(reference), perf::ratio
  double found_ratio = 1.0;         // the ratio before minimisation
  std::size_t found_ops = 0;        // its length
  u64 runs = 0;                     // evaluations done
  std::size_t corpus = 0;           // corpus size at the end (guided)
  std::size_t features = 0;         // features seen (guided)
  std::optional<Finding> finding;   // the first behavioural finding met
  std::vector<typename S::Op> finding_ops;
  bool minimal = false;             // minimise() ran to the end of its budget
};

template <class S>
SearchResult<S> search(const SearchOptions& o, Evaluator<S>& ev);

// Shortens r->ops (util::ddmin) while the score stays >= keep * the score found
// and no finding appears; at most `tries` evaluations. Updates ops, evaluation
// and ratio.
template <class S>
void minimise(const SearchOptions& o, Evaluator<S>& ev, SearchResult<S>* r, double keep = 0.9,
              u64 tries = 3000);

// The score of an evaluation under the options (ratio or its inverse), 0 on a
// finding.
double score_of(const SearchOptions& o, const Evaluation& e);

}  // namespace diffsched::perf
