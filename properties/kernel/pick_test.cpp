// Hand-made cases for the three destination picks.
#include <gtest/gtest.h>

#include "kernel/pick.h"
#include "support/masks.h"

namespace diffsched::kernel {
namespace {

using test::mask;

void expect_all(unsigned want, const Cpumask& d, const Cpumask& c, const Cpumask& a) {
  EXPECT_EQ(pick_reference(&d, &c, &a), want);
  EXPECT_EQ(pick_optimized(&d, &c, &a), want);
  EXPECT_EQ(pick_fused(&d, &c, &a), want);
}

TEST(Pick, FirstCommonCpuAcrossWordBoundaries) {
  NrCpuIdsScope scope(192);
  expect_all(64, mask({3, 64, 65}), mask({64, 65, 3}), mask({63, 64, 65}));
  expect_all(65, mask({63, 65}), mask({64, 65}), mask({63, 64, 65}));
  expect_all(191, mask({0, 191}), mask({1, 191}), mask({2, 191}));
}

TEST(Pick, NoneIsNrCpuIds) {
  NrCpuIdsScope scope(65);
  expect_all(65, mask({1, 2}), mask({2, 3}), mask({1, 3}));  // pairwise, never all three
  expect_all(65, Cpumask{}, mask({0}), mask({0}));
}

TEST(Pick, OnlyCpuAtNrCpus) {
  NrCpuIdsScope scope(NR_CPUS);
  expect_all(8191, mask({8191}), mask({8191}), mask({8191}));
  expect_all(8192, mask({8191}), mask({8191}), mask({8190}));
}

TEST(Pick, OneCpuSystem) {
  NrCpuIdsScope scope(1);
  expect_all(0, mask({0}), mask({0}), mask({0}));
  expect_all(1, mask({0}), Cpumask{}, mask({0}));
}

}  // namespace
}  // namespace diffsched::kernel
