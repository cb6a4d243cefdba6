// diffsched perf: the counted costs match the facts stated in issue 15 and
// docs/bench.md, and the search is deterministic and beats random generation.
// Counts only: nothing here reads a clock.
#include <gtest/gtest.h>

#include "kernel/cpumask.h"
#include "perf/cost.h"
#include "perf/search.h"
#include "subjects/cpudl/perf.h"
#include "subjects/pick/perf.h"

namespace diffsched::perf {
namespace {

using kernel::Cpumask;

Cpumask all(unsigned n) {
  Cpumask m{};
  for (unsigned c = 0; c < n; ++c) m.bits[c / 64] |= 1UL << (c % 64);
  return m;
}
Cpumask one(unsigned c) {
  Cpumask m{};
  m.bits[c / 64] |= 1UL << (c % 64);
  return m;
}

Evaluation eval_pick(unsigned cpus, const pick::Pick& p) {
  Evaluator<pick::Subject> ev;
  const std::vector<pick::Op> ops{p};
  return ev.run(ops, pick::Config{cpus});
}

// Dense masks at 8192 CPUs: the loop stops at CPU 0 after one word of each
// mask, the RFC ANDs all 128 words twice; the fused form reads one word of each.
TEST(PerfPick, DenseMasksAt8192TheRfcReadsEveryWord) {
  const Evaluation e = eval_pick(8192, {all(8192), all(8192), all(8192)});
  ASSERT_FALSE(e.verdict.finding);
  EXPECT_EQ(e.sides[0].words, 3u);        // dst, cpus word 0; allowed test
  EXPECT_EQ(e.sides[0].iterations, 2u);   // one word step, one loop pass
  EXPECT_EQ(e.sides[1].words, 4u * 128 + 1);
  EXPECT_EQ(e.sides[1].iterations, 2u * 128 + 1);
  EXPECT_EQ(e.sides[2].words, 3u);
  EXPECT_EQ(e.sides[2].iterations, 1u);
  EXPECT_GT(ratio(e.cost(Metric::kWork, 1), e.cost(Metric::kWork, 0)), 100.0);
}

// The only common CPU is the last: the loop visits every CPU of dst & cpus.
TEST(PerfPick, OnlyLastCpuCommonTheLoopIsSlow) {
  const Evaluation e = eval_pick(8192, {all(8192), all(8192), one(8191)});
  ASSERT_FALSE(e.verdict.finding);
  EXPECT_EQ(e.sides[0].iterations, 2u * 8192);  // a word step and a pass per CPU
  EXPECT_LT(ratio(e.cost(Metric::kWork, 1), e.cost(Metric::kWork, 0)), 0.05);
  EXPECT_LT(ratio(e.cost(Metric::kWork, 2), e.cost(Metric::kWork, 0)), 0.05);
}

// No common CPU, empty first mask: the fused form reads three words per word
// where the loop reads two, so its counted cost is higher (the search finds it).
TEST(PerfPick, FusedReadsThreeWordsWhereTheLoopReadsTwo) {
  const Evaluation e = eval_pick(8192, {Cpumask{}, all(8192), all(8192)});
  EXPECT_EQ(e.sides[0].words, 2u * 128);
  EXPECT_EQ(e.sides[2].words, 3u * 128);
}

// cpudl: a heapify_down that moves nothing costs the hole heap 3 stores (the
// saved item written back), the swap heap none; one that moves k levels costs
// 6k (swap) and 3k + 3 (hole).
TEST(PerfCpudl, StoresPerHeapify) {
  Evaluator<cpudl::Subject> ev;
  const cpudl::Config config{8};
  // Heap: 0:100 at the root, 1:90 and 2:80 below it.
  std::vector<cpudl::Op> build{cpudl::Set{0, 100}, cpudl::Set{1, 90}, cpudl::Set{2, 80}};
  const Evaluation base = ev.run(build, config);
  // set 0 95: the root stays in place (95 > 90): heapify_down moves nothing.
  std::vector<cpudl::Op> stay = build;
  stay.push_back(cpudl::Set{0, 95});
  const Evaluation e = ev.run(stay, config);
  EXPECT_EQ(e.sides[0].stores - base.sides[0].stores, 1u);      // the dl store of cpudl_set
  EXPECT_EQ(e.sides[1].stores - base.sides[1].stores, 1u + 3u);  // + the saved item
  // set 0 10: the root moves down one level (k = 1): 6 vs 6.
  std::vector<cpudl::Op> down = build;
  down.push_back(cpudl::Set{0, 10});
  const Evaluation d = ev.run(down, config);
  EXPECT_EQ(d.sides[0].stores - base.sides[0].stores, 1u + 6u);
  EXPECT_EQ(d.sides[1].stores - base.sides[1].stores, 1u + 6u);
  // k = 2 on 7 CPUs: 12 vs 9.
  std::vector<cpudl::Op> deep{cpudl::Set{0, 100}, cpudl::Set{1, 90}, cpudl::Set{2, 80},
                              cpudl::Set{3, 70},  cpudl::Set{4, 60}, cpudl::Set{5, 50},
                              cpudl::Set{6, 40}};
  const Evaluation b2 = ev.run(deep, config);
  deep.push_back(cpudl::Set{0, 1});
  const Evaluation d2 = ev.run(deep, config);
  EXPECT_EQ(d2.sides[0].stores - b2.sides[0].stores, 1u + 12u);
  EXPECT_EQ(d2.sides[1].stores - b2.sides[1].stores, 1u + 9u);
}

TEST(PerfRatio, AdditiveConstantKeepsItFinite) {
  EXPECT_DOUBLE_EQ(ratio(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(ratio(3, 0), 4.0);
  EXPECT_DOUBLE_EQ(ratio(9, 19), 0.5);
}

TEST(PerfMetric, NamesPerSubject) {
  EXPECT_EQ(parse_metric(kCpudlTool, "stores"), Metric::kStores);
  EXPECT_FALSE(parse_metric(kCpudlTool, "words"));
  EXPECT_FALSE(parse_metric(kPickTool, "stores"));
  EXPECT_EQ(default_metric(kPickTool), Metric::kWork);
}

template <class S>
SearchResult<S> run_search(unsigned cpus, Metric m, std::size_t side, bool worst, bool guided,
                           u64 runs, u64 seed = 7) {
  Evaluator<S> ev;
  SearchOptions o;
  o.cpus = cpus;
  o.metric = m;
  o.side = side;
  o.worst = worst;
  o.guided = guided;
  o.runs = runs;
  o.seed = seed;
  return search(o, ev);
}

TEST(PerfSearch, DeterministicForASeed) {
  const auto a = run_search<cpudl::Subject>(16, Metric::kStores, 1, true, true, 600);
  const auto b = run_search<cpudl::Subject>(16, Metric::kStores, 1, true, true, 600);
  EXPECT_EQ(a.runs, 600u);
  EXPECT_EQ(a.ratio, b.ratio);
  EXPECT_EQ(a.ops.size(), b.ops.size());
}

// The guided search finds the hole heap's extra stores (sets that leave a CPU
// in place above its children) far beyond what random generation reaches.
TEST(PerfSearch, GuidedBeatsRandomOnCpudlStores) {
  const auto g = run_search<cpudl::Subject>(64, Metric::kStores, 1, true, true, 3000);
  const auto r = run_search<cpudl::Subject>(64, Metric::kStores, 1, true, false, 3000);
  EXPECT_FALSE(g.finding);
  EXPECT_GT(g.ratio, r.ratio);
  EXPECT_GT(g.ratio, 1.5);
}

// Best case of the RFC pick: the guided search reaches a lower ratio than
// random masks (the loop walking to a late common CPU).
TEST(PerfSearch, GuidedBeatsRandomOnPickBestCase) {
  const auto g = run_search<pick::Subject>(512, Metric::kWork, 1, false, true, 3000);
  const auto r = run_search<pick::Subject>(512, Metric::kWork, 1, false, false, 3000);
  EXPECT_LT(g.ratio, r.ratio);
}

TEST(PerfSearch, MinimiseKeepsNinetyPercent) {
  Evaluator<cpudl::Subject> ev;
  SearchOptions o;
  o.cpus = 32;
  o.metric = Metric::kStores;
  o.runs = 2000;
  auto r = search(o, ev);
  const double found = r.ratio;
  minimise(o, ev, &r);
  EXPECT_GE(r.ratio, 0.9 * found);
  EXPECT_LE(r.ops.size(), r.found_ops);
}

}  // namespace
}  // namespace diffsched::perf
