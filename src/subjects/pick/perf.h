// pick's counted cost (perf/cost.h): a counting walk of each variant's word
// loops (perf_cost.cpp), kept equal to kernel/pick.cpp's answer on every op
// (a difference is a bug of the counting walk, reported as a finding):
// bitmap words read and loop iterations. Sides: 0 reference (loop),
// 1 optimized (RFC), 2 fused.
#pragma once

#include <memory>
#include <span>

#include "perf/cost.h"
#include "subjects/pick/lockstep.h"

namespace diffsched::perf {

template <>
class Evaluator<pick::Subject> {
 public:
  Evaluator();
  Evaluation run(std::span<const pick::Op> ops, const pick::Config& config, bool per_op = false);

 private:
  std::unique_ptr<pick::Lockstep> lockstep_;
};

// The counting walks of the three picks: the CPU each returns, and what it
// read. nr_cpu_ids is the current one.
unsigned counted_pick(std::size_t side, const pick::Pick& op, Counts* counts);

}  // namespace diffsched::perf
