// The invariants of one cpudl side, checked on its kernel-layout state.
//
//   if (auto v = check_invariants(side.view())) fmt::print("{}: {}\n", v->invariant, v->values);
//
// size-bounds          0 <= size <= nr_cpu_ids
// heap-order           !dl_time_before(elements[parent(i)].dl, elements[i].dl), 0 < i < size
// slot-cpu             0 <= elements[i].cpu < nr_cpu_ids for every slot i < size
// idx-of-slot          elements[elements[i].cpu].idx == i for every slot i < size
//                      (so each CPU is in the heap at most once)
// idx-of-cpu           every CPU's idx is IDX_INVALID or a slot below size that
//                      holds that CPU (no stale back-pointer)
// free-mask-range      no bit of free_cpus at or beyond nr_cpu_ids
// free-mask-coherence  a CPU in the heap is not free (v4.9+ semantics with the
//                      callers' contract; see model.h)
// O(size) plus one branch-free pass over nr_cpu_ids back-pointers and the
// free mask's words; allocates only to describe a violation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "subjects/cpudl/side.h"

namespace diffsched::cpudl {

struct Violation {
  std::string_view invariant;  // name from the list above
  std::string_view field;      // the state field it concerns: "slot.dl", "idx", ...
  std::string where;           // "slot 3", "cpu 5", ""
  std::string values;          // the values that break it
  const char* file = nullptr;  // where the violation was detected
  unsigned line = 0;
};

std::optional<Violation> check_invariants(const HeapView& heap);

}  // namespace diffsched::cpudl
