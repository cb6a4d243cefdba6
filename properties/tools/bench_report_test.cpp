// The report side of `diffsched bench`: parsers of what the bench binaries,
// callgrind and gcc write, the order statistics, and the verdict rules, on
// hand-made inputs (no benchmark runs here).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tools/bench_inputs.h"
#include "tools/bench_report.h"
#include "tools/bench_stats.h"

namespace diffsched::tools {
namespace {

TEST(BenchStats, QuartilesInterpolateBetweenOrderStatistics) {
  const Spread s = summarize({4, 1, 3, 2, 5});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.p25, 2);
  EXPECT_DOUBLE_EQ(s.p75, 4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  const Spread even = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.p25, 1.75);
  const Spread one = summarize({0.97});
  EXPECT_DOUBLE_EQ(one.p25, 0.97);
  EXPECT_DOUBLE_EQ(one.p75, 0.97);
  EXPECT_EQ(summarize({}).n, 0u);
}

TEST(BenchInputs, RunBaseNameDropsExplicitSettings) {
  EXPECT_EQ(run_base_name("cpudl_counts/cpus:16/ops:1000/iterations:1/repeats:1"),
            "cpudl_counts/cpus:16/ops:1000");
  EXPECT_EQ(run_base_name("pick/seed/nr:8/min_time:0.100/real_time"), "pick/seed/nr:8");
  EXPECT_EQ(run_base_name("pick/seed/nr:8"), "pick/seed/nr:8");
}

TEST(BenchInputs, GbenchJsonKeepsRepetitionsInOrderAndSkipsAggregates) {
  constexpr std::string_view kJson = R"({
    "context": {"num_cpus": 2},
    "benchmarks": [
      {"name": "b/x:2", "run_name": "b/x:2", "run_type": "iteration", "repetition_index": 0,
       "iterations": 10, "real_time": 1.0, "ratio": 0.9},
      {"name": "b/x:2", "run_name": "b/x:2", "run_type": "iteration", "repetition_index": 1,
       "iterations": 10, "real_time": 1.0, "ratio": 0.8},
      {"name": "b/x:2_median", "run_name": "b/x:2", "run_type": "aggregate",
       "aggregate_name": "median", "ratio": 0.85},
      {"name": "a/x:1", "run_name": "a/x:1", "run_type": "iteration", "ratio": 1.1}
    ]})";
  std::string error;
  const auto runs = parse_gbench_json(kJson, &error);
  ASSERT_TRUE(runs) << error;
  EXPECT_EQ(runs->order, (std::vector<std::string>{"b/x:2", "a/x:1"}));
  ASSERT_EQ(runs->reps.at("b/x:2").size(), 2u);
  EXPECT_DOUBLE_EQ(runs->reps.at("b/x:2")[1].at("ratio"), 0.8);
}

TEST(BenchInputs, GbenchJsonFailsOnGarbageAndOnABenchmarkError) {
  std::string error;
  EXPECT_FALSE(parse_gbench_json("not json", &error));
  EXPECT_FALSE(parse_gbench_json(R"({"benchmarks": 3})", &error));
  EXPECT_FALSE(parse_gbench_json(
      R"({"benchmarks": [{"name": "p/seed/nr:8", "run_type": "iteration",
          "error_occurred": true, "error_message": "pick variants disagree on the pool"}]})",
      &error));
  EXPECT_EQ(error, "benchmark p/seed/nr:8 failed: pick variants disagree on the pool");
}

TEST(BenchInputs, CallgrindPartNamesItsRegionAndCalls) {
  constexpr std::string_view kPart =
      "version: 1\ncmd:  ./bench_pick --icount\npart: 3\n"
      "desc: Trigger: Client Request: pick/seed/nr:8/fused calls=2048\n"
      "events: Ir\nsummary: 81958\ntotals: 81958\n";
  const auto p = parse_callgrind_part(kPart);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->name, "pick/seed/nr:8/fused");
  EXPECT_EQ(p->calls, 2048u);
  EXPECT_EQ(p->ir, 81958u);
  EXPECT_FALSE(parse_callgrind_part(
      "desc: Trigger: Program termination\nevents: Ir\ntotals: 0\n"));
  EXPECT_FALSE(parse_callgrind_part("desc: Trigger: Client Request: no-calls\ntotals: 5\n"));
}

TEST(BenchInputs, StackUsageByUnqualifiedName) {
  const auto su = parse_stack_usage(
      "/src/kernel/pick.cpp:20:10:unsigned int diffsched::kernel::pick_optimized(const "
      "Cpumask*, const Cpumask*, const Cpumask*)\t1072\tstatic\n"
      "x.c:3:5:helper\t16\tdynamic,bounded\n"
      "malformed line\n");
  EXPECT_EQ(su.at("pick_optimized"), 1072u);
  EXPECT_EQ(su.at("helper"), 16u);
  EXPECT_EQ(su.size(), 2u);
}

TEST(BenchVerdict, TimeNeedsTheQuartileAcrossOneAndTheFloor) {
  EXPECT_EQ(classify(summarize({0.90, 0.92, 0.94})), Direction::kFaster);
  EXPECT_EQ(classify(summarize({0.90, 0.92, 1.02, 1.03})), Direction::kNoClearDifference);
  EXPECT_EQ(classify(summarize({0.96, 0.97, 0.98})), Direction::kNoClearDifference);  // < floor
  EXPECT_EQ(classify(summarize({1.06, 1.08, 1.07})), Direction::kSlower);
}

// Minimal complete inputs: two cpudl sizes, one pick size, counts, callgrind.
BenchInputs inputs(std::vector<double> cpudl_ratios_a, std::vector<double> cpudl_ratios_b) {
  BenchInputs in;
  auto reps = [](const std::vector<double>& ratios, const char* key, const char* ref,
                 const char* var) {
    std::vector<CounterMap> out;
    for (double r : ratios) out.push_back({{key, r}, {ref, 10.0}, {var, 10.0 * r}});
    return out;
  };
  in.cpudl_time.order = {"cpudl_set/cpus:16/ops:1000", "cpudl_set/cpus:256/ops:100000"};
  in.cpudl_time.reps["cpudl_set/cpus:16/ops:1000"] = reps(cpudl_ratios_a, "ratio", "ref_ns", "opt_ns");
  in.cpudl_time.reps["cpudl_set/cpus:256/ops:100000"] =
      reps(cpudl_ratios_b, "ratio", "ref_ns", "opt_ns");
  in.pick_time.order = {"pick/seed/nr:8"};
  in.pick_time.reps["pick/seed/nr:8"] = {{{"optimized_ratio", 1.07},
                                          {"fused_ratio", 0.6},
                                          {"reference_ns", 5},
                                          {"optimized_ns", 5.35},
                                          {"fused_ns", 3}}};
  for (const char* n : {"cpudl_set/cpus:16/ops:1000", "cpudl_set/cpus:256/ops:100000"}) {
    in.icount.push_back({fmt::format("{}/swap", n), 1000, 80000});
    in.icount.push_back({fmt::format("{}/hole", n), 1000, 76000});
  }
  for (const char* v : {"reference", "optimized", "fused"})
    in.icount.push_back({fmt::format("pick/seed/nr:8/{}", v), 2048, 2048 * 70});
  CounterMap c;
  for (const char* side : {"swap", "hole"})
    for (const char* k : {"loads_per_op", "stores_per_op", "compares_per_op", "nontrivial",
                          "nontrivial_loads", "nontrivial_compares", "trivial", "trivial_stores"})
      c[fmt::format("{}.{}", side, k)] = 1;
  c["swap.nontrivial_stores"] = 12;
  c["hole.nontrivial_stores"] = 9;
  // levels 1, 2 and 6: 6k stores for swap, 3k + 3 for hole
  for (int k : {1, 2, 6}) {
    c[fmt::format("swap.L{}.calls", k)] = 10;
    c[fmt::format("swap.L{}.stores", k)] = 6 * k;
    c[fmt::format("hole.L{}.stores", k)] = 3 * k + 3;
  }
  in.cpudl_counts.order = {"cpudl_counts/cpus:256/ops:100000"};
  in.cpudl_counts.reps["cpudl_counts/cpus:256/ops:100000"] = {c};
  in.stack = {{"pick_reference", 80}, {"pick_optimized", 1072}, {"pick_fused", 32}};
  return in;
}

TEST(BenchVerdict, ClaimsNameTheSizesWhereTheyHold) {
  std::string error;
  const auto r = analyse(inputs({0.90, 0.91, 0.92}, {0.99, 1.0, 1.01}), &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->claims.size(), 4u);
  EXPECT_EQ(r->claims[0].id, "C1");
  EXPECT_EQ(r->claims[0].verdict,
            "holds only for some sizes: heapifies moving 6 levels (33.3% of the non-trivial "
            "heapifies of the seed workload); not at 1-2 levels (0.750x-1.000x)");
  EXPECT_EQ(r->claims[1].verdict,
            "holds only for some sizes: faster at 16/1K; no clear difference at 256/100K");
  EXPECT_EQ(r->claims[1].measured,
            "1.000x (IQR 0.995-1.005, 3 reps) at 256 CPUs, 100K ops; medians 0.910x-1.000x over "
            "2 sizes");
  EXPECT_EQ(r->claims[1].instructions, "0.950x at 256/100K; 0.950x-0.950x over 2 sizes");
  EXPECT_EQ(r->claims[2].verdict, "does not hold: slower at seed/8");
  EXPECT_EQ(r->claims[3].verdict, "holds: faster at all 1 sizes");
  EXPECT_EQ(r->repetitions, 1u);
}

TEST(BenchVerdict, MissingCallgrindPartIsAnError) {
  BenchInputs in = inputs({0.9}, {0.9});
  in.icount.pop_back();
  std::string error;
  EXPECT_FALSE(analyse(in, &error));
  EXPECT_EQ(error, "callgrind part pick/seed/nr:8/reference or /fused missing");
}

TEST(BenchReport, JsonAndPlotCarryEverySize) {
  std::string error;
  const auto r = analyse(inputs({0.90}, {0.92}), &error);
  ASSERT_TRUE(r) << error;
  const nlohmann::json j = report_json(*r);
  EXPECT_EQ(j["cpudl"].size(), 2u);
  EXPECT_EQ(j["pick"].size(), 2u);
  EXPECT_EQ(j["claims"][1]["holds_at"], (std::vector<std::string>{"16/1K", "256/100K"}));
  EXPECT_EQ(j["stack_bytes"]["pick_optimized"], 1072);
  const std::string gp = gnuplot_script(*r, "/tmp/it's.png");
  EXPECT_NE(gp.find("set output '/tmp/it''s.png'"), std::string::npos);
  EXPECT_NE(gp.find("\"256/100K\""), std::string::npos);
}


// The author's workload (cpudl_author/*) is a second C2 row with its own
// sizes, right after the seed-text one; without those benchmarks there is none.
TEST(BenchVerdict, AuthorWorkloadIsASecondC2Row) {
  BenchInputs in = inputs({0.99}, {0.99});
  for (const char* n : {"cpudl_author/cpus:256/ops:1000", "cpudl_author/cpus:256/ops:100000"}) {
    const double r = std::string_view(n).ends_with("1000") ? 0.89 : 0.97;
    in.cpudl_time.order.push_back(n);
    in.cpudl_time.reps[n] = {{{"ratio", r}, {"ref_ns", 10.0}, {"opt_ns", 10.0 * r}},
                             {{"ratio", r}, {"ref_ns", 10.0}, {"opt_ns", 10.0 * r}}};
    in.icount.push_back({fmt::format("{}/swap", n), 1000, 80000});
    in.icount.push_back({fmt::format("{}/hole", n), 1000, 72000});
  }
  std::string error;
  const auto r = analyse(in, &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->claims.size(), 5u);
  EXPECT_EQ(r->claims[2].id, "C2");
  EXPECT_NE(r->claims[2].claim.find("author"), std::string::npos);
  EXPECT_EQ(r->claims[2].verdict,
            "holds only for some sizes: faster at 256/1K; no clear difference at 256/100K");
  EXPECT_EQ(r->cpudl.size(), 2u);
  EXPECT_EQ(r->cpudl_author.size(), 2u);
  EXPECT_EQ(report_json(*r)["cpudl_author"].size(), 2u);
  EXPECT_EQ(r->claims[3].id, "C3");
}

}  // namespace
}  // namespace diffsched::tools
