// find_cap: cpudl_find() with asymmetric CPU capacity on (v5.9+), one test per
// branch. Each checks the answer of both heap sides (src/kernel) and that the
// model (written separately) permits exactly that answer; the lockstep run
// says equivalent. A mutant without the fallback is caught by the model.
#include <gtest/gtest.h>

#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/lockstep.h"
#include "engine/runner.h"
#include "io/program.h"

namespace diffsched::testing {
namespace {

struct Outcome {
  Verdict verdict;
  std::vector<cpudl::FindResult> results;  // per side, of the last op
  bool model_permits = false;
  std::string model_why;
};

// Runs `text` (its last op a find_cap) and asks the model about the last answer.
Outcome run(std::string_view text) {
  std::string error;
  auto program = io::parse_program(text, &error);
  EXPECT_TRUE(program) << error;
  auto& p = std::get<io::Program<cpudl::Subject>>(*program);
  cpudl::Lockstep ls;
  Outcome o;
  o.verdict = run_lockstep<cpudl::Subject>(ls, p.config, std::span<const cpudl::Op>(p.ops),
                                           Level::kExact);
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  for (std::size_t i = 0; i < ls.side_count(); ++i) o.results.push_back(ls.find_result(i));
  bool stale = false;
  o.model_permits =
      ls.model().find_permits(*cpudl::find_args(p.ops.back()), o.results[0], &o.model_why, &stale);
  return o;
}

std::string later(const Outcome& o, std::size_t side) {
  return io::format_value(o.results[side].later_mask);
}

void expect_answer(const Outcome& o, int ret, std::string_view mask) {
  ASSERT_TRUE(o.verdict.ok()) << o.verdict.finding->describe();
  ASSERT_EQ(o.results.size(), 2u);
  for (std::size_t side = 0; side < 2; ++side) {
    EXPECT_EQ(o.results[side].ret, ret) << "side " << side;
    EXPECT_EQ(later(o, side), mask) << "side " << side;
  }
  EXPECT_TRUE(o.model_permits) << o.model_why;
}

// Capacities 1024,512 repeated: CPUs 0, 2 big; 1, 3 little.
constexpr std::string_view kBigLittle = "cpus 4\ncapacity 1024,512\n";

TEST(FindCap, EveryFreeCpuFits) {
  // runtime 256 of deadline 1024: a quarter; 512 * 1024 >> 10 = 512 >= 256.
  expect_answer(run(std::string(kBigLittle) + "set_freecpu 0\nset_freecpu 1\nfind_cap 50 0-3 1 256 1024\n"),
                1, "0-1");
}

TEST(FindCap, OnlyTheCpusTheTaskFitsStay) {
  // runtime 768 of 1024: fits 1024 (1024 >= 768), not 512 (512 < 768).
  expect_answer(run(std::string(kBigLittle) +
                    "set_freecpu 0\nset_freecpu 1\nset_freecpu 3\nfind_cap 50 0-3 1 768 1024\n"),
                1, "0");
}

TEST(FindCap, TheFitTestIsInclusive) {
  // runtime 512 of 1024 on capacity 512: (1024 * 512) >> 10 = 512 >= 512.
  expect_answer(run(std::string(kBigLittle) + "set_freecpu 1\nset_freecpu 3\nfind_cap 50 1,3 0 512 1024\n"),
                1, "1,3");
}

TEST(FindCap, NoneFitsFallsBackToTheLargestCapacity) {
  // runtime 2048 of 1024 fits nowhere: CPU 2 (1024) over CPUs 1, 3 (512).
  expect_answer(run(std::string(kBigLittle) +
                    "set_freecpu 1\nset_freecpu 2\nset_freecpu 3\nfind_cap 50 0-3 3 2048 1024\n"),
                1, "2");
}

TEST(FindCap, ATieOfLargestCapacitiesGoesToTheTasksCpu) {
  // CPUs 0 and 2 both 1024, none fits: the task's CPU 2, not the lower 0.
  expect_answer(run(std::string(kBigLittle) +
                    "set_freecpu 0\nset_freecpu 2\nfind_cap 50 0-3 2 2048 1024\n"),
                1, "2");
}

TEST(FindCap, ATieWithoutTheTasksCpuGoesToTheLowest) {
  // The task runs on CPU 1 (little): of CPUs 0 and 2 (both 1024), CPU 0.
  expect_answer(run(std::string(kBigLittle) +
                    "set_freecpu 0\nset_freecpu 2\nset_freecpu 1\nfind_cap 50 0-3 1 2048 1024\n"),
                1, "0");
}

TEST(FindCap, NoFreeCpuTakesTheMaximumBranch) {
  // No free CPU: like find, the root's CPU if the task's deadline is earlier.
  expect_answer(run(std::string(kBigLittle) + "set 1 100\nset 2 50\nfind_cap 60 0-3 0 2048 1024\n"),
                1, "1");
  expect_answer(run(std::string(kBigLittle) + "set 1 100\nfind_cap 100 0-3 0 256 1024\n"), 0,
                "none");
}

TEST(FindCap, WithoutCapacitiesEveryCpuHas1024) {
  expect_answer(run("cpus 3\nset_freecpu 0\nset_freecpu 2\nfind_cap 5 0-2 1 1024 1024\n"), 1,
                "0,2");
}

TEST(FindCap, TheModelRefusesAWrongAnswer) {
  std::string error;
  auto program = io::parse_program(std::string(kBigLittle) +
                                       "set_freecpu 1\nset_freecpu 2\nfind_cap 50 0-3 3 2048 1024\n",
                                   &error);
  ASSERT_TRUE(program) << error;
  auto& p = std::get<io::Program<cpudl::Subject>>(*program);
  cpudl::Lockstep ls;
  (void)run_lockstep<cpudl::Subject>(ls, p.config, std::span<const cpudl::Op>(p.ops),
                                     Level::kExact);
  kernel::NrCpuIdsScope scope(4);
  cpudl::FindResult wrong{1, true, {}};
  kernel::cpumask_set_cpu(1, &wrong.later_mask);  // little CPU 1: not the largest
  std::string why;
  bool stale = false;
  EXPECT_FALSE(ls.model().find_permits(*cpudl::find_args(p.ops.back()), wrong, &why, &stale));
  EXPECT_NE(why.find("expected 1 with later_mask 2"), std::string::npos) << why;
}

// A find_cap that drops the CPUs the task does not fit and forgets the
// fallback (kshim's broken/v6.19-capacity-no-fallback.c, in C++), on both sides.
template <class Heapify>
class NoFallback final : public cpudl::KernelModelSide<Heapify> {
 public:
  using cpudl::KernelModelSide<Heapify>::KernelModelSide;
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    cpudl::KernelModelSide<Heapify>::apply(op, result);
    const auto* f = std::get_if<cpudl::FindCap>(&op);
    if (!f || result->ret != 1) return;
    auto& cp = this->cp_;
    kernel::Cpumask both;
    if (!kernel::cpumask_and(&both, &cp.free_cpus, &f->affinity)) return;
    for (unsigned c = 0; c < kernel::nr_cpu_ids; ++c)
      if (kernel::cpumask_test_cpu(c, &both) &&
          ((f->deadline * this->capacity_of(static_cast<int>(c))) >> 10) < f->runtime)
        kernel::cpumask_clear_cpu(c, &both);
    result->later_mask = both;  // may be empty: no fallback
  }
};

TEST(FindCap, AMissingFallbackIsCaughtByTheModel) {
  auto make = [] {
    std::vector<std::unique_ptr<cpudl::Side>> s;
    s.push_back(std::make_unique<NoFallback<kernel::SwapHeapify>>("reference"));
    s.push_back(std::make_unique<NoFallback<kernel::HoleHeapify>>("optimized"));
    return std::make_unique<cpudl::Lockstep>(std::move(s));
  };
  std::string error;
  auto program = io::parse_program(std::string(kBigLittle) +
                                       "set_freecpu 1\nfind_cap 50 0-3 0 2048 1024\n",
                                   &error);
  ASSERT_TRUE(program) << error;
  auto& p = std::get<io::Program<cpudl::Subject>>(*program);
  auto ls = make();
  const Verdict v = run_lockstep<cpudl::Subject>(*ls, p.config, std::span<const cpudl::Op>(p.ops),
                                                 Level::kDeadline);
  ASSERT_TRUE(v.finding);
  EXPECT_EQ(v.finding->signature(), "cpudl:model-mismatch:model:find:find_cap");
}

}  // namespace
}  // namespace diffsched::testing
