// Heaps drawn size first (issue 28): nr_cpu_ids, then how many CPUs the heap
// holds (up to nr_cpu_ids, often around a power of two, where a new depth
// starts), the order their deadlines come in, and then updates and clears of
// the items; the hole-based heap must match the swap-based one and the model
// at the deadline level. Random op sequences seldom hold 32 CPUs at once in a
// chosen order; this property always does.
#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/runner.h"
#include "subjects/cpudl/lockstep.h"

namespace diffsched::testing {
namespace {

using kernel::u64;

std::vector<cpudl::Op> deep_program(unsigned nr, unsigned size, unsigned order, u64 base,
                                    u64 shuffle_seed,
                                    const std::vector<std::tuple<unsigned, unsigned, int>>& tail) {
  std::vector<int> cpus(nr);
  std::iota(cpus.begin(), cpus.end(), 0);
  std::mt19937_64 g(shuffle_seed);
  std::shuffle(cpus.begin(), cpus.end(), g);
  cpus.resize(size);
  std::vector<cpudl::Op> ops;
  std::vector<u64> dl(nr, 0);
  for (unsigned i = 0; i < size; ++i) {
    const u64 step = i;
    switch (order) {
      case 0: dl[cpus[i]] = base + step; break;                              // ascending
      case 1: dl[cpus[i]] = base - step; break;                              // descending
      case 2: dl[cpus[i]] = base; break;                                     // equal
      case 3: dl[cpus[i]] = i % 2 ? base - step : base + step; break;        // interleaved
      default: dl[cpus[i]] = base + g() % (2 * size + 1) - size; break;      // random
    }
    ops.push_back(cpudl::Set{cpus[i], dl[cpus[i]]});
  }
  // Then: an update next to another item's deadline, a clear, or a find.
  for (const auto& [kind, which, delta] : tail) {
    const int cpu = cpus[which % size];
    const u64 near = dl[cpus[(which / 7) % size]] + static_cast<u64>(static_cast<std::int64_t>(delta));
    if (kind % 4 == 0) ops.push_back(cpudl::Clear{cpu});
    else if (kind % 4 == 3) ops.push_back(cpudl::Find{near, {}});
    else ops.push_back(cpudl::Set{cpu, dl[cpu] = near});
  }
  return ops;
}

RC_GTEST_PROP(CpudlDeepHeaps, HoleHeapMatchesSwapHeapAndModelWhenTheHeapIsFilledFirst, ()) {
  const unsigned nr = *rc::gen::element(32u, 64u, 65u, 128u, 256u);
  const unsigned size = std::min(
      nr, *rc::gen::oneOf(rc::gen::element(31u, 32u, 33u, 63u, 64u, 65u, 127u, 128u, 129u),
                          rc::gen::inRange(1u, nr + 1)));
  const unsigned order = *rc::gen::inRange(0u, 5u);
  const u64 base = *rc::gen::element<u64>(1000, (u64{1} << 63) - 64, u64{0} - 64);
  const u64 shuffle_seed = *rc::gen::arbitrary<u64>();
  const auto tail = *rc::gen::container<std::vector<std::tuple<unsigned, unsigned, int>>>(
      rc::gen::tuple(rc::gen::inRange(0u, 4u), rc::gen::arbitrary<unsigned>(),
                     rc::gen::inRange(-2, 3)));
  const auto ops = deep_program(nr, size, order, base, shuffle_seed, tail);
  cpudl::Lockstep ls;
  const Verdict v = run_lockstep<cpudl::Subject>(ls, cpudl::Config{nr, {}},
                                                 std::span<const cpudl::Op>(ops), Level::kDeadline);
  RC_ASSERT(v.ok());
}

}  // namespace
}  // namespace diffsched::testing
