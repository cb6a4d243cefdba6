// Hand-made cases for the cpumask model: word boundaries, nr_cpu_ids not a
// multiple of 64, NR_CPUS, empty intersections, the cpulist text form.
#include <gtest/gtest.h>

#include "kernel/cpumask.h"
#include "kernel/deadline.h"
#include "support/masks.h"

namespace diffsched::kernel {
namespace {

using test::mask;

TEST(Cpumask, FirstAndNextCrossWordBoundaries) {
  NrCpuIdsScope scope(130);
  const Cpumask m = mask({63, 64, 65, 129});
  EXPECT_EQ(cpumask_first(&m), 63u);
  EXPECT_EQ(cpumask_next(63, &m), 64u);
  EXPECT_EQ(cpumask_next(64, &m), 65u);
  EXPECT_EQ(cpumask_next(65, &m), 129u);
  EXPECT_EQ(cpumask_next(129, &m), 130u);  // not found: nr_cpu_ids
  EXPECT_EQ(cpumask_weight(&m), 4u);
}

TEST(Cpumask, NotFoundIsNrCpuIdsWhenNotAMultipleOf64) {
  NrCpuIdsScope scope(65);
  const Cpumask empty{};
  EXPECT_EQ(cpumask_first(&empty), 65u);
  EXPECT_TRUE(cpumask_empty(&empty));
  const Cpumask last = mask({64});
  EXPECT_EQ(cpumask_first(&last), 64u);
  EXPECT_EQ(cpumask_first_and_and(&last, &last, &last), 64u);
}

TEST(Cpumask, SearchesIgnoreStrayBitsBeyondNrCpuIds) {
  // A stack mask may hold garbage beyond nr_cpu_ids; searches must stop there.
  NrCpuIdsScope scope(65);
  Cpumask m{};
  m.bits[1] = ~0UL << 1;  // bits 65..127: beyond nr_cpu_ids
  EXPECT_EQ(cpumask_first(&m), 65u);
  EXPECT_EQ(cpumask_first_and(&m, &m), 65u);
  EXPECT_EQ(cpumask_first_and_and(&m, &m, &m), 65u);
  EXPECT_EQ(cpumask_weight(&m), 0u);
  EXPECT_TRUE(cpumask_empty(&m));
}

TEST(Cpumask, AndReturnsWhetherTheResultIsNonEmpty) {
  NrCpuIdsScope scope(200);
  const Cpumask a = mask({1, 70, 150}), b = mask({2, 71, 151}), c = mask({70, 199});
  Cpumask dst;
  EXPECT_FALSE(cpumask_and(&dst, &a, &b));
  EXPECT_TRUE(cpumask_empty(&dst));
  EXPECT_TRUE(cpumask_and(&dst, &a, &c));
  EXPECT_EQ(cpumask_first(&dst), 70u);
  EXPECT_EQ(cpumask_weight(&dst), 1u);
}

TEST(Cpumask, LastCpuOfNrCpus) {
  NrCpuIdsScope scope(NR_CPUS);
  const Cpumask m = mask({8191});
  EXPECT_EQ(cpumask_first(&m), 8191u);
  EXPECT_EQ(cpumask_first_and_and(&m, &m, &m), 8191u);
  EXPECT_EQ(cpumask_next(8191, &m), NR_CPUS);
}

TEST(Cpumask, ForEachCpuAndVisitsTheIntersectionInOrder) {
  NrCpuIdsScope scope(192);
  const Cpumask a = mask({0, 63, 64, 128, 191}), b = mask({63, 128, 191, 5});
  std::vector<unsigned> seen;
  unsigned cpu;
  for_each_cpu_and(cpu, &a, &b) seen.push_back(cpu);
  EXPECT_EQ(seen, (std::vector<unsigned>{63, 128, 191}));
}

TEST(CpumaskDeathTest, SettingACpuBeyondNrCpuIdsAborts) {
  NrCpuIdsScope scope(64);
  Cpumask m{};
  EXPECT_DEATH(cpumask_set_cpu(64, &m), "cpumask_check: cpu 64 >= nr_cpu_ids 64");
}

TEST(Cpulist, FormatsLikeTheKernel) {
  NrCpuIdsScope scope(256);
  EXPECT_EQ(cpumask_to_cpulist(mask({0, 1, 2, 3, 64, 130, 131})), "0-3,64,130-131");
  EXPECT_EQ(cpumask_to_cpulist(Cpumask{}), "");
  EXPECT_EQ(cpumask_to_cpulist(mask({255})), "255");
}

TEST(Cpulist, ParsesAndRejectsWithAReason) {
  NrCpuIdsScope scope(128);
  Cpumask m{};
  std::string error;
  ASSERT_TRUE(cpulist_parse("0-3,64,126-127", &m, &error)) << error;
  EXPECT_EQ(cpumask_to_cpulist(m), "0-3,64,126-127");
  EXPECT_FALSE(cpulist_parse("0-128", &m, &error));
  EXPECT_EQ(error, "CPU 128 is out of range (nr_cpu_ids is 128)");
  EXPECT_FALSE(cpulist_parse("5-3", &m, &error));
  EXPECT_EQ(error, "range '5-3' runs backwards");
  EXPECT_FALSE(cpulist_parse("1,x", &m, &error));
  EXPECT_EQ(error, "'x' is not a CPU number");
  EXPECT_FALSE(cpulist_parse("1,", &m, &error));
}

TEST(DlTimeBefore, WrapsAroundAtTheExtremes) {
  constexpr u64 k63 = u64{1} << 63;
  EXPECT_TRUE(dl_time_before(0, 1));
  EXPECT_FALSE(dl_time_before(1, 0));
  EXPECT_FALSE(dl_time_before(5, 5));
  EXPECT_TRUE(dl_time_before(~u64{0}, 0));      // 2^64-1 is just before 0
  EXPECT_TRUE(dl_time_before(k63 - 1, k63));    // across 2^63
  EXPECT_TRUE(dl_time_before(0, k63 - 1));      // 2^63-1 apart: still ordered
  EXPECT_FALSE(dl_time_before(k63 - 1, 0));
  // Exactly 2^63 apart, each is "before" the other: no order any more.
  EXPECT_TRUE(dl_time_before(0, k63));
  EXPECT_TRUE(dl_time_before(k63, 0));
}

TEST(DlWindow, FitsOnlyWhenAllDeadlinesLieWithin2To63) {
  constexpr u64 k63 = u64{1} << 63;
  const u64 ok[] = {~u64{0} - 5, 3, 7};  // straddles 2^64
  EXPECT_TRUE(dl_window_fits(ok));
  const u64 edge[] = {0, k63 - 1};
  EXPECT_TRUE(dl_window_fits(edge));
  const u64 apart[] = {0, k63};
  EXPECT_FALSE(dl_window_fits(apart));
  const u64 cyclic[] = {0, k63 / 3 * 2, k63 / 3 * 4};  // pairwise < 2^63, cyclic order
  EXPECT_FALSE(dl_window_fits(cyclic));
  const u64 same[] = {42, 42, 42};
  EXPECT_TRUE(dl_window_fits(same));
}

}  // namespace
}  // namespace diffsched::kernel
