// The properties can fail: planted bugs must be caught by the default
// deadline-level run, and a bug in code both sides share must be caught by
// the invariants or the model (differential comparison alone cannot see it).
#include <iostream>

#include "cpudl/kernel_side.h"
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
class ClearForgetsMovedIdx final : public cpudl::KernelModelSide<Heapify> {
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
// at the same op, on random inputs, for the correct sides and every mutant.
RC_GTEST_PROP(CpudlCheckModes, IncrementalAndFullChecksGiveTheSameVerdict, ()) {
  // Small heaps (2..16 CPUs, window base 0) and up to 400 bytes of ops.
  std::vector<std::uint8_t> bytes{*rc::gen::element<std::uint8_t>(1, 2, 3, 4, 6, 7), 0};
  const auto body = *rc::gen::resize(400, rc::gen::arbitrary<std::vector<std::uint8_t>>());
  bytes.insert(bytes.end(), body.begin(), body.end());
  const Level level = *rc::gen::element(Level::kExact, Level::kDeadline);
  const int which = *rc::gen::inRange(0, 4);
  std::function<std::unique_ptr<cpudl::Lockstep>()> make;
  switch (which) {
    case 0: make = [] { return std::make_unique<cpudl::Lockstep>(); }; break;
    case 1: make = sides<Swap, cpudl::KernelModelSide<HoleHeapifyNoFinalIdx>>(); break;
    case 2: make = sides<Swap, cpudl::KernelModelSide<HoleHeapifyUpWrongWay>>(); break;
    default:
      make = sides<ClearForgetsMovedIdx<kernel::SwapHeapify>,
                   ClearForgetsMovedIdx<kernel::HoleHeapify>>();
  }
  const auto program = io::decode_body<cpudl::Subject>(bytes);
  const auto ops = std::span<const cpudl::Op>(program.ops);
  auto incremental = make();
  auto full = make();
  incremental->set_check_mode(cpudl::CheckMode::kIncremental);
  full->set_check_mode(cpudl::CheckMode::kFull);
  const Verdict a = run_lockstep<cpudl::Subject>(*incremental, program.config, ops, level);
  const Verdict b = run_lockstep<cpudl::Subject>(*full, program.config, ops, level);
  RC_CLASSIFY(b.finding.has_value(), "finding");
  RC_ASSERT(a.finding.has_value() == b.finding.has_value());
  if (b.finding) {
    RC_ASSERT(a.finding->signature() == b.finding->signature());
    RC_ASSERT(a.finding->op_index == b.finding->op_index);
    RC_ASSERT(a.finding->describe() == b.finding->describe());
  }
  RC_ASSERT(a.ops_run == b.ops_run);
}

}  // namespace
}  // namespace diffsched::testing
