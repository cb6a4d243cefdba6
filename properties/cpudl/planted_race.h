// The two planted bugs of issue 26's "Done when", as heapify policies for the
// built-in heap (kernel::cpudl<Heapify>): the analysis' ctests
// (race_test.cpp) and the real-thread ctest's negative control
// (race_threads_test.cpp) use the same ones.
#pragma once

#include "kernel/heapify.h"

namespace diffsched::cpudl::race {

// Planted: an update that transiently writes elements[0].cpu out of range.
// A heapify_down from the root first marks the hole with IDX_INVALID (-1),
// puts the root back, then goes on as the hole heap does.
struct OutOfRangeRootHeapify : kernel::HoleHeapify {
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    if (idx == 0 && cp->size > 0) {
      const int keep = cp->elements[0].cpu;
      cp->elements[0].cpu = kernel::IDX_INVALID;
      cp->elements[0].cpu = keep;
    }
    kernel::HoleHeapify::cpudl_heapify_down(cp, idx);
  }
};

// Planted: an update that leaves a phantom CPU at the root between two
// stores. A heapify_up from below the root parks the highest CPU that is in
// the heap neither before nor after at the root, then puts the root back.
struct PhantomRootHeapify : kernel::HoleHeapify {
  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    if (idx > 0) {
      const int keep = cp->elements[0].cpu;
      for (int c = static_cast<int>(kernel::nr_cpu_ids) - 1; c >= 0; --c)
        if (cp->elements[c].idx == kernel::IDX_INVALID) {
          cp->elements[0].cpu = c;
          cp->elements[0].cpu = keep;
          break;
        }
    }
    kernel::HoleHeapify::cpudl_heapify_up(cp, idx);
  }
};

}  // namespace diffsched::cpudl::race
