// bench_cpudl: wall-clock time of cpudl_set() on the reference heap
// (SwapHeapify) and the optimized heap (HoleHeapify), side by side.
//
//   bench_cpudl --benchmark_repetitions=15 --benchmark_format=json
//   valgrind --tool=callgrind --collect-atstart=no bench_cpudl --icount
//
// One benchmark per size of the seed's workload (workload.h),
// "cpudl_set/cpus:N/ops:M". Each iteration replays one window of M calls
// (the next one each iteration, see cpudl_window_start) on each heap, each
// from a fresh cpudl_init(), in alternating order (swap first on even
// iterations); only the replays are timed. Counters of a repetition (medians
// over its iterations, see SideBySide):
//   ref_ns, opt_ns   ns per cpudl_set() call on the swap / hole heap
//   ratio            hole time / swap time of the same iteration (below 1:
//                    the hole heap is faster)
// With --icount each (size, heap) replay is one callgrind region
// "cpudl_set/cpus:N/ops:M/{swap,hole}", the same replay() code as timed.
#include <memory>
#include <span>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_main.h"
#include "kernel/cpudeadline.h"
#include "kernel/heapify.h"
#include "workload.h"

namespace diffsched::bench {
namespace {

using SwapHeap = kernel::cpudl<kernel::SwapHeapify>;
using HoleHeap = kernel::cpudl<kernel::HoleHeapify>;

// replay(cp, ops): the measured code, the same for timing and for callgrind.
template <class Heap>
[[gnu::noinline]] void replay(Heap* cp, std::span<const CpudlOp> ops) {
  for (const CpudlOp& op : ops) kernel::cpudl_set(cp, op.cpu, op.dl, op.is_valid);
  benchmark::ClobberMemory();
}

// replay_author(cp, ops, cpus): the author's stream (workload.h), decoded from
// its compact form in the loop.
template <class Heap>
[[gnu::noinline]] void replay_author(Heap* cp, std::span<const std::uint32_t> ops, unsigned cpus) {
  unsigned cpu = 0;
  for (const std::uint32_t op : ops) {
    kernel::cpudl_set(cp, static_cast<int>(cpu), kAuthorBase + (op & 0x7fffffffu),
                      static_cast<int>(op >> 31));
    if (++cpu == cpus) cpu = 0;
  }
  benchmark::ClobberMemory();
}

template <class Heap>
double timed_replay(Heap* cp, const CpudlSize& size, std::span<const CpudlOp> ops) {
  kernel::cpudl_init(cp, size.cpus);
  return time_ns([&] { replay(cp, ops); });
}

void bm_cpudl_set(benchmark::State& state, CpudlSize size) {
  kernel::NrCpuIdsScope scope(size.cpus);
  const std::vector<CpudlOp> all = seed_cpudl_ops(size.cpus, kCpudlTimedOps);
  auto swap = std::make_unique<SwapHeap>();
  auto hole = std::make_unique<HoleHeap>();
  SideBySide<2> times(static_cast<size_t>(state.max_iterations));
  kernel::u64 iter = 0;
  for (auto _ : state) {
    const std::span<const CpudlOp> ops(all.data() + cpudl_window_start(size, iter), size.ops);
    if (iter % 2 == 0) {
      times.add(0, timed_replay(swap.get(), size, ops));
      times.add(1, timed_replay(hole.get(), size, ops));
    } else {
      times.add(1, timed_replay(hole.get(), size, ops));
      times.add(0, timed_replay(swap.get(), size, ops));
    }
    times.end_iteration();
    ++iter;
  }
  // Both heaps must end with the same size and maximum deadline, or the
  // comparison is meaningless.
  if (swap->size != hole->size || (swap->size > 0 && swap->elements[0].dl != hole->elements[0].dl)) {
    state.SkipWithError("swap and hole heaps disagree after the workload");
    return;
  }
  const double calls = static_cast<double>(size.ops);
  state.counters["ref_ns"] = times.median_ns(0) / calls;
  state.counters["opt_ns"] = times.median_ns(1) / calls;
  state.counters["ratio"] = times.median_ratio(1);
}

// "cpudl_author/cpus:N/ops:M": the author's workload, as his harness ran it:
// the same stream from an empty heap in every iteration (it is one fixed
// stream), both heaps in alternating order; counters as bm_cpudl_set.
void bm_cpudl_author(benchmark::State& state, CpudlSize size) {
  kernel::NrCpuIdsScope scope(size.cpus);
  const std::vector<std::uint32_t> ops = author_cpudl_ops(size.ops);
  auto swap = std::make_unique<SwapHeap>();
  auto hole = std::make_unique<HoleHeap>();
  SideBySide<2> times(static_cast<size_t>(state.max_iterations));
  auto timed = [&](auto* cp) {
    kernel::cpudl_init(cp, size.cpus);
    return time_ns([&] { replay_author(cp, std::span<const std::uint32_t>(ops), size.cpus); });
  };
  kernel::u64 iter = 0;
  for (auto _ : state) {
    if (iter % 2 == 0) {
      times.add(0, timed(swap.get()));
      times.add(1, timed(hole.get()));
    } else {
      times.add(1, timed(hole.get()));
      times.add(0, timed(swap.get()));
    }
    times.end_iteration();
    ++iter;
  }
  if (swap->size != hole->size || (swap->size > 0 && swap->elements[0].dl != hole->elements[0].dl)) {
    state.SkipWithError("swap and hole heaps disagree after the workload");
    return;
  }
  const double calls = static_cast<double>(size.ops);
  state.counters["ref_ns"] = times.median_ns(0) / calls;
  state.counters["opt_ns"] = times.median_ns(1) / calls;
  state.counters["ratio"] = times.median_ratio(1);
}

std::string author_bench_name(const CpudlSize& size) {
  return fmt::format("cpudl_author/{}", size.name());
}

int run_icount(const BenchArgs& args) {
  if (!kHaveCallgrind) {
    fmt::print(stderr, "bench_cpudl: built without valgrind/callgrind.h, --icount unavailable\n");
    return 2;
  }
  for (const CpudlSize& size : kCpudlSizes) {
    kernel::NrCpuIdsScope scope(size.cpus);
    const std::vector<CpudlOp> ops = seed_cpudl_workload(size);
    auto swap = std::make_unique<SwapHeap>();
    auto hole = std::make_unique<HoleHeap>();
    kernel::cpudl_init(swap.get(), size.cpus);
    icount_region(cpudl_bench_name(size) + "/swap", ops.size(), [&] { replay(swap.get(), ops); });
    kernel::cpudl_init(hole.get(), size.cpus);
    icount_region(cpudl_bench_name(size) + "/hole", ops.size(), [&] { replay(hole.get(), ops); });
    const std::vector<std::uint32_t> author = author_cpudl_ops(size.ops);
    const std::span<const std::uint32_t> a(author);
    kernel::cpudl_init(swap.get(), size.cpus);
    icount_region(author_bench_name(size) + "/swap", a.size(),
                  [&] { replay_author(swap.get(), a, size.cpus); });
    kernel::cpudl_init(hole.get(), size.cpus);
    icount_region(author_bench_name(size) + "/hole", a.size(),
                  [&] { replay_author(hole.get(), a, size.cpus); });
    if (args.smoke) break;
  }
  return 0;
}

}  // namespace
}  // namespace diffsched::bench

int main(int argc, char** argv) {
  using namespace diffsched::bench;
  const BenchArgs args = strip_bench_args(&argc, argv);
  if (args.icount) return run_icount(args);
  for (const CpudlSize& size : kCpudlSizes) {
    auto* b = benchmark::RegisterBenchmark(cpudl_bench_name(size).c_str(), bm_cpudl_set, size);
    b->Unit(benchmark::kMicrosecond);
    if (args.single_iteration) b->Iterations(1)->Repetitions(1);
  }
  for (const CpudlSize& size : kCpudlSizes) {
    auto* b = benchmark::RegisterBenchmark(author_bench_name(size).c_str(), bm_cpudl_author, size);
    b->Unit(benchmark::kMicrosecond);
    if (args.single_iteration) b->Iterations(1)->Repetitions(1);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
