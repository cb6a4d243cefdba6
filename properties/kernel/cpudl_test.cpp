// Hand-made cpudl cases, written as .ops text and run through the same
// lockstep runner as every other front end.
#include <gtest/gtest.h>

#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/lockstep.h"
#include "engine/runner.h"
#include "io/program.h"
#include "kernel/heapify.h"

namespace diffsched {
namespace {

Verdict run(std::string_view text, Level level = Level::kDeadline) {
  std::string error;
  auto program = io::parse_program(text, &error);
  EXPECT_TRUE(program) << error;
  auto& p = std::get<io::Program<cpudl::Subject>>(*program);
  cpudl::Lockstep ls;
  return run_lockstep<cpudl::Subject>(ls, p.config, std::span<const cpudl::Op>(p.ops), level);
}

TEST(Cpudl, SetClearFindAgreeOnAPlainSequence) {
  const Verdict v = run(R"(cpus 4
    set_freecpu 0
    set_freecpu 1
    set_freecpu 2
    set_freecpu 3
    set 0 100
    set 1 300
    set 2 200
    find 50 0-2      # CPU... none free in 0-2? 3 is free but not allowed
    find 50 3        # free branch: later_mask 3
    set 1 50         # update key: heapify down
    clear 2
    find_nomask 10 0-3
    clear 0
    clear 1
    find 10 0-3)",
                        Level::kExact);
  EXPECT_TRUE(v.ok()) << v.finding->describe();
  EXPECT_EQ(v.ops_run, 15u);
}

TEST(Cpudl, DeadlinesAcross2To64WrapOrderCorrectly) {
  // 0 comes after 2^64-1: CPU 1 must end at the root on both sides.
  const Verdict v = run(R"(cpus 3
    set 0 0xffffffffffffffff
    set 1 0
    set 2 0x7ffffffffffffffe   # 2^63 - 1 after 2^64-1: the edge of the window
    clear 2
    find 5 0-2)");
  EXPECT_TRUE(v.ok()) << v.finding->describe();
}

TEST(Cpudl, DeadlinesAcross2To63AreFine) {
  const Verdict v = run(R"(cpus 3
    set 0 0x7fffffffffffffff
    set 1 0x8000000000000000
    set 2 0x8000000000000001
    clear 1)");
  EXPECT_TRUE(v.ok()) << v.finding->describe();
}

TEST(Cpudl, DeadlinesExactly2To63ApartAreReportedOutOfDomain) {
  const Verdict v = run(R"(cpus 2
    set 0 0
    set 1 0x8000000000000000)");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.finding->kind, FindingKind::kOutOfDomain) << v.finding->describe();
  EXPECT_EQ(v.finding->op_index, 1u);
}

TEST(Cpudl, FindOnAnEmptyHeapReadsTheStaleRootAndIsNoted) {
  // CPU 2 left the heap and went offline; slot 0 still says 2:100.
  const Verdict v = run(R"(cpus 4
    set 2 100
    clear 2
    clear_freecpu 2
    find 50 2)");
  EXPECT_TRUE(v.ok()) << v.finding->describe();
  EXPECT_EQ(v.notes(NoteKind::kStaleSlotFind), 1u);
}

TEST(Cpudl, SetFreecpuOnAHeapMemberIsSkippedAsAContractBreak) {
  const Verdict v = run(R"(cpus 2
    set 1 10
    set_freecpu 1)");
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.notes(NoteKind::kContractSkip), 1u);
}

TEST(Cpudl, ClearOnlineFollowsTheOnlineFlag) {
  const Verdict v = run(R"(cpus 3
    set 1 10
    clear_online 1 0
    find 5 1
    clear_online 2 1
    find 5 2)");
  EXPECT_TRUE(v.ok()) << v.finding->describe();
}

// CPU hotplug (cpu_down / cpu_up): the down set is state; the kernel never
// names a down CPU except to bring it up, so such ops are skipped.
TEST(Cpudl, CpuDownTakesTheCpuOutOfTheHeapAndTheFreeSet) {
  const Verdict v = run(R"(cpus 3
    set_freecpu 0
    set 1 10
    set 2 20
    cpu_down 1
    find 5 1       # CPU 1 is neither free nor in the heap: nothing
    find 5 0-2     # CPU 0 is free
    cpu_down 0
    find 5 0-2     # the maximum, CPU 2
    cpu_up 1
    find 5 1       # free again
    cpu_up 0
    find_nomask 30 0-2)",
                        Level::kExact);
  EXPECT_TRUE(v.ok()) << v.finding->describe();
  EXPECT_EQ(v.notes(NoteKind::kContractSkip), 0u);
}

TEST(Cpudl, OpsOnADownCpuAreSkippedAsAContractBreak) {
  const Verdict v = run(R"(cpus 2
    cpu_up 1          # not down
    cpu_down 1
    set 1 10          # no task is queued on an offline CPU
    clear 1
    clear_online 1 1
    set_freecpu 1
    clear_freecpu 1
    cpu_down 1        # twice
    cpu_up 1
    set 1 10)");
  EXPECT_TRUE(v.ok()) << v.finding->describe();
  EXPECT_EQ(v.notes(NoteKind::kContractSkip), 7u);
}

TEST(Cpudl, AHeapThatKeepsADownCpuIsCaught) {
  // A side whose rq_offline_dl() forgets cpudl_clear() (e.g. a cpudl_clear()
  // guarded by cpu_active(), which hotplug clears first) keeps CPU 1 in the
  // heap: the model, which knows CPU 1 is down, disagrees.
  struct KeepsDownCpu : cpudl::KernelModelSide<kernel::HoleHeapify> {
    using KernelModelSide::KernelModelSide;
    void apply(const cpudl::Op& op, cpudl::FindResult* r) override {
      if (const auto* d = std::get_if<cpudl::CpuDown>(&op)) {
        kernel::cpudl_clear_freecpu(&cp_, d->cpu);
        return;
      }
      KernelModelSide::apply(op, r);
    }
  };
  std::vector<std::unique_ptr<cpudl::Side>> sides;
  sides.push_back(cpudl::make_reference_side());
  sides.push_back(std::make_unique<KeepsDownCpu>("keeps-down-cpu"));
  cpudl::Lockstep ls(std::move(sides));
  std::string error;
  auto program = io::parse_program("cpus 2\nset 1 5\ncpu_down 1\n", &error);
  ASSERT_TRUE(program) << error;
  auto& p = std::get<io::Program<cpudl::Subject>>(*program);
  const Verdict v =
      run_lockstep<cpudl::Subject>(ls, p.config, std::span<const cpudl::Op>(p.ops), Level::kDeadline);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.finding->op_kind, "cpu_down");
}

TEST(Cpudl, TieAtTheRootIsAcceptedAtDeadlineLevelOnly) {
  // Swap heap keeps CPU 0 at the root, hole heap moves CPU 1 there; a task
  // allowed only on CPU 0 is then placed by one side and not the other.
  constexpr std::string_view kOps = R"(cpus 2
    set 0 5
    set 1 5
    find 1 0)";
  const Verdict deadline = run(kOps, Level::kDeadline);
  EXPECT_TRUE(deadline.ok()) << deadline.finding->describe();
  EXPECT_EQ(deadline.notes(NoteKind::kTieAccepted), 1u);
  const Verdict exact = run(kOps, Level::kExact);
  ASSERT_FALSE(exact.ok());
  EXPECT_EQ(exact.finding->signature(), "cpudl:divergence:exact:slot.cpu:set");
  EXPECT_EQ(exact.finding->op_index, 1u);
}

TEST(Cpudl, AllNrCpusInAndOut) {
  std::string text = "cpus 8192\n";
  for (int c = 0; c < 8192; ++c) text += fmt::format("set {} {}\n", c, (c * 7919) % 1000);
  for (int c = 0; c < 8192; c += 3) text += fmt::format("clear {}\n", c);
  text += "find 1 0-8191\n";
  const Verdict v = run(text);
  EXPECT_TRUE(v.ok()) << v.finding->describe();
}

// The seed's claim: hole-based heapify does about half the stores. For an
// insert that climbs two levels: swap = 3 (insert) + 2 x 6 (cpudl_exchange),
// hole = 3 (insert) + 2 x 3 (pulls) + 3 (final store).
template <class Heapify>
kernel::AccessCounters count_climb_two_levels() {
  kernel::NrCpuIdsScope scope(4);
  kernel::cpudl<Heapify, kernel::Counting> cp;
  kernel::cpudl_init(&cp, 4);
  kernel::cpudl_set(&cp, 0, 30);
  kernel::cpudl_set(&cp, 1, 20);
  kernel::cpudl_set(&cp, 2, 10);
  kernel::access_counters() = {};
  kernel::cpudl_set(&cp, 3, 40);  // slot 3 -> 1 -> 0
  return kernel::access_counters();
}

TEST(CpudlCounters, HoleHeapifyHalvesTheStoresPerLevel) {
  const auto swap = count_climb_two_levels<kernel::SwapHeapify>();
  const auto hole = count_climb_two_levels<kernel::HoleHeapify>();
  EXPECT_EQ(swap.stores, 15u);
  EXPECT_EQ(hole.stores, 12u);
  EXPECT_EQ(swap.compares, 2u);  // idx 3 vs 1, idx 1 vs 0 (loop ends at idx 0)
  EXPECT_EQ(hole.compares, 2u);
}

}  // namespace
}  // namespace diffsched
