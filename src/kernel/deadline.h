// dl_time_before(a, b): "deadline a is earlier than deadline b", wrapping.
//
// Models include/linux/sched/deadline.h (v3.14 .. v6.x, unchanged):
//   static inline bool dl_time_before(u64 a, u64 b) { return (s64)(a - b) < 0; }
// The comparison is a total order only on a set of deadlines that fits in a
// window of 2^63; dl_window_fits() tells whether a set does.
#pragma once

#include <span>

#include "kernel/types.h"

namespace diffsched::kernel {

constexpr bool dl_time_before(u64 a, u64 b) {
  return static_cast<s64>(a - b) < 0;
}

// True when every deadline in `dls` lies in some window [base, base + 2^63),
// i.e. dl_time_before is a consistent total order on them (the kernel's
// assumption about live deadlines). O(n log n); allocation-free for n <= 8192.
bool dl_window_fits(std::span<const u64> dls);

}  // namespace diffsched::kernel
