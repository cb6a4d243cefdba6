// The lockless-reader analysis (src/subjects/cpudl/race.h): each class on a
// side that reaches it, the planted bugs of issue 26 as findings of their
// own kind, and the bounded exhaustive mode.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cpudl/planted_race.h"
#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/race.h"
#include "subjects/cpudl/race_bounded.h"

namespace diffsched::cpudl::race {
namespace {

// The planted bugs (OutOfRangeRootHeapify, PhantomRootHeapify): planted_race.h.

// A side whose stores are not all logged: the analysis must refuse it.
class UnloggedSide : public KernelModelSide<kernel::HoleHeapify> {
 public:
  UnloggedSide() : KernelModelSide("unlogged") {}
  void apply(const Op& op, FindResult* r) override {
    KernelModelSide::apply(op, r);
    if (cp_.size > 1) {
      kernel::StoreLog* saved = kernel::active_store_log;
      kernel::active_store_log = nullptr;
      cp_.elements[cp_.size].dl = 77;  // an unlogged write to a slot beyond size
      kernel::active_store_log = saved;
    }
  }
};

Config cpus(unsigned n) {
  Config c;
  c.nr_cpu_ids = n;
  return c;
}

std::vector<Op> fill_then_clear_root() {
  // CPU 2 (latest deadline) is the root; clearing it refills the root.
  return {Set{0, 10}, Set{1, 20}, Set{2, 30}, Set{3, 15}, Clear{2}};
}

bool has(const RaceResult& r, const std::string& signature) {
  for (const RaceFinding& f : r.findings)
    if (f.signature == signature) return true;
  return false;
}

TEST(RaceAnalysis, BuiltInHeapsReachConsistentStaleAndTornAndShareThem) {
  auto ref = make_reference_side();
  auto opt = make_optimized_side();
  const RaceResult r = analyze_race(cpus(4), fill_then_clear_root(), {ref.get(), opt.get()});
  ASSERT_EQ(r.error, "");
  for (const SideRace& s : r.sides) {
    EXPECT_GT(s.counts[kConsistent], 0u) << s.name;
    EXPECT_GT(s.counts[kStale], 0u) << s.name;
    EXPECT_GT(s.counts[kTorn], 0u) << s.name;
    EXPECT_EQ(s.counts[kPhantom], 0u) << s.name;
    EXPECT_EQ(s.counts[kImpossible], 0u) << s.name;
  }
  EXPECT_TRUE(r.findings.empty());
  bool torn_clear_shared = false;
  for (const auto& [cls, kind] : r.shared)
    torn_clear_shared |= cls == kTorn && op_kind_name(kind) == "clear";
  EXPECT_TRUE(torn_clear_shared);
}

TEST(RaceAnalysis, TornRootNamesTheStoreBetweenTheTwoLoads) {
  auto ref = make_reference_side();
  const RaceResult r = analyze_race(cpus(4), fill_then_clear_root(), {ref.get()});
  ASSERT_EQ(r.error, "");
  const auto& torn = r.sides[0].first[kTorn][Op(Clear{}).index()];
  ASSERT_TRUE(torn.has_value());
  EXPECT_EQ(torn->op_index, 4u);
  EXPECT_LT(torn->tc, torn->td);  // cpu and dl seen at different points
  EXPECT_NE(torn->store_text.find("elements[0]"), std::string::npos) << torn->store_text;
}

TEST(RaceAnalysis, PlantedOutOfRangeRootIsAnImpossibleFindingAtClear) {
  auto ref = make_reference_side();
  KernelModelSide<OutOfRangeRootHeapify> planted("planted-out-of-range");
  const std::vector<Side*> sides{ref.get(), &planted};
  const RaceResult r = analyze_race(cpus(4), fill_then_clear_root(), sides);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(has(r, "cpudl:reader:impossible:clear"));
  EXPECT_EQ(r.sides[0].counts[kImpossible], 0u);
  const auto& e = *r.sides[1].first[kImpossible][Op(Clear{}).index()];
  EXPECT_EQ(e.cpu, -1);
  EXPECT_NE(e.store_text.find("elements[0].cpu = -1"), std::string::npos) << e.store_text;
  const std::vector<Op> min =
      minimize_race(cpus(4), fill_then_clear_root(), sides, "cpudl:reader:impossible:clear");
  EXPECT_LE(min.size(), 3u);  // two CPUs in the heap, then the clear of the root
  EXPECT_TRUE(has(analyze_race(cpus(4), min, sides), "cpudl:reader:impossible:clear"));
}

TEST(RaceAnalysis, PlantedPhantomRootIsAPhantomFindingAtSet) {
  auto ref = make_reference_side();
  KernelModelSide<PhantomRootHeapify> planted("planted-phantom");
  const std::vector<Side*> sides{ref.get(), &planted};
  const RaceResult r = analyze_race(cpus(4), {Set{0, 10}, Set{1, 20}}, sides);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(has(r, "cpudl:reader:phantom:set"));
  EXPECT_EQ(r.sides[0].counts[kPhantom], 0u);
  const auto& e = *r.sides[1].first[kPhantom][Op(Set{}).index()];
  EXPECT_EQ(e.cpu, 3);  // the highest CPU in the heap neither before nor after
  EXPECT_EQ(e.op_index, 1u);
}

// A bound on the load triples (kernel-check --race's fuzzing stage): the
// analysis stops at the op that passes it, the ops before it analysed as an
// unbounded run of that prefix analyses them; without a bound, or under a
// bound above the whole program's, nothing is cut.
TEST(RaceAnalysis, ABoundStopsAtTheOpThatPassesIt) {
  auto ref = make_reference_side();
  KernelModelSide<PhantomRootHeapify> planted("planted-phantom");
  const std::vector<Side*> sides{ref.get(), &planted};
  std::vector<Op> ops{Set{0, 10}, Set{1, 20}};
  for (int c = 2; c < 32; ++c) ops.push_back(Set{c, static_cast<u64>(100 + c)});
  const std::vector<Task> tasks = task_set(cpus(64), ops);  // the same for the prefix
  const RaceResult whole = analyze_race(cpus(64), ops, sides, &tasks);
  ASSERT_EQ(whole.error, "");
  EXPECT_EQ(whole.cut_at, 0u);
  const std::uint64_t all = whole.sides[0].readers + whole.sides[1].readers;
  EXPECT_EQ(analyze_race(cpus(64), ops, sides, &tasks, false, all).cut_at, 0u);
  // Cut where the first two ops have been analysed in full.
  const RaceResult two = analyze_race(cpus(64), {ops[0], ops[1]}, sides, &tasks);
  const std::uint64_t bound = two.sides[0].readers + two.sides[1].readers;
  const RaceResult cut = analyze_race(cpus(64), ops, sides, &tasks, false, bound);
  ASSERT_EQ(cut.error, "");
  ASSERT_GT(cut.cut_at, 2u);
  EXPECT_LT(cut.cut_at, ops.size());
  EXPECT_GT(cut.sides[0].readers + cut.sides[1].readers, bound);
  EXPECT_LT(cut.sides[0].readers + cut.sides[1].readers, all);
  // The planted phantom at op 1 is in the analysed prefix: still a finding.
  EXPECT_TRUE(has(cut, "cpudl:reader:phantom:set"));
  EXPECT_TRUE(has(whole, "cpudl:reader:phantom:set"));
}

TEST(RaceAnalysis, ASideThatStoresWithoutLoggingIsRefused) {
  UnloggedSide side;
  const RaceResult r = analyze_race(cpus(4), {Set{0, 10}, Set{1, 20}, Set{2, 5}}, {&side});
  EXPECT_NE(r.error.find("without logging"), std::string::npos) << r.error;
}

// From the same state, the hole heap's stores show a reader no class the
// swap heap's do not (docs/findings.md).
TEST(RaceBounded, FromTheSameStateTheHoleHeapExposesNothingNew) {
  auto ref = make_reference_side();
  auto opt = make_optimized_side();
  RaceBounds b;
  b.cpus = 3;
  b.deadlines = 2;
  b.max_ops = 3;
  b.same_state = true;
  const RaceBoundedResult r = race_bounded(b, {ref.get(), opt.get()});
  ASSERT_EQ(r.error, "");
  EXPECT_FALSE(r.program.has_value());
  EXPECT_EQ(r.step_differences, 0u);
  EXPECT_GT(r.states, 10u);
  EXPECT_GT(r.totals[1].counts[kTorn], 0u);
  EXPECT_EQ(r.totals[0].counts[kTorn], r.totals[1].counts[kTorn]);
}

// Along its own program the hole heap orders equal deadlines differently
// (the known exact-level divergence), and from that layout a set tears the
// root where the swap heap's layout needs no root store: the shortest
// program is three ops.
TEST(RaceBounded, AlongTheirOwnProgramsTheTieLayoutGivesATornSet) {
  auto ref = make_reference_side();
  auto opt = make_optimized_side();
  RaceBounds b;
  b.cpus = 3;
  b.deadlines = 2;
  b.max_ops = 3;
  const RaceBoundedResult r = race_bounded(b, {ref.get(), opt.get()});
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.program.has_value());
  ASSERT_EQ(r.program->size(), 3u);
  EXPECT_TRUE(has(r.replay, "cpudl:reader:torn:set"));
  const Set* first = std::get_if<Set>(&(*r.program)[0]);
  const Set* second = std::get_if<Set>(&(*r.program)[1]);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->dl.value, second->dl.value);  // a tie
}

TEST(RaceBounded, PlantedPhantomGivesTheShortestProgram) {
  auto ref = make_reference_side();
  KernelModelSide<PhantomRootHeapify> planted("planted-phantom");
  RaceBounds b;
  b.cpus = 3;
  b.deadlines = 2;
  b.max_ops = 3;
  const RaceBoundedResult r = race_bounded(b, {ref.get(), &planted});
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.program.has_value());
  EXPECT_EQ(r.program->size(), 2u);  // one CPU in the heap, a second one below it
  EXPECT_TRUE(has(r.replay, "cpudl:reader:phantom:set"));
}

TEST(RaceBounded, PlantedOutOfRangeRootGivesTheShortestProgram) {
  auto ref = make_reference_side();
  KernelModelSide<OutOfRangeRootHeapify> planted("planted-out-of-range");
  RaceBounds b;
  b.cpus = 3;
  b.deadlines = 2;
  b.max_ops = 3;
  const RaceBoundedResult r = race_bounded(b, {ref.get(), &planted});
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.program.has_value());
  EXPECT_EQ(r.program->size(), 2u);  // a CPU in the heap, then set again: heapify_down(0)
  ASSERT_FALSE(r.replay.findings.empty());
  EXPECT_EQ(r.replay.findings[0].cls, kImpossible);
}

}  // namespace
}  // namespace diffsched::cpudl::race
