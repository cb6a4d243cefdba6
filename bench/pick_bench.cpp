// bench_pick: wall-clock time of the three destination picks of
// can_migrate_task() (src/kernel/pick.h), side by side.
//
//   bench_pick --benchmark_repetitions=15 --benchmark_format=json
//   valgrind --tool=callgrind --collect-atstart=no bench_pick --icount
//
// One benchmark per scenario and nr_cpu_ids (workload.h),
// "pick/{seed,group,miss}/nr:N". Each iteration times one block per variant,
// the kPickCalls out-of-line calls of the scenario's workload, in rotating
// order (reference, optimized, fused first in turn).
// Counters of a repetition (medians over its iterations, see SideBySide):
//   reference_ns, optimized_ns, fused_ns   ns per call
//   optimized_ratio, fused_ratio           variant time / reference time of
//                                          the same iteration
// With --icount each (scenario, nr, variant) runs the same kPickCalls calls as
// one callgrind region "pick/<scenario>/nr:N/<variant>".
#include <array>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_main.h"
#include "kernel/pick.h"
#include "workload.h"

namespace diffsched::bench {
namespace {

using PickFn = unsigned (*)(const kernel::Cpumask*, const kernel::Cpumask*,
                            const kernel::Cpumask*);

struct Variant {
  const char* name;
  PickFn fn;
};
// Index 0 is the reference.
constexpr std::array<Variant, 3> kVariants{{{"reference", kernel::pick_reference},
                                            {"optimized", kernel::pick_optimized},
                                            {"fused", kernel::pick_fused}}};

// run_picks<F>(w): the measured code, the same for timing and for callgrind.
// A direct call per input (pick.cpp is a separate object, so the call is
// real); returns the sum of the answers so nothing is optimised away.
template <PickFn F>
[[gnu::noinline]] unsigned run_picks(const PickWorkload& w) {
  unsigned sum = 0;
  for (unsigned i : w.order) {
    const PickInput& in = w.pool[i];
    sum += F(&in.dst_grpmask, &in.cpus, &in.allowed);
  }
  return sum;
}

unsigned run_variant(size_t v, const PickWorkload& w) {
  switch (v) {
    case 0: return run_picks<kVariants[0].fn>(w);
    case 1: return run_picks<kVariants[1].fn>(w);
    default: return run_picks<kVariants[2].fn>(w);
  }
}

void bm_pick(benchmark::State& state, PickScenario scenario, unsigned nr) {
  kernel::NrCpuIdsScope scope(nr);
  const PickWorkload w = pick_workload(scenario, nr);
  SideBySide<kVariants.size()> times(static_cast<size_t>(state.max_iterations));
  std::array<unsigned, kVariants.size()> answers{};
  kernel::u64 iter = 0;
  for (auto _ : state) {
    for (size_t k = 0; k < kVariants.size(); ++k) {
      const size_t v = (iter + k) % kVariants.size();
      times.add(v, time_ns([&] { answers[v] = run_variant(v, w); }));
    }
    times.end_iteration();
    ++iter;
  }
  if (answers[1] != answers[0] || answers[2] != answers[0]) {
    state.SkipWithError("pick variants disagree on the pool");
    return;
  }
  const double calls = static_cast<double>(w.order.size());
  for (size_t v = 0; v < kVariants.size(); ++v)
    state.counters[fmt::format("{}_ns", kVariants[v].name)] = times.median_ns(v) / calls;
  for (size_t v = 1; v < kVariants.size(); ++v)
    state.counters[fmt::format("{}_ratio", kVariants[v].name)] = times.median_ratio(v);
}

int run_icount(const BenchArgs& args) {
  if (!kHaveCallgrind) {
    fmt::print(stderr, "bench_pick: built without valgrind/callgrind.h, --icount unavailable\n");
    return 2;
  }
  for (PickScenario s : kPickScenarios) {
    for (unsigned nr : kPickNrCpus) {
      kernel::NrCpuIdsScope scope(nr);
      const PickWorkload w = pick_workload(s, nr);
      for (size_t v = 0; v < kVariants.size(); ++v) {
        unsigned sum = 0;
        icount_region(fmt::format("{}/{}", pick_bench_name(s, nr), kVariants[v].name),
                      w.order.size(), [&] { sum = run_variant(v, w); });
        benchmark::DoNotOptimize(sum);
      }
      if (args.smoke) return 0;
    }
  }
  return 0;
}

}  // namespace
}  // namespace diffsched::bench

int main(int argc, char** argv) {
  using namespace diffsched::bench;
  const BenchArgs args = strip_bench_args(&argc, argv);
  if (args.icount) return run_icount(args);
  for (PickScenario s : kPickScenarios) {
    for (unsigned nr : kPickNrCpus) {
      auto* b = benchmark::RegisterBenchmark(pick_bench_name(s, nr).c_str(), bm_pick, s, nr);
      b->Unit(benchmark::kMicrosecond);
      if (args.single_iteration) b->Iterations(1)->Repetitions(1);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
