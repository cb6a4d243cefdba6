// Order statistics for benchmark repetitions.
//
//   Spread s = summarize({0.97, 0.99, 0.98});   // s.median == 0.98
//   fmt::print("{:.3f} (IQR {:.3f}-{:.3f})", s.median, s.p25, s.p75);
//
// Quantiles interpolate linearly between order statistics (R's type 7, as
// numpy's default), so with one value every quantile is that value.
#pragma once

#include <cstddef>
#include <vector>

namespace diffsched::tools {

struct Spread {
  size_t n = 0;
  double median = 0, p25 = 0, p75 = 0, min = 0, max = 0;
};

// quantile(sorted, q): q in [0, 1]; sorted ascending and non-empty. O(1).
double quantile(const std::vector<double>& sorted, double q);

// summarize(xs): n, median, quartiles and range of xs; all zero if empty.
// O(n log n).
Spread summarize(std::vector<double> xs);

}  // namespace diffsched::tools
