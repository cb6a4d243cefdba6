// The minimiser (src/engine/minimize): bounded by its budget, logarithmic in
// the size of an integer, and always returning a reproducer that still fails
// with the original signature. Try counts, never wall-clock times.
#include <gtest/gtest.h>

#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/lockstep.h"
#include "engine/runner.h"
#include "io/program.h"
#include "engine/minimize.h"
#include "subjects.h"

namespace diffsched::testing {
namespace {

using kernel::parent;
using kernel::left_child;
using kernel::right_child;

// A swap heap that orders deadlines as plain u64 (`a < b`) instead of with
// dl_time_before(): wrong as soon as two live deadlines straddle 2^64.
struct PlainCompareSwap : kernel::SwapHeapify {
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    while (true) {
      const int l = left_child(idx), r = right_child(idx);
      int largest = idx;
      if (l < cp->size && cp->elements[idx].dl < cp->elements[l].dl) largest = l;
      if (r < cp->size && cp->elements[largest].dl < cp->elements[r].dl) largest = r;
      if (largest == idx) break;
      cpudl_exchange(cp, largest, idx);
      idx = largest;
    }
  }
  template <class CP>
  static void cpudl_heapify_up(CP* cp, int idx) {
    while (idx > 0 && cp->elements[parent(idx)].dl < cp->elements[idx].dl) {
      cpudl_exchange(cp, idx, parent(idx));
      idx = parent(idx);
    }
  }
};

std::vector<std::unique_ptr<cpudl::Side>> plain_compare_sides() {
  std::vector<std::unique_ptr<cpudl::Side>> s;
  s.push_back(cpudl::make_reference_side());
  s.push_back(std::make_unique<cpudl::KernelModelSide<PlainCompareSwap>>("plain-compare"));
  return s;
}

// The sides of this file's runs (and of the minimiser's, passed to it): a
// fixture's own for cpudl, else each subject's.
LockstepSource g_sides;
void use_cpudl_sides(std::vector<std::unique_ptr<cpudl::Side>> (*make)()) {
  g_sides.of<cpudl::Subject>() = nullptr;
  if (make) g_sides.of<cpudl::Subject>() = [make] { return std::make_unique<cpudl::Lockstep>(make()); };
}

// Installs the plain-compare sides as the default lockstep for one test.
class MinimizePlainCompare : public ::testing::Test {
 protected:
  void SetUp() override { use_cpudl_sides(plain_compare_sides); }
  void TearDown() override { use_cpudl_sides(nullptr); }
};

io::AnyProgram parse(const std::string& text) {
  std::string error;
  auto p = io::parse_program(text, &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

// Deadlines near 2^64 that wrap, with noise around them: the old shrinker
// counted such deadlines down by one (2^63 tries for one field).
const char* kWrapProgram =
    "subject cpudl\n"
    "cpus 64\n"
    "set 17 0xfffffffffffffff0\n"
    "set 3 0x7ffffffffffffff0\n"
    "set_freecpu 40\n"
    "set 9 0xfffffffffffff000\n"
    "clear 3\n"
    "set 33 0x10\n"
    "set 21 0x20\n"
    "set 50 0x8000000000000123\n"
    "find 0x30 0-63\n";

std::string signature_of(const io::AnyProgram& program, Level level) {
  return std::visit(
      [&]<class P>(const P& p) {
        using S = typename P::Subject;
        const auto lockstep = make_lockstep<S>(&g_sides);
        const Verdict v = run_lockstep<S>(*lockstep, p.config, p.ops, level);
        return v.finding ? v.finding->signature() : std::string();
      },
      program);
}

std::size_t ops_of(const io::AnyProgram& p) {
  return std::visit([](const auto& q) { return q.ops.size(); }, p);
}

TEST_F(MinimizePlainCompare, WrappingDeadlinesShrinkInLogarithmicTries) {
  const auto program = parse(kWrapProgram);
  const std::string sig = signature_of(program, Level::kDeadline);
  ASSERT_FALSE(sig.empty()) << "the plain-compare heap must fail on wrapping deadlines";
  std::string error;
  auto r = tools::minimize(program, Level::kDeadline, &error, {}, &g_sides);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->minimal) << r->stopped;
  EXPECT_EQ(r->signature, sig);
  EXPECT_EQ(signature_of(r->program, Level::kDeadline), sig);
  EXPECT_LE(ops_of(r->program), 3u) << io::format_program(r->program);
  // Each 64-bit field costs at most ~64 bisection tries plus its anchors, per
  // round: a few thousand in all, never anything like 2^63.
  EXPECT_LT(r->runs, 5000u) << r->runs << " runs";
  std::cout << io::format_program(r->program) << r->runs << " runs\n";
}

TEST_F(MinimizePlainCompare, TriesBudgetStopsWithAFailingReproducer) {
  const auto program = parse(kWrapProgram);
  const std::string sig = signature_of(program, Level::kDeadline);
  for (std::size_t tries : {1u, 2u, 5u, 17u, 60u}) {
    std::string error;
    auto r = tools::minimize(program, Level::kDeadline, &error,
                             {.max_seconds = 0, .max_tries = tries}, &g_sides);
    ASSERT_TRUE(r) << error;
    EXPECT_FALSE(r->minimal) << "tries " << tries;
    EXPECT_NE(r->stopped.find("tries budget"), std::string::npos) << r->stopped;
    EXPECT_LE(r->runs, tries);
    EXPECT_EQ(signature_of(r->program, Level::kDeadline), sig) << "tries " << tries;
    EXPECT_LE(ops_of(r->program), ops_of(program));
  }
}

TEST_F(MinimizePlainCompare, TimeBudgetStopsWithAFailingReproducer) {
  const auto program = parse(kWrapProgram);
  std::string error;
  // A budget that is spent before the second try: only the outcome is checked.
  auto r = tools::minimize(program, Level::kDeadline, &error,
                           {.max_seconds = 1e-9, .max_tries = 0}, &g_sides);
  ASSERT_TRUE(r) << error;
  EXPECT_FALSE(r->minimal);
  EXPECT_NE(r->stopped.find("time budget"), std::string::npos) << r->stopped;
  EXPECT_EQ(signature_of(r->program, Level::kDeadline), signature_of(program, Level::kDeadline));
}

TEST(Minimize, LargeCpuAndNrShrinkByBisection) {
  // The exact-level tie divergence (hole vs swap heap), set on CPUs far up a
  // large nr_cpu_ids: CPUs and nr_cpu_ids shrink without counting down.
  const auto program = parse(
      "subject cpudl\ncpus 8000\n"
      "set 7001 5\nset 6999 5\nset 4000 5\nset 7999 5\nset 123 0xffff\nclear 7001\n");
  std::string error;
  auto r = tools::minimize(program, Level::kExact, &error, {}, &g_sides);
  if (!r) GTEST_SKIP() << "no exact-level finding here: " << error;
  EXPECT_TRUE(r->minimal) << r->stopped;
  EXPECT_LT(r->runs, 3000u) << r->runs << " runs";
  const unsigned nr =
      std::visit([](const auto& p) { return p.config.nr_cpu_ids; }, r->program);
  EXPECT_LE(nr, 8u) << io::format_program(r->program);
}

// A side whose find_cap reads every capacity below 512 as 1024 (a planted
// bug): caught by a find_cap whose task fits only at full capacity.
class CapacityBlindSide : public cpudl::KernelModelSide<kernel::SwapHeapify> {
 public:
  CapacityBlindSide() : KernelModelSide("capacity-blind") {}
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    if (!std::holds_alternative<cpudl::FindCap>(op)) return KernelModelSide::apply(op, result);
    const std::vector<std::uint16_t> real = config_.capacity;
    for (auto& c : config_.capacity)
      if (c < 512) c = 1024;
    KernelModelSide::apply(op, result);
    config_.capacity = real;
  }
};

std::vector<std::unique_ptr<cpudl::Side>> capacity_blind_sides() {
  std::vector<std::unique_ptr<cpudl::Side>> s;
  s.push_back(cpudl::make_reference_side());
  s.push_back(std::make_unique<CapacityBlindSide>());
  return s;
}

class MinimizeCapacityBlind : public ::testing::Test {
 protected:
  void SetUp() override { use_cpudl_sides(capacity_blind_sides); }
  void TearDown() override { use_cpudl_sides(nullptr); }
};

std::vector<std::uint16_t> capacity_of(const io::AnyProgram& p) {
  return std::visit([](const auto& q) -> std::vector<std::uint16_t> {
    if constexpr (requires { q.config.capacity; })
      return q.config.capacity;
    else
      return {};
  }, p);
}

// Issue 22 section 6: the capacity line shrinks, in length and in value. A
// 26-value list of which only CPU 1's (256) matters: one value remains, the
// one nearest 1024 that still fails (511, the planted bound), and the
// reproducer is minimal.
TEST_F(MinimizeCapacityBlind, TheCapacityListShrinksInLengthAndValues) {
  const auto program = parse(
      "subject cpudl\ncpus 2\n"
      "capacity 600,256,1024,512,128,1000,900,300,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
      "17,18\n"
      "set_freecpu 0\nset_freecpu 1\nset 1 7\nclear 1\nset_freecpu 1\n"
      "find_cap 50 0-1 0 512 1024\n");
  ASSERT_EQ(capacity_of(program).size(), 26u);
  const std::string before = signature_of(program, Level::kDeadline);
  ASSERT_FALSE(before.empty());
  std::string error;
  auto r = tools::minimize(program, Level::kDeadline, &error, {}, &g_sides);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->minimal) << r->stopped;
  EXPECT_EQ(r->signature, before);
  EXPECT_EQ(signature_of(r->program, Level::kDeadline), before) << io::format_program(r->program);
  EXPECT_EQ(capacity_of(r->program), std::vector<std::uint16_t>{511})
      << io::format_program(r->program);
  EXPECT_LE(ops_of(r->program), 3u) << io::format_program(r->program);
  EXPECT_LT(r->runs, 2000u) << r->runs << " runs";
}

// A capacity line the failure does not need goes whole.
TEST_F(MinimizePlainCompare, AnUnneededCapacityLineGoes) {
  const auto program = parse(std::string(kWrapProgram).replace(
      std::string(kWrapProgram).find("cpus 64\n"), 8, "cpus 64\ncapacity 1024,512,256\n"));
  ASSERT_EQ(capacity_of(program).size(), 3u);
  std::string error;
  auto r = tools::minimize(program, Level::kDeadline, &error, {}, &g_sides);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(capacity_of(r->program).empty()) << io::format_program(r->program);
}

TEST(Minimize, NothingToMinimiseIsAnError) {
  const auto program = parse("subject cpudl\ncpus 4\nset 1 5\nclear 1\n");
  std::string error;
  EXPECT_FALSE(tools::minimize(program, Level::kDeadline, &error, {}, &g_sides));
  EXPECT_NE(error.find("nothing to minimise"), std::string::npos) << error;
}

// A check other than the lockstep (a race target's, judged_by_target()): every
// try is judged by it, and the lockstep, which sees no finding in these
// programs, is not consulted. The stand-in fails a program that clears CPU 1
// after setting it.
TEST(Minimize, ACallersCheckJudgesEveryTry) {
  std::size_t calls = 0;
  const tools::ProgramCheck check = [&calls](const io::AnyProgram& any) {
    ++calls;
    Verdict v;
    const auto& p = std::get<io::Program<cpudl::Subject>>(any);
    bool set = false;
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      if (const auto* s = std::get_if<cpudl::Set>(&p.ops[i]); s && s->cpu == 1) set = true;
      if (const auto* c = std::get_if<cpudl::Clear>(&p.ops[i]); c && c->cpu == 1 && set) {
        Finding f;
        f.kind = FindingKind::kReader;
        f.subject = "cpudl";
        f.check = "stale";
        f.op_kind = "clear";
        f.op_index = i;
        v.finding = f;
        break;
      }
    }
    v.ops_run = p.ops.size();
    return v;
  };
  const auto program = parse(
      "subject cpudl\ncpus 8\nset 0 7\nset 1 900\nset 2 7\nset 4 7\nclear 2\nclear 1\nset 5 3\n");
  std::string error;
  const auto r = tools::minimize(program, Level::kDeadline, &error, {}, &g_sides, &check);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->signature, "cpudl:reader:stale:clear");
  EXPECT_EQ(io::format_program(r->program), "subject cpudl\ncpus 2\nlevel deadline\nset 1 0\nclear 1\n");
  EXPECT_EQ(calls, r->runs);
  const auto none = parse("subject cpudl\ncpus 4\nset 2 5\nclear 1\n");
  EXPECT_FALSE(tools::minimize(none, Level::kDeadline, &error, {}, &g_sides, &check));
  EXPECT_NE(error.find("nothing to minimise: no finding"), std::string::npos) << error;
}

}  // namespace
}  // namespace diffsched::testing
