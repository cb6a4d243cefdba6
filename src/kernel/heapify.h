// The two heapify strategies compared by diffsched; everything else in
// cpudeadline.h is shared.
//
//   SwapHeapify  (reference): cpudl_heapify_up/down as before the seed patch
//                (v3.14 .. v4.8, after the series' 1/3 refactor): each step
//                swaps the item with its parent or largest child through
//                cpudl_exchange(), which also swaps the two back-pointers.
//   HoleHeapify  (optimized): the seed patch (merged in v4.9, unchanged since):
//                save the item, pull parents/children one level into the hole,
//                store the saved item once at the end.
//
// Both keep "adapted from lib/prio_heap.c" max-heap order under dl_time_before.
// They differ on equal deadlines: HoleHeapify's heapify_up only stops at a
// parent whose deadline is strictly later, so it moves an item above an equal
// parent; SwapHeapify's only moves it above a strictly earlier one.
#pragma once

#include <utility>

#include "kernel/cpudeadline.h"

namespace diffsched::kernel {

struct SwapHeapify {
  // swap(a, b) as include/linux/minmax.h: one load and one store per side.
  template <class F>
  static void swap_field(F& a, F& b) {
    auto tmp = raw_load(a);
    a = b;
    b = tmp;
  }

  // cpudl_exchange(cp, a, b): swaps slots a and b and the two CPUs' idx.
  template <class CP>
  static void cpudl_exchange(CP* cp, int a, int b) {
    int cpu_a = cp->elements[a].cpu, cpu_b = cp->elements[b].cpu;

    swap_field(cp->elements[a].cpu, cp->elements[b].cpu);
    swap_field(cp->elements[a].dl, cp->elements[b].dl);

    swap_field(cp->elements[cpu_a].idx, cp->elements[cpu_b].idx);
  }

  // O(log size): one exchange per level.
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    int l, r, largest;

    // adapted from lib/prio_heap.c
    while (true) {
      l = left_child(idx);
      r = right_child(idx);
      largest = idx;

      if ((l < cp->size) && dl_time_before(cp->elements[idx].dl, cp->elements[l].dl))
        largest = l;
      if ((r < cp->size) && dl_time_before(cp->elements[largest].dl, cp->elements[r].dl))
        largest = r;
      if (largest == idx) break;

      // Push idx down the heap one level and bump one up.
      cpudl_exchange(cp, largest, idx);
      idx = largest;
    }
  }

  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    while (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, cp->elements[idx].dl)) {
      cpudl_exchange(cp, idx, parent(idx));
      idx = parent(idx);
    }
  }

 private:
  // Reads a field into a plain temporary, counting one load if instrumented.
  template <class F>
  static auto raw_load(const F& f) {
    if constexpr (kIsCounted<F>)
      return static_cast<decltype(f.raw())>(f);
    else
      return f;
  }
};

struct HoleHeapify {
  // O(log size): one pull (3 stores) per level, then one final store of the
  // saved item.
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    int l, r, largest;

    int orig_cpu = cp->elements[idx].cpu;
    u64 orig_dl = cp->elements[idx].dl;

    if (left_child(idx) >= cp->size) return;

    // adapted from lib/prio_heap.c
    while (true) {
      u64 largest_dl;
      l = left_child(idx);
      r = right_child(idx);
      largest = idx;
      largest_dl = orig_dl;

      if ((l < cp->size) && dl_time_before(orig_dl, cp->elements[l].dl)) {
        largest = l;
        largest_dl = cp->elements[l].dl;
      }
      if ((r < cp->size) && dl_time_before(largest_dl, cp->elements[r].dl))
        largest = r;

      if (largest == idx) break;

      // move the larger child up into the hole at idx
      cp->elements[idx].cpu = cp->elements[largest].cpu;
      cp->elements[idx].dl = cp->elements[largest].dl;
      cp->elements[cp->elements[idx].cpu].idx = idx;
      idx = largest;
    }
    // store the saved item once, in the final hole
    cp->elements[idx].cpu = orig_cpu;
    cp->elements[idx].dl = orig_dl;
    cp->elements[cp->elements[idx].cpu].idx = idx;
  }

  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    int p;

    int orig_cpu = cp->elements[idx].cpu;
    u64 orig_dl = cp->elements[idx].dl;

    if (idx == 0) return;

    do {
      p = parent(idx);
      if (dl_time_before(orig_dl, cp->elements[p].dl)) break;
      // move the parent down into the hole at idx
      cp->elements[idx].cpu = cp->elements[p].cpu;
      cp->elements[idx].dl = cp->elements[p].dl;
      cp->elements[cp->elements[idx].cpu].idx = idx;
      idx = p;
    } while (idx != 0);
    // store the saved item once, in the final hole
    cp->elements[idx].cpu = orig_cpu;
    cp->elements[idx].dl = orig_dl;
    cp->elements[cp->elements[idx].cpu].idx = idx;
  }
};

}  // namespace diffsched::kernel
