// Stateful RapidCheck properties of the cpudl subject: the hole-based heap
// (seed patch) against the swap-based one and the simple model.
#include <iostream>

#include "support/cpudl_state.h"
#include "support/expect_finding.h"

namespace diffsched::testing {
namespace {

void hole_heap_matches_swap_heap(unsigned nr) {
  const Domain domain = *gen_window_domain();
  run_cpudl_state_check(CpudlCheck{.nr_cpu_ids = nr, .level = Level::kDeadline}, domain);
}

#define CPUDL_DEADLINE_PROPERTY(N)                                                   \
  RC_GTEST_PROP(CpudlDeadlineLevel, HoleHeapMatchesSwapHeapAndModelWith##N##Cpus, ()) { \
    hole_heap_matches_swap_heap(N);                                                  \
  }

CPUDL_DEADLINE_PROPERTY(1)
CPUDL_DEADLINE_PROPERTY(2)
CPUDL_DEADLINE_PROPERTY(3)
CPUDL_DEADLINE_PROPERTY(63)
CPUDL_DEADLINE_PROPERTY(64)
CPUDL_DEADLINE_PROPERTY(65)
CPUDL_DEADLINE_PROPERTY(256)
CPUDL_DEADLINE_PROPERTY(8192)

// With deadlines anywhere in u64, the kernel's assumption can break; every
// finding must then be reported as out-of-domain, never as an ordinary one.
RC_GTEST_PROP(CpudlUnconstrainedDomain, EveryFindingNeedsLiveDeadlinesSpanning2To63, ()) {
  const unsigned nr = *rc::gen::element(3u, 8u, 64u);
  run_cpudl_state_check(
      CpudlCheck{.nr_cpu_ids = nr, .level = Level::kDeadline, .tolerate_out_of_domain = true},
      *gen_unconstrained_domain());
}

// The exact level is expected to fail: with equal deadlines the hole-based
// cpudl_heapify_up() moves an item above an equal parent and the swap-based
// one does not. RapidCheck must find it and shrink it to at most 3 ops.
class CpudlExactLevel : public ::testing::TestWithParam<unsigned> {};

TEST_P(CpudlExactLevel, RapidCheckFindsTheTieDivergenceAndShrinksItToAtMostThreeOps) {
  const unsigned nr = GetParam();
  const auto found = expect_cpudl_finding([nr] {
    run_cpudl_state_check(CpudlCheck{.nr_cpu_ids = nr, .level = Level::kExact},
                          *gen_window_domain());
  });
  ASSERT_TRUE(found.failed) << "RapidCheck did not find the exact-level tie divergence";
  ASSERT_TRUE(found.finding.has_value());
  EXPECT_EQ(found.finding->kind, FindingKind::kDivergence) << found.finding->describe();
  EXPECT_EQ(found.finding->check, "exact");
  EXPECT_LE(found.ops.size(), 3u) << found.report;
  std::cout << found.report;
}

INSTANTIATE_TEST_SUITE_P(Cpus, CpudlExactLevel, ::testing::Values(2u, 4u, 64u));

}  // namespace
}  // namespace diffsched::testing
