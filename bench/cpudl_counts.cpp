// bench_cpudl_counts: exact element loads, stores and compares of the swap
// and hole heaps on the seed workload (the instrumented build: cpudl<...,
// kernel::Counting>, whose fields are Counted<T>, see kernel/counters.h).
//
//   bench_cpudl_counts --benchmark_format=json
//
// One benchmark per size, "cpudl_counts/cpus:N/ops:M", one iteration each
// (counts are exact, not timed). The heapify policy is wrapped in a probe
// (ProbedHeapify) that attributes the counters to each heapify call and
// records how many levels the item moved:
//
//   a heapify is a call of cpudl_heapify_up() or cpudl_heapify_down() (from
//   cpudl_set() or through cpudl_heapify()); it is NON-TRIVIAL when the item
//   that sat in slot idx on entry ends in another slot, i.e. it moved at least
//   one level; levels = |depth(final slot) - depth(idx)|,
//   depth(i) = floor(log2(i + 1)).
//
// Counters (prefix "swap." or "hole."):
//   loads_per_op, stores_per_op, compares_per_op   per cpudl_set() call
//   nontrivial            number of non-trivial heapifies
//   nontrivial_stores     mean stores per non-trivial heapify (also _loads,
//                         _compares); the seed: "roughly half stores wrt swaps"
//   trivial, trivial_stores   the same for heapifies that moved nothing
//   L<k>.calls, L<k>.stores   heapifies that moved k levels, mean stores
// Only element fields (dl, cpu, idx) are counted; the free_cpus mask is not.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_main.h"
#include "kernel/counters.h"
#include "kernel/cpudeadline.h"
#include "kernel/heapify.h"
#include "workload.h"

namespace diffsched::bench {
namespace {

using kernel::AccessCounters;
using kernel::access_counters;
using kernel::u64;

constexpr int kMaxLevels = 14;  // NR_CPUS = 8192: depth <= 13

struct LevelTally {
  u64 calls = 0;
  AccessCounters sum;
};

// Per-heapify tallies, indexed by levels moved (0: trivial).
struct HeapifyTally {
  std::array<LevelTally, kMaxLevels> by_levels{};
};

HeapifyTally& tally() {
  thread_local HeapifyTally t;
  return t;
}

int depth(int slot) { return std::bit_width(static_cast<unsigned>(slot) + 1) - 1; }

AccessCounters minus(const AccessCounters& a, const AccessCounters& b) {
  return {a.loads - b.loads, a.stores - b.stores, a.compares - b.compares};
}

// ProbedHeapify<Inner>: Inner's heapify, plus the per-call tally. Reads for
// the probe go through kernel::raw() and are not counted.
template <class Inner>
struct ProbedHeapify {
  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    probe(cp, idx, [&] { Inner::cpudl_heapify_up(cp, idx); });
  }
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    probe(cp, idx, [&] { Inner::cpudl_heapify_down(cp, idx); });
  }

 private:
  template <class CP, class F>
  static void probe(CP* cp, int idx, F&& heapify) {
    const int cpu = kernel::raw(cp->elements[idx].cpu);
    const AccessCounters before = access_counters();
    heapify();
    const AccessCounters delta = minus(access_counters(), before);
    // After cpudl_clear() of the last slot, idx is beyond size and its CPU is
    // out of the heap: nothing can move.
    const int end = kernel::raw(cp->elements[cpu].idx);
    const int levels = (end < 0 || idx >= cp->size) ? 0 : std::abs(depth(end) - depth(idx));
    LevelTally& t = tally().by_levels[static_cast<size_t>(levels)];
    ++t.calls;
    t.sum.loads += delta.loads;
    t.sum.stores += delta.stores;
    t.sum.compares += delta.compares;
  }
};

template <class Heapify>
using CountedHeap = kernel::cpudl<ProbedHeapify<Heapify>, kernel::Counting>;

template <class Heapify>
void count(benchmark::State& state, const char* prefix, const CpudlSize& size,
           std::span<const CpudlOp> ops) {
  auto cp = std::make_unique<CountedHeap<Heapify>>();
  kernel::cpudl_init(cp.get(), size.cpus);
  tally() = {};
  access_counters() = {};
  for (const CpudlOp& op : ops) kernel::cpudl_set(cp.get(), op.cpu, op.dl, op.is_valid);
  const AccessCounters total = access_counters();

  auto set = [&](const std::string& name, double v) {
    state.counters[fmt::format("{}.{}", prefix, name)] = v;
  };
  const double n_ops = static_cast<double>(ops.size());
  set("loads_per_op", static_cast<double>(total.loads) / n_ops);
  set("stores_per_op", static_cast<double>(total.stores) / n_ops);
  set("compares_per_op", static_cast<double>(total.compares) / n_ops);

  LevelTally nontrivial;
  for (int k = 1; k < kMaxLevels; ++k) {
    const LevelTally& t = tally().by_levels[static_cast<size_t>(k)];
    nontrivial.calls += t.calls;
    nontrivial.sum.loads += t.sum.loads;
    nontrivial.sum.stores += t.sum.stores;
    nontrivial.sum.compares += t.sum.compares;
    if (t.calls == 0) continue;
    set(fmt::format("L{}.calls", k), static_cast<double>(t.calls));
    set(fmt::format("L{}.stores", k), static_cast<double>(t.sum.stores) / static_cast<double>(t.calls));
  }
  const auto mean = [](u64 sum, u64 calls) {
    return calls ? static_cast<double>(sum) / static_cast<double>(calls) : 0.0;
  };
  set("nontrivial", static_cast<double>(nontrivial.calls));
  set("nontrivial_loads", mean(nontrivial.sum.loads, nontrivial.calls));
  set("nontrivial_stores", mean(nontrivial.sum.stores, nontrivial.calls));
  set("nontrivial_compares", mean(nontrivial.sum.compares, nontrivial.calls));
  const LevelTally& trivial = tally().by_levels[0];
  set("trivial", static_cast<double>(trivial.calls));
  set("trivial_stores", mean(trivial.sum.stores, trivial.calls));
}

void bm_counts(benchmark::State& state, CpudlSize size) {
  kernel::NrCpuIdsScope scope(size.cpus);
  const std::vector<CpudlOp> ops = seed_cpudl_workload(size);
  for (auto _ : state) {
    count<kernel::SwapHeapify>(state, "swap", size, ops);
    count<kernel::HoleHeapify>(state, "hole", size, ops);
  }
}

}  // namespace
}  // namespace diffsched::bench

int main(int argc, char** argv) {
  using namespace diffsched::bench;
  strip_bench_args(&argc, argv);  // counts are exact: always one iteration
  for (const CpudlSize& size : kCpudlSizes) {
    benchmark::RegisterBenchmark(fmt::format("cpudl_counts/{}", size.name()).c_str(), bm_counts,
                                 size)
        ->Iterations(1)
        ->Repetitions(1);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
