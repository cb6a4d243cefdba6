// The properties can fail: planted bugs must be caught by the default
// deadline-level run, and a bug in code both sides share must be caught by
// the invariants or the model (differential comparison alone cannot see it).
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "subjects/cpudl/kernel_side.h"
#include "support/cpudl_state.h"
#include "support/expect_finding.h"
#include "io/binary.h"

namespace diffsched::testing {
namespace {

using kernel::cpudl_heapify;
using kernel::left_child;
using kernel::parent;
using kernel::right_child;

// Mutant 1: the optimized heapify_down forgets the back-pointer of the saved
// item at the end (drops `elements[orig_cpu].idx = idx`).
struct HoleHeapifyNoFinalIdx : kernel::HoleHeapify {
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    int orig_cpu = cp->elements[idx].cpu;
    kernel::u64 orig_dl = cp->elements[idx].dl;
    if (left_child(idx) >= cp->size) return;
    while (true) {
      int l = left_child(idx), r = right_child(idx), largest = idx;
      kernel::u64 largest_dl = orig_dl;
      if (l < cp->size && kernel::dl_time_before(orig_dl, cp->elements[l].dl)) {
        largest = l;
        largest_dl = cp->elements[l].dl;
      }
      if (r < cp->size && kernel::dl_time_before(largest_dl, cp->elements[r].dl)) largest = r;
      if (largest == idx) break;
      cp->elements[idx].cpu = cp->elements[largest].cpu;
      cp->elements[idx].dl = cp->elements[largest].dl;
      cp->elements[cp->elements[idx].cpu].idx = idx;
      idx = largest;
    }
    cp->elements[idx].cpu = orig_cpu;
    cp->elements[idx].dl = orig_dl;
    // BUG: cp->elements[orig_cpu].idx = idx; is missing
  }
};

// Mutant 2: the optimized heapify_up compares the wrong way round.
struct HoleHeapifyUpWrongWay : kernel::HoleHeapify {
  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    int orig_cpu = cp->elements[idx].cpu;
    kernel::u64 orig_dl = cp->elements[idx].dl;
    if (idx == 0) return;
    do {
      int p = parent(idx);
      if (kernel::dl_time_before(cp->elements[p].dl, orig_dl)) break;  // BUG: swapped
      cp->elements[idx].cpu = cp->elements[p].cpu;
      cp->elements[idx].dl = cp->elements[p].dl;
      cp->elements[cp->elements[idx].cpu].idx = idx;
      idx = p;
    } while (idx != 0);
    cp->elements[idx].cpu = orig_cpu;
    cp->elements[idx].dl = orig_dl;
    cp->elements[cp->elements[idx].cpu].idx = idx;
  }
};

// Mutant 3, in shared code: cpudl_clear() forgets to update the back-pointer
// of the CPU moved into the hole. Both sides get it.
template <class Heapify>
class ClearForgetsMovedIdx : public cpudl::KernelModelSide<Heapify> {
 public:
  using cpudl::KernelModelSide<Heapify>::KernelModelSide;
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    const auto* clear = std::get_if<cpudl::Clear>(&op);
    if (!clear) return cpudl::KernelModelSide<Heapify>::apply(op, result);
    auto* cp = &this->cp_;
    int old_idx = cp->elements[clear->cpu].idx;
    if (old_idx == kernel::IDX_INVALID) return;
    int new_cpu = cp->elements[cp->size - 1].cpu;
    cp->elements[old_idx].dl = cp->elements[cp->size - 1].dl;
    cp->elements[old_idx].cpu = new_cpu;
    cp->size--;
    // BUG: cp->elements[new_cpu].idx = old_idx; is missing
    cp->elements[clear->cpu].idx = kernel::IDX_INVALID;
    cpudl_heapify(cp, old_idx);
    kernel::cpumask_set_cpu(static_cast<unsigned>(clear->cpu), &cp->free_cpus);
  }
};

// Mutant 4, in shared code: cpudl_set() of a new CPU forgets to clear its
// free bit (only the free mask is wrong).
template <class Heapify>
class SetLeavesFreeBit final : public cpudl::KernelModelSide<Heapify> {
 public:
  using cpudl::KernelModelSide<Heapify>::KernelModelSide;
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    const auto* set = std::get_if<cpudl::Set>(&op);
    const bool was_free =
        set && kernel::cpumask_test_cpu(static_cast<unsigned>(set->cpu), &this->cp_.free_cpus);
    cpudl::KernelModelSide<Heapify>::apply(op, result);
    if (was_free)  // BUG: the bit cpudl_set() cleared comes back
      kernel::cpumask_set_cpu(static_cast<unsigned>(set->cpu), &this->cp_.free_cpus);
  }
};

// Mutant 5: cpudl_clear() of the optimized side shrinks the heap without
// filling the hole (the last slot's CPU keeps a back-pointer beyond size, the
// hole keeps the removed CPU).
template <class Heapify>
class ClearLeavesHole : public cpudl::KernelModelSide<Heapify> {
 public:
  using cpudl::KernelModelSide<Heapify>::KernelModelSide;
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    const auto* clear = std::get_if<cpudl::Clear>(&op);
    if (!clear) return cpudl::KernelModelSide<Heapify>::apply(op, result);
    auto* cp = &this->cp_;
    if (cp->elements[clear->cpu].idx == kernel::IDX_INVALID) return;
    cp->size--;  // BUG: nothing moves into the hole
    cp->elements[clear->cpu].idx = kernel::IDX_INVALID;
    kernel::cpumask_set_cpu(static_cast<unsigned>(clear->cpu), &cp->free_cpus);
  }
};

// Mutant 6: the optimized set_freecpu marks the next CPU free as well (a
// free bit of a CPU the op does not name).
template <class Heapify>
class SetFreecpuNeighbour final : public cpudl::KernelModelSide<Heapify> {
 public:
  using cpudl::KernelModelSide<Heapify>::KernelModelSide;
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    cpudl::KernelModelSide<Heapify>::apply(op, result);
    if (const auto* o = std::get_if<cpudl::SetFreecpu>(&op))  // BUG: one bit too many
      kernel::cpumask_set_cpu((static_cast<unsigned>(o->cpu) + 1) % kernel::nr_cpu_ids,
                              &this->cp_.free_cpus);
  }
};

// A side whose stores are not logged (as a kernel file through the shim):
// the incremental checks diff its state against a copy instead.
template <class Base>
class Unlogged final : public Base {
 public:
  using Base::Base;
  bool logs_stores() const override { return false; }
};

template <class RefSide, class OptSide>
std::function<std::unique_ptr<cpudl::Lockstep>()> sides() {
  return [] {
    std::vector<std::unique_ptr<cpudl::Side>> s;
    s.push_back(std::make_unique<RefSide>("reference"));
    s.push_back(std::make_unique<OptSide>("optimized"));
    return std::make_unique<cpudl::Lockstep>(std::move(s));
  };
}

ExpectedFinding run_mutant(std::function<std::unique_ptr<cpudl::Lockstep>()> make,
                           unsigned nr) {
  return expect_cpudl_finding([make, nr] {
    run_cpudl_state_check(
        CpudlCheck{.nr_cpu_ids = nr, .level = Level::kDeadline, .make_lockstep = make},
        *gen_window_domain());
  });
}

using Swap = cpudl::KernelModelSide<kernel::SwapHeapify>;

TEST(CpudlMutants, DroppedFinalBackPointerStoreInHeapifyDownIsCaught) {
  auto found = run_mutant(sides<Swap, cpudl::KernelModelSide<HoleHeapifyNoFinalIdx>>(), 8);
  ASSERT_TRUE(found.failed) << "the default deadline-level run missed the planted bug";
  EXPECT_EQ(found.finding->side, "optimized");
  std::cout << found.report;
}

TEST(CpudlMutants, WrongWayComparisonInHeapifyUpIsCaught) {
  auto found = run_mutant(sides<Swap, cpudl::KernelModelSide<HoleHeapifyUpWrongWay>>(), 8);
  ASSERT_TRUE(found.failed) << "the default deadline-level run missed the planted bug";
  EXPECT_EQ(found.finding->side, "optimized");
  std::cout << found.report;
}

TEST(CpudlMutants, SharedBugInClearIsCaughtByInvariantsOrModelNotByComparison) {
  auto found = run_mutant(sides<ClearForgetsMovedIdx<kernel::SwapHeapify>,
                                ClearForgetsMovedIdx<kernel::HoleHeapify>>(),
                          8);
  ASSERT_TRUE(found.failed) << "a bug both sides share went unnoticed";
  EXPECT_TRUE(found.finding->kind == FindingKind::kInvariant ||
              found.finding->kind == FindingKind::kModelMismatch)
      << found.finding->describe();
  std::cout << found.report;
}

}  // namespace
}  // namespace diffsched::testing

namespace diffsched::testing {
namespace {

// The incremental checks (default) and the full ones give the same verdict,
// at the same op, on random inputs, for the correct sides and every mutant,
// with the sides' store logs and without them (diffing against a copy).
std::function<std::unique_ptr<cpudl::Lockstep>()> check_mode_sides(int which) {
  using Hole = cpudl::KernelModelSide<kernel::HoleHeapify>;
  switch (which) {
    case 0: return [] { return std::make_unique<cpudl::Lockstep>(); };
    case 1: return sides<Swap, cpudl::KernelModelSide<HoleHeapifyNoFinalIdx>>();
    case 2: return sides<Swap, cpudl::KernelModelSide<HoleHeapifyUpWrongWay>>();
    case 3:
      return sides<ClearForgetsMovedIdx<kernel::SwapHeapify>,
                   ClearForgetsMovedIdx<kernel::HoleHeapify>>();
    case 4:
      return sides<SetLeavesFreeBit<kernel::SwapHeapify>, SetLeavesFreeBit<kernel::HoleHeapify>>();
    case 5: return sides<Swap, ClearLeavesHole<kernel::HoleHeapify>>();
    case 6: return sides<Swap, SetFreecpuNeighbour<kernel::HoleHeapify>>();
    // Without store logs: the correct sides, and mutants 1, 3 and 5.
    case 7: return sides<Unlogged<Swap>, Unlogged<Hole>>();
    case 8: return sides<Unlogged<Swap>, Unlogged<cpudl::KernelModelSide<HoleHeapifyNoFinalIdx>>>();
    case 9:
      return sides<Unlogged<ClearForgetsMovedIdx<kernel::SwapHeapify>>,
                   Unlogged<ClearForgetsMovedIdx<kernel::HoleHeapify>>>();
    default: return sides<Unlogged<Swap>, Unlogged<ClearLeavesHole<kernel::HoleHeapify>>>();
  }
}
constexpr int kCheckModeSides = 11;

struct ModeVerdicts {
  Verdict incremental, full;
};

ModeVerdicts run_both_modes(int which, const std::vector<std::uint8_t>& bytes, Level level) {
  const auto make = check_mode_sides(which);
  const auto program = io::decode_body<cpudl::Subject>(bytes);
  const auto ops = std::span<const cpudl::Op>(program.ops);
  auto incremental = make();
  auto full = make();
  incremental->set_check_mode(cpudl::CheckMode::kIncremental);
  full->set_check_mode(cpudl::CheckMode::kFull);
  return {run_lockstep<cpudl::Subject>(*incremental, program.config, ops, level),
          run_lockstep<cpudl::Subject>(*full, program.config, ops, level)};
}

// "" if both verdicts agree (first failing op, finding kind and signature,
// description, ops run), else what differs.
std::string mode_difference(const ModeVerdicts& v) {
  const Verdict& a = v.incremental;
  const Verdict& b = v.full;
  if (a.finding.has_value() != b.finding.has_value())
    return fmt::format("incremental: {}; full: {}",
                       a.finding ? a.finding->describe() : "no finding",
                       b.finding ? b.finding->describe() : "no finding");
  if (b.finding && (a.finding->signature() != b.finding->signature() ||
                    a.finding->op_index != b.finding->op_index ||
                    a.finding->describe() != b.finding->describe()))
    return fmt::format("incremental: {}; full: {}", a.finding->describe(),
                       b.finding->describe());
  if (a.ops_run != b.ops_run) return fmt::format("ops run {} vs {}", a.ops_run, b.ops_run);
  return "";
}

RC_GTEST_PROP(CpudlCheckModes, IncrementalAndFullChecksGiveTheSameVerdict, ()) {
  // Small heaps (2..16 CPUs, window base 0) and up to 400 bytes of ops.
  std::vector<std::uint8_t> bytes{*rc::gen::element<std::uint8_t>(1, 2, 3, 4, 6, 7), 0};
  const auto body = *rc::gen::resize(400, rc::gen::arbitrary<std::vector<std::uint8_t>>());
  bytes.insert(bytes.end(), body.begin(), body.end());
  const Level level = *rc::gen::element(Level::kExact, Level::kDeadline);
  const int which = *rc::gen::inRange(0, kCheckModeSides);
  const ModeVerdicts v = run_both_modes(which, bytes, level);
  RC_CLASSIFY(v.full.finding.has_value(), "finding");
  RC_ASSERT(mode_difference(v) == "");
}

// Deterministic and not vacuous: for every pair of sides, seeded random
// programs (8 to 256 CPUs, up to 2,000 bytes) give the same verdict in both
// modes, and every broken pair is caught at least once in each mode.
TEST(CpudlCheckModes, SameVerdictsOnSeededProgramsAndEveryMutantIsCaught) {
  std::mt19937_64 rng(16);
  constexpr std::uint8_t kCpus[] = {6, 7, 14, 0xf0};  // 8, 16, 256, then two bytes
  for (int which = 0; which < kCheckModeSides; ++which) {
    int caught = 0;
    for (int program = 0; program < 60; ++program) {
      const std::uint8_t cpus = kCpus[program % 4];
      std::vector<std::uint8_t> bytes{cpus};
      if (cpus == 0xf0) bytes.insert(bytes.end(), {static_cast<std::uint8_t>(rng() % 200), 0});
      bytes.push_back(0);  // window base 0
      const std::size_t n = 20 + rng() % 2000;
      for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<std::uint8_t>(rng()));
      const Level level = program % 2 ? Level::kExact : Level::kDeadline;
      const ModeVerdicts v = run_both_modes(which, bytes, level);
      ASSERT_EQ(mode_difference(v), "") << "sides " << which << ", program " << program;
      if (v.full.finding && v.full.finding->kind != FindingKind::kDivergence) ++caught;
      if (v.full.finding && which != 0 && which != 7) ++caught;
    }
    if (which == 0 || which == 7)
      EXPECT_EQ(caught, 0) << "correct sides " << which << ": an invariant or model finding";
    else
      EXPECT_GT(caught, 0) << "broken sides " << which << " were never caught";
  }
}

}  // namespace
}  // namespace diffsched::testing
