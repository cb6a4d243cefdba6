// Clock confirmation of a counted ratio: re-times an input on both sides,
// the way the bench does (bench/): the same uninstrumented code
// (kernel/pick.cpp's out-of-line picks; cpudl<SwapHeapify> and
// cpudl<HoleHeapify>), sides in alternating order, R repetitions, each
// yielding ns per call of both sides and their paired ratio; the result is
// the median and spread (tools::summarize) over the repetitions.
//
//   perf::ClockResult c = perf::time_input<pick::Subject>(ops, pick::Config{8192}, 1, {});
//   c.wall_ratio.median   // ns(side) / ns(reference), median of paired ratios
//
// cpudl: the heap is re-initialised before each replay of the input, outside
// the timed region; the timed region is the replay of the whole input, every
// op kind through cpudl::apply_op() (so "ns per call" is per op of the input). pick: `calls` calls per timed block
// over the input's ops in order. Wall clock: never asserted by tests.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "tools/bench_stats.h"

namespace diffsched::perf {

struct ClockOptions {
  unsigned repetitions = 15;
  double seconds_per_rep = 0.02;  // per side, roughly
};

struct ClockResult {
  tools::Spread reference_ns;  // ns per call (cpudl: per op), per repetition
  tools::Spread side_ns;
  tools::Spread wall_ratio;    // paired side / reference, per repetition
};

template <class S>
ClockResult time_input(std::span<const typename S::Op> ops, const typename S::Config& config,
                       std::size_t side, const ClockOptions& o);

// The spreads of paired passes (ns per call of each side) and of their ratios:
// each subject's time_input() (src/subjects/<name>/perf_clock.cpp) ends here.
ClockResult summarise_clock(const std::vector<double>& ref, const std::vector<double>& side);

}  // namespace diffsched::perf
