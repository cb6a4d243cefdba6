#include "kernel/deadline.h"

#include <algorithm>
#include <array>

namespace diffsched::kernel {

bool dl_window_fits(std::span<const u64> dls) {
  if (dls.size() < 2) return true;
  // Points on a circle of 2^64: they fit in an arc of length 2^63 - 1 iff the
  // largest empty gap between circular neighbours is at least 2^63 + 1.
  thread_local std::array<u64, NR_CPUS> sorted;
  const std::size_t n = std::min<std::size_t>(dls.size(), sorted.size());
  std::copy_n(dls.begin(), n, sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
  u64 max_gap = sorted[0] - sorted[n - 1];  // wrap-around gap, mod 2^64
  if (sorted[0] == sorted[n - 1]) return true;  // all equal
  for (std::size_t i = 1; i < n; ++i)
    max_gap = std::max(max_gap, sorted[i] - sorted[i - 1]);
  return max_gap >= (u64{1} << 63) + 1;
}

}  // namespace diffsched::kernel
