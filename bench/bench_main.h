// What every diffsched bench binary shares: its own flags, the side-by-side
// clock, and callgrind regions.
//
//   BenchArgs args = strip_bench_args(&argc, argv);   // before benchmark::Initialize
//   double ns = time_ns([&] { replay(cp, ops); });
//   icount_region("cpudl_set/cpus:16/ops:1000/swap", ops.size(), [&] { replay(cp, ops); });
//
// Flags (removed from argv, the rest goes to Google Benchmark):
//   --single-iteration  every benchmark runs one iteration and one repetition
//                       (ctest: does it build and run; no time is asserted);
//   --icount            no Google Benchmark run: each measured region runs
//                       once between callgrind client requests; meant for
//                       `valgrind --tool=callgrind --collect-atstart=no`;
//   --smoke             with --icount: the first size only.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#ifdef DIFFSCHED_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

#include "kernel/types.h"

namespace diffsched::bench {

struct BenchArgs {
  bool single_iteration = false;
  bool icount = false;
  bool smoke = false;
};

inline BenchArgs strip_bench_args(int* argc, char** argv) {
  BenchArgs a;
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strcmp(argv[i], "--single-iteration") == 0)
      a.single_iteration = true;
    else if (std::strcmp(argv[i], "--icount") == 0)
      a.icount = true;
    else if (std::strcmp(argv[i], "--smoke") == 0)
      a.smoke = true;
    else
      argv[out++] = argv[i];
  }
  *argc = out;
  argv[out] = nullptr;
  return a;
}

// time_ns(fn): wall-clock nanoseconds of one fn() call (steady_clock; about
// 20 ns of clock overhead, so callers time blocks of at least microseconds).
template <class F>
double time_ns(F&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

// median(xs): the median of xs (reorders it); 0 for an empty xs. O(n).
inline double median(std::vector<double>& xs) {
  if (xs.empty()) return 0;
  const auto mid = xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2);
  std::nth_element(xs.begin(), mid, xs.end());
  if (xs.size() % 2) return *mid;
  return (*mid + *std::max_element(xs.begin(), mid)) / 2;
}

// SideBySide<N>: per-iteration wall-clock times of N variants measured in the
// same iteration, variant 0 the reference. A repetition reports, per variant,
// the median time of its block, and per non-reference variant the median of
// the per-iteration ratios (variant / reference); medians, so that a block
// stretched by preemption on a shared machine does not move the result.
template <size_t N>
class SideBySide {
 public:
  explicit SideBySide(size_t expected_iterations) {
    for (auto& v : ns_) v.reserve(expected_iterations);
  }
  void add(size_t variant, double ns) { ns_[variant].push_back(ns); }
  // Call once per iteration after every variant has been added.
  void end_iteration() {
    for (size_t v = 1; v < N; ++v) ratios_[v].push_back(ns_[v].back() / ns_[0].back());
  }
  double median_ns(size_t variant) { return median(ns_[variant]); }
  double median_ratio(size_t variant) { return median(ratios_[variant]); }

 private:
  std::array<std::vector<double>, N> ns_;
  std::array<std::vector<double>, N> ratios_;
};

// True when this binary can delimit callgrind regions.
inline constexpr bool kHaveCallgrind =
#ifdef DIFFSCHED_HAVE_CALLGRIND
    true;
#else
    false;
#endif

// icount_region(name, calls, fn): runs fn() once with callgrind collecting and
// dumps the counts as a part whose trigger reads "<name> calls=<calls>"; the
// Ir total of that part divided by calls is instructions per call. Outside
// valgrind the client requests are no-ops and fn() just runs.
template <class F>
void icount_region(const std::string& name, kernel::u64 calls, F&& fn) {
  const std::string label = fmt::format("{} calls={}", name, calls);
#ifdef DIFFSCHED_HAVE_CALLGRIND
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
  fn();
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(label.c_str());
#else
  fn();
#endif
  fmt::print("region {}\n", label);
}

}  // namespace diffsched::bench
