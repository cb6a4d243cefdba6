// The benchmark workloads, generated from fixed seeds so that every bench
// binary, every run and every variant sees the same ops.
//
//   NrCpuIdsScope scope(size.cpus);
//   std::vector<CpudlOp> ops = seed_cpudl_workload(size);
//   for (const CpudlOp& op : ops) cpudl_set(&cp, op.cpu, op.dl, op.is_valid);
//
//   PickWorkload w = pick_workload(PickScenario::kSeed, 64);
//   for (unsigned i : w.order) pick_reference(&w.pool[i].dst_grpmask, ...);
//
// cpudl: the workload the seed patch (000_*, "sched/deadline: make cpu heap
// faster avoiding real swaps on heapify") states for its timing: N random
// pre-v4.9 cpudl_set(cp, cpu, dl, is_valid) calls, 75% with is_valid = 1 and
// 25% with is_valid = 0, random CPU ids, N in {1K, 10K, 100K}, up to 256 CPUs,
// starting from an empty heap. Deadlines are uniform in [0, 2^32), so they fit
// the 2^63 window and ties are rare (the two heaps then stay slot-identical).
//
// pick: pools of (dst_grpmask, cpus, p->cpus_ptr) triples for the destination
// pick of can_migrate_task(), one scenario per pool (see PickScenario).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "kernel/cpumask.h"
#include "kernel/types.h"

namespace diffsched::bench {

using kernel::u64;

// splitmix64: a small deterministic generator, identical on every platform
// (std:: distributions are not), so workloads are the same everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(u64 seed) : state_(seed) {}
  u64 next() {
    u64 z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // below(n): uniform enough in [0, n) for workloads (n << 2^64).
  unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }

 private:
  u64 state_;
};

// ---- cpudl ------------------------------------------------------------------

struct CpudlSize {
  unsigned cpus;  // nr_cpu_ids and cpudl_init()'s nr_cpus
  unsigned ops;   // cpudl_set() calls in one replay
  std::string name() const { return fmt::format("cpus:{}/ops:{}", cpus, ops); }
};

// The seed's grid: 1K, 10K, 100K ops with up to 256 CPUs.
inline constexpr std::array<CpudlSize, 9> kCpudlSizes{{
    {16, 1000}, {16, 10000}, {16, 100000},
    {64, 1000}, {64, 10000}, {64, 100000},
    {256, 1000}, {256, 10000}, {256, 100000},
}};

// One pre-v4.9 call: cpudl_set(cp, cpu, dl, is_valid).
struct CpudlOp {
  int cpu;
  int is_valid;
  u64 dl;
};

// seed_cpudl_ops(cpus, n): n calls, 75% is_valid = 1, from a generator seeded
// by cpus only, so a shorter sequence is a prefix of a longer one. O(n).
inline std::vector<CpudlOp> seed_cpudl_ops(unsigned cpus, size_t n) {
  SplitMix64 rng(0x000cd1ULL * 1000003ULL + cpus);
  std::vector<CpudlOp> ops(n);
  for (CpudlOp& op : ops) {
    op.cpu = static_cast<int>(rng.below(cpus));
    op.is_valid = rng.below(4) != 0;
    op.dl = rng.next() >> 32;
  }
  return ops;
}

// seed_cpudl_workload(size): the size.ops calls that are counted (exact
// counts, callgrind): the first window of seed_cpudl_ops(size.cpus, ...).
inline std::vector<CpudlOp> seed_cpudl_workload(const CpudlSize& size) {
  return seed_cpudl_ops(size.cpus, size.ops);
}

// Timed runs replay a different window of kCpudlTimedOps calls in each
// iteration (window k starts at k * size.ops, wrapping), each from an empty
// heap: replaying one short window again and again would let the branch
// predictor learn it (1K ops ran 3x faster per op than 10K that way).
inline constexpr size_t kCpudlTimedOps = 200000;

inline size_t cpudl_window_start(const CpudlSize& size, kernel::u64 k) {
  const size_t windows = kCpudlTimedOps / size.ops;
  return static_cast<size_t>(k % windows) * size.ops;
}

// The author's own harness for the seed (tomcucinotta/cpudl-bench,
// cpudl_bench.c, a kernel module), as issue 15 describes it: op i on CPU
// i % cpus; r a 64-bit LCG (r = r * 1103515245 + 7917, from 123456789), one
// step per op; cpudl_set(cp, cpu, dl, is_valid) with is_valid = (r & 5) != 5
// (75% set, 25% clear) and dl = 2^63 - range/2 + r % range, range =
// 0x7fffffff, so the deadlines straddle 2^63 (a window far below 2^63 wide:
// dl_time_before stays an order).
//
// Compact, cache-resident form: one u32 per op, bit 31 is_valid, bits 0-30
// r % range; the CPU is i % cpus and the deadline base is a constant, both
// computed in the replay loop (1K ops: 4 KiB, 10K: 40 KiB, 100K: 400 KiB,
// against 16 bytes per op of CpudlOp). The replay is timed as a whole, not
// per op (the author bracketed each op with rdtsc).
inline constexpr u64 kAuthorRange = 0x7fffffff;
inline constexpr u64 kAuthorBase = (u64{1} << 63) - kAuthorRange / 2;

inline std::vector<std::uint32_t> author_cpudl_ops(size_t n) {
  std::vector<std::uint32_t> ops(n);
  u64 r = 123456789;
  for (std::uint32_t& op : ops) {
    r = r * 1103515245ULL + 7917ULL;
    const bool valid = (r & 5) != 5;
    op = static_cast<std::uint32_t>(r % kAuthorRange) | (valid ? 0x80000000u : 0u);
  }
  return ops;
}

// ---- pick -------------------------------------------------------------------

// Inputs of pick_*(dst_grpmask, cpus, allowed):
//   kSeed:  the seed RFC's own test: dst_grpmask = cpu_online_mask (all CPUs),
//           cpus = a random mask (each CPU with probability 1/2), allowed =
//           current's cpus_ptr (all CPUs). The first common CPU is almost
//           always CPU 0 or 1, so the loop stops at once.
//   kGroup: a load-balance step towards one 8-CPU group (an SMT/LLC group) at
//           a random aligned position, cpus = all, allowed = a random half of
//           the CPUs: the answer is usually in that group, far from CPU 0.
//   kMiss:  the task is pinned to one CPU outside the destination group:
//           dst_grpmask = the lower half of the CPUs, cpus = all, allowed = one
//           CPU of the upper half. No CPU qualifies; the loop visits every
//           CPU of the lower half.
enum class PickScenario { kSeed, kGroup, kMiss };

inline constexpr std::array<PickScenario, 3> kPickScenarios{PickScenario::kSeed,
                                                            PickScenario::kGroup,
                                                            PickScenario::kMiss};

inline std::string_view scenario_name(PickScenario s) {
  switch (s) {
    case PickScenario::kSeed: return "seed";
    case PickScenario::kGroup: return "group";
    case PickScenario::kMiss: return "miss";
  }
  return "?";
}

// nr_cpu_ids: the seed's i7-2600 (8), a 64-CPU server, a large one, and a
// very large one.
inline constexpr std::array<unsigned, 4> kPickNrCpus{8, 64, 512, 4096};

struct PickInput {
  kernel::Cpumask dst_grpmask;
  kernel::Cpumask cpus;
  kernel::Cpumask allowed;
};

// A pool holds kPickPool distinct inputs (at most 3 x 256 cache lines touched
// below 512 CPUs, so the masks stay in L1/L2 as in a load-balancing pass); a
// run visits them kPickCalls times in a fixed random order, so the branch
// history does not repeat within a run and predictors cannot learn it.
inline constexpr unsigned kPickPool = 256;
inline constexpr unsigned kPickCalls = 2048;

struct PickWorkload {
  std::vector<PickInput> pool;
  std::vector<unsigned> order;  // kPickCalls indices into pool
};

// pick_pool(s, nr): kPickPool inputs of scenario s. Precondition: an
// NrCpuIdsScope of nr is alive (cpumask_set_cpu checks against it). O(pool * nr).
inline std::vector<PickInput> pick_pool(PickScenario s, unsigned nr) {
  SplitMix64 rng(0x9e1cULL * 1000003ULL + static_cast<u64>(s) * 7919ULL + nr);
  std::vector<PickInput> pool(kPickPool);
  for (PickInput& in : pool) {
    in = PickInput{};
    switch (s) {
      case PickScenario::kSeed:
        for (unsigned c = 0; c < nr; ++c) {
          kernel::cpumask_set_cpu(c, &in.dst_grpmask);
          if (rng.below(2)) kernel::cpumask_set_cpu(c, &in.cpus);
          kernel::cpumask_set_cpu(c, &in.allowed);
        }
        break;
      case PickScenario::kGroup: {
        const unsigned group = nr < 8 ? nr : 8;
        const unsigned first = rng.below(nr / group) * group;
        for (unsigned c = first; c < first + group; ++c)
          kernel::cpumask_set_cpu(c, &in.dst_grpmask);
        for (unsigned c = 0; c < nr; ++c) {
          kernel::cpumask_set_cpu(c, &in.cpus);
          if (rng.below(2)) kernel::cpumask_set_cpu(c, &in.allowed);
        }
        break;
      }
      case PickScenario::kMiss:
        for (unsigned c = 0; c < nr; ++c) {
          if (c < nr / 2) kernel::cpumask_set_cpu(c, &in.dst_grpmask);
          kernel::cpumask_set_cpu(c, &in.cpus);
        }
        kernel::cpumask_set_cpu(nr / 2 + rng.below(nr - nr / 2), &in.allowed);
        break;
    }
  }
  return pool;
}

// pick_workload(s, nr): pick_pool(s, nr) and its visiting order.
inline PickWorkload pick_workload(PickScenario s, unsigned nr) {
  PickWorkload w{pick_pool(s, nr), std::vector<unsigned>(kPickCalls)};
  SplitMix64 rng(0x0dedULL * 1000003ULL + static_cast<u64>(s) * 7919ULL + nr);
  for (unsigned& i : w.order) i = rng.below(kPickPool);
  return w;
}

// ---- names shared with `diffsched bench` ----------------------------------

// "cpudl_set/cpus:256/ops:10000", "pick/seed/nr:64"
inline std::string cpudl_bench_name(const CpudlSize& s) { return "cpudl_set/" + s.name(); }
inline std::string pick_bench_name(PickScenario s, unsigned nr) {
  return fmt::format("pick/{}/nr:{}", scenario_name(s), nr);
}

}  // namespace diffsched::bench
