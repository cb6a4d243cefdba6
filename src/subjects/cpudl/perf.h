// cpudl's counted cost (perf/cost.h): the bench's counted build
// (kernel/counters.h), cpudl<Heapify, Counting>: every element-field load and
// store and every dl_time_before() on an element field. Sides: 0 reference
// (swap), 1 optimized (hole). The lockstep runs on the same ops, so a
// behavioural finding met while measuring is in Evaluation::verdict.
#pragma once

#include <memory>
#include <span>

#include "perf/cost.h"
#include "subjects/cpudl/lockstep.h"

namespace diffsched::perf {

template <>
class Evaluator<cpudl::Subject> {
 public:
  Evaluator();
  ~Evaluator();
  // per_op: also fill Evaluation::per_op (the search's features).
  Evaluation run(std::span<const cpudl::Op> ops, const cpudl::Config& config, bool per_op = false);

 private:
  struct Heaps;
  std::unique_ptr<cpudl::Lockstep> lockstep_;
  std::unique_ptr<Heaps> heaps_;
};

}  // namespace diffsched::perf
