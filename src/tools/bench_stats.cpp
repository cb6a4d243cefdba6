#include "tools/bench_stats.h"

#include <algorithm>
#include <cmath>

namespace diffsched::tools {

double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Spread summarize(std::vector<double> xs) {
  Spread s;
  if (xs.empty()) return s;
  std::sort(xs.begin(), xs.end());
  s.n = xs.size();
  s.median = quantile(xs, 0.5);
  s.p25 = quantile(xs, 0.25);
  s.p75 = quantile(xs, 0.75);
  s.min = xs.front();
  s.max = xs.back();
  return s;
}

}  // namespace diffsched::tools
