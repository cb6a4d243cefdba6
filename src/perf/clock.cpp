#include "perf/clock.h"

#include <chrono>
#include <memory>
#include <vector>

#include "kernel/cpudeadline.h"
#include "kernel/heapify.h"
#include "kernel/pick.h"

namespace diffsched::perf {

namespace {

using Clock = std::chrono::steady_clock;

template <class Heapify>
using Heap = kernel::cpudl<Heapify>;

// One pass: replays of the input, each on a fresh heap (initialised outside
// the timed region), until `budget` seconds were timed; returns ns per op.
template <class Heapify>
double cpudl_pass(Heap<Heapify>* cp, std::span<const cpudl::Op> ops, unsigned cpus,
                  double budget) {
  std::chrono::nanoseconds timed{0};
  std::size_t done = 0;
  while (done == 0 || static_cast<double>(timed.count()) < budget * 1e9) {
    kernel::cpudl_init(cp, cpus);
    const auto t0 = Clock::now();
    for (const cpudl::Op& op : ops) {
      if (const auto* s = std::get_if<cpudl::Set>(&op)) {
        kernel::cpudl_set(cp, s->cpu, s->dl);
      } else if (const auto* c = std::get_if<cpudl::Clear>(&op)) {
        kernel::cpudl_clear(cp, c->cpu);
      } else if (const auto* co = std::get_if<cpudl::ClearOnline>(&op)) {
        kernel::cpudl_clear(cp, co->cpu, co->online);
      } else if (const auto* d = std::get_if<cpudl::CpuDown>(&op)) {
        kernel::cpudl_clear(cp, d->cpu);
      }
    }
    timed += Clock::now() - t0;
    done += ops.size();
  }
  return static_cast<double>(timed.count()) / static_cast<double>(done);
}

// One pass of a pick: blocks of calls over the input's ops until `budget`
// seconds; returns ns per call. The result feeds a sink so no call is dropped.
double pick_pass(pick::PickFn fn, std::span<const pick::Op> ops, double budget) {
  constexpr std::size_t kBlock = 256;
  std::chrono::nanoseconds timed{0};
  std::size_t done = 0;
  unsigned sink = 0;
  while (done == 0 || static_cast<double>(timed.count()) < budget * 1e9) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < kBlock; ++i) {
      const auto& p = std::get<pick::Pick>(ops[i % ops.size()]);
      sink += fn(&p.dst, &p.cpus, &p.allowed);
    }
    timed += Clock::now() - t0;
    done += kBlock;
  }
  asm volatile("" : : "r"(sink));
  return static_cast<double>(timed.count()) / static_cast<double>(done);
}

ClockResult summarise(const std::vector<double>& ref, const std::vector<double>& side) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < ref.size(); ++i) ratios.push_back(side[i] / ref[i]);
  return {tools::summarize(ref), tools::summarize(side), tools::summarize(ratios)};
}

}  // namespace

template <>
ClockResult time_input<cpudl::Subject>(std::span<const cpudl::Op> ops, unsigned cpus,
                                       std::size_t, const ClockOptions& o) {
  if (ops.empty()) return {};
  kernel::NrCpuIdsScope scope(cpus);
  auto swap = std::make_unique<Heap<kernel::SwapHeapify>>();
  auto hole = std::make_unique<Heap<kernel::HoleHeapify>>();
  std::vector<double> ref, opt;
  for (unsigned rep = 0; rep < o.repetitions; ++rep) {
    // Alternate which side goes first.
    if (rep % 2 == 0) {
      ref.push_back(cpudl_pass(swap.get(), ops, cpus, o.seconds_per_rep));
      opt.push_back(cpudl_pass(hole.get(), ops, cpus, o.seconds_per_rep));
    } else {
      opt.push_back(cpudl_pass(hole.get(), ops, cpus, o.seconds_per_rep));
      ref.push_back(cpudl_pass(swap.get(), ops, cpus, o.seconds_per_rep));
    }
  }
  return summarise(ref, opt);
}

template <>
ClockResult time_input<pick::Subject>(std::span<const pick::Op> ops, unsigned cpus,
                                      std::size_t side, const ClockOptions& o) {
  if (ops.empty()) return {};
  kernel::NrCpuIdsScope scope(cpus);
  const pick::PickFn ref_fn = kernel::pick_reference;
  const pick::PickFn side_fn = side == 2 ? kernel::pick_fused : kernel::pick_optimized;
  std::vector<double> ref, opt;
  for (unsigned rep = 0; rep < o.repetitions; ++rep) {
    if (rep % 2 == 0) {
      ref.push_back(pick_pass(ref_fn, ops, o.seconds_per_rep));
      opt.push_back(pick_pass(side_fn, ops, o.seconds_per_rep));
    } else {
      opt.push_back(pick_pass(side_fn, ops, o.seconds_per_rep));
      ref.push_back(pick_pass(ref_fn, ops, o.seconds_per_rep));
    }
  }
  return summarise(ref, opt);
}

}  // namespace diffsched::perf
