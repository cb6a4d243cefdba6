#include "subjects/cpudl/invariants.h"

#include <cstring>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::cpudl {

using kernel::IDX_INVALID;
using kernel::parent;

namespace {

// A violation located at the line of this call (the statement under the
// failing check's `if`; a call's default arguments see where it starts).
Violation violation(std::string_view invariant, std::string_view field, std::string where,
                    std::string values, const char* file = __builtin_FILE(),
                    unsigned line = __builtin_LINE()) {
  return Violation{invariant, field, std::move(where), std::move(values), file, line};
}

}  // namespace

std::optional<Violation> check_invariants(const HeapView& h) {
  const int nr = static_cast<int>(h.nr_cpu_ids);
  const auto* el = h.elements;
  if (h.size < 0 || h.size > nr)
    return violation("size-bounds", "size", "",
                     fmt::format("size {} outside 0..{}", h.size, nr));
  for (int i = 0; i < h.size; ++i) {
    const int cpu = el[i].cpu;
    if (cpu < 0 || cpu >= nr)
      return violation("slot-cpu", "slot.cpu", fmt::format("slot {}", i),
                       fmt::format("slot {} holds cpu {}, outside 0..{}", i, cpu, nr - 1));
    if (el[cpu].idx != i)
      return violation("idx-of-slot", "idx", fmt::format("slot {}", i),
                       fmt::format("slot {} holds cpu {} but elements[{}].idx = {}", i,
                                   cpu, cpu, el[cpu].idx));
    if (i > 0 && kernel::dl_time_before(el[parent(i)].dl, el[i].dl))
      return violation("heap-order", "slot.dl", fmt::format("slot {}", i),
                       fmt::format("parent slot {} (cpu {}, dl {}) is before child slot "
                                   "{} (cpu {}, dl {})",
                                   parent(i), el[parent(i)].cpu,
                                   io::format_value(el[parent(i)].dl), i, cpu,
                                   io::format_value(el[i].dl)));
  }
  // idx-of-cpu. The slot loop showed every slot's CPU points back at it, so
  // the CPUs with a valid idx are exactly the slots' iff there are `size` of
  // them: one branch-free count over all CPUs, and the search for the culprit
  // only when it fails.
  int valid = 0, valid1 = 0, valid2 = 0, valid3 = 0;  // four chains: no loop-carried stall
  int cpu0 = 0;
  for (; cpu0 + 4 <= nr; cpu0 += 4) {
    valid += el[cpu0].idx != IDX_INVALID;
    valid1 += el[cpu0 + 1].idx != IDX_INVALID;
    valid2 += el[cpu0 + 2].idx != IDX_INVALID;
    valid3 += el[cpu0 + 3].idx != IDX_INVALID;
  }
  for (; cpu0 < nr; ++cpu0) valid += el[cpu0].idx != IDX_INVALID;
  valid += valid1 + valid2 + valid3;
  if (valid != h.size) {
    for (int cpu = 0; cpu < nr; ++cpu) {
      const int idx = el[cpu].idx;
      if (idx == IDX_INVALID) continue;
      if (idx < 0 || idx >= h.size || el[idx].cpu != cpu)
        return violation(
            "idx-of-cpu", "idx", fmt::format("cpu {}", cpu),
            idx < 0 || idx >= h.size
                ? fmt::format("elements[{}].idx = {}, not a slot below size {} nor "
                              "IDX_INVALID",
                              cpu, idx, h.size)
                : fmt::format("elements[{}].idx = {} but slot {} holds cpu {}", cpu, idx,
                              idx, el[idx].cpu));
    }
  }
  const auto& bits = h.free_cpus->bits;
  // Words wholly beyond nr_cpu_ids must be zero: one memcmp; then the
  // partial last word.
  static constexpr unsigned long kZero[kernel::BITS_TO_LONGS(kernel::NR_CPUS)] = {};
  const unsigned full = kernel::BITS_TO_LONGS(h.nr_cpu_ids);
  unsigned long stray_any =
      std::memcmp(bits + full, kZero, (kernel::BITS_TO_LONGS(kernel::NR_CPUS) - full) * sizeof(long));
  if (h.nr_cpu_ids % 64) stray_any |= bits[full - 1] & (~0UL << (h.nr_cpu_ids % 64));
  if (stray_any) {
    for (unsigned w = h.nr_cpu_ids / 64; w < kernel::BITS_TO_LONGS(kernel::NR_CPUS); ++w) {
      const unsigned first = w * 64;
      const unsigned long beyond =
          first >= h.nr_cpu_ids ? ~0UL : ~0UL << (h.nr_cpu_ids - first);
      if (const unsigned long stray = bits[w] & beyond)
        return violation("free-mask-range", "free_cpus", fmt::format("word {}", w),
                         fmt::format("free_cpus has cpu {} set, beyond nr_cpu_ids {}",
                                     first + static_cast<unsigned>(std::countr_zero(stray)),
                                     h.nr_cpu_ids));
    }
  }
  for (int i = 0; i < h.size; ++i) {
    const auto cpu = static_cast<unsigned>(el[i].cpu);
    if ((bits[cpu / 64] >> (cpu % 64)) & 1UL)
      return violation("free-mask-coherence", "free_cpus", fmt::format("cpu {}", cpu),
                       fmt::format("cpu {} is in the heap (slot {}) and marked free", cpu, i));
  }
  return std::nullopt;
}

}  // namespace diffsched::cpudl
