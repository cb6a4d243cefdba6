// diffsched fn's array text (src/fn/show.h): runs of equal elements print
// once as `VALUE xN` and read back to the same input; a per-CPU global's
// copies at or past nr_cpu_ids are zeros, one run; an array row of a
// finding names only the elements that differ, with their indices.
#include <random>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fn/minimize.h"
#include "fn/show.h"
#include "test_nodes.h"

namespace diffsched::fn {
namespace show_test {  // not anonymous: the unity build shares minimize_test.cpp's helpers' names

using nlohmann::json;

using namespace test_nodes;

// Globals: `cpumask_var_t select_rq_mask` and `struct sds *sd_llc_shared`
// per-CPU (128 copies), `int table[6]`; f(const struct cpumask *const *hops,
// int nr_hops) with hops nested.
Layout layout() {
  Layout l;
  l.function = "f";
  l.result = scalar(32, true);
  l.globals.push_back({"select_rq_mask", true, false, -1, array_of(pointer_to(mask()), kPerCpuCopies)});
  Node sds;
  sds.kind = NodeKind::kStruct;
  sds.c_type = "struct sds";
  sds.kids = {scalar(32, true, "nr_busy_cpus"), scalar(32, true, "nr_idle_scan")};
  l.globals.push_back({"sd_llc_shared", true, false, -1, array_of(pointer_to(sds), kPerCpuCopies)});
  l.globals.push_back({"table", true, false, -1, array_of(scalar(32, true), 6)});
  l.globals[0].per_cpu = l.globals[1].per_cpu = true;  // DEFINE_PER_CPU's (KSHIM_PER_CPU)
  Slot hops{"hops", false, false, -1, array_of(pointer_to(mask()), -1, "nr_hops")};
  hops.node.spec.nested = true;
  hops.node.spec.lo = Bound{1, false};
  hops.node.spec.hi = Bound{8, false};
  l.params.push_back(hops);
  l.params.push_back({"nr_hops", false, true, 0, scalar(32, true)});
  return l;
}

std::string zero_copies(const std::string& zero, int from) {
  return fmt::format("{} x{}", zero, kPerCpuCopies - from);
}

// The length of select_rq_mask's last run of empty masks, 0 if none.
std::int64_t zero_run(const std::string& text) {
  std::smatch m;
  static const std::regex kRun(R"(select_rq_mask=\[.*&\{\} x(\d+)\] sd_llc_shared=)");
  return std::regex_search(text, m, kRun) ? std::stoll(m[1].str()) : 0;
}

TEST(FnListText, CollapsesRunsOfThreeOrMoreEqualElements) {
  EXPECT_EQ(list_text({}), "[]");
  EXPECT_EQ(list_text({"7"}), "[7]");
  EXPECT_EQ(list_text({"0", "0", "0", "0"}), "[0 x4]");                 // all equal
  EXPECT_EQ(list_text({"1", "2", "3"}), "[1, 2, 3]");                   // none equal
  EXPECT_EQ(list_text({"1", "0", "0", "0"}), "[1, 0 x3]");              // a run at the end
  EXPECT_EQ(list_text({"5", "5", "6", "6", "6", "5"}), "[5, 5, 6 x3, 5]");  // two stay two
  EXPECT_EQ(list_text({"&{0-1}", "&{0-1}", "&{0-1}", "&{0-3}"}), "[&{0-1} x3, &{0-3}]");
}

// Each text reads back and prints as itself; the collapsed and the written
// out forms are the same input.
TEST(FnInputText, CollapsedArraysReadBackToTheSameInput) {
  const Layout l = layout();
  const std::string head = "nr_cpu_ids=2 select_rq_mask=[&{0}, &{0-1}, " + zero_copies("&{}", 2) +
                           "] sd_llc_shared=[&{nr_busy_cpus=1 nr_idle_scan=2}, " +
                           zero_copies("&{nr_busy_cpus=0 nr_idle_scan=0}", 1) + "] ";
  const std::string texts[] = {
      head + "table=[0 x6] hops=[&{0}] (nr_hops = its length)",                      // all equal
      head + "table=[1, 2, 3, 4, 5, 6] hops=[&{}, &{1}] (nr_hops = its length)",     // none equal
      head + "table=[1, 2, 0 x4] hops=[&{0}, &{0-1} x3] (nr_hops = its length)",     // runs at the end
      head + "table=[9 x3, -1 x3] hops=[&{} x3, &{1}, &{0-1} x4] (nr_hops = its length)",  // nested masks
  };
  for (const std::string& text : texts) {
    Input in;
    std::string error;
    ASSERT_TRUE(parse_input(l, text, &in, &error)) << error << "\n" << text;
    EXPECT_EQ(show_input(l, in), text);
    EXPECT_TRUE(in_domain(l, in)) << text;
  }
  Input a, b;
  std::string error;
  ASSERT_TRUE(parse_input(l, head + "table=[1, 2, 0 x4] hops=[&{} x3]", &a, &error)) << error;
  ASSERT_TRUE(parse_input(l, head + "table=[1, 2, 0, 0, 0, 0] hops=[&{}, &{}, &{}]", &b, &error)) << error;
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(show_input(l, b), show_input(l, a));
}

TEST(FnInputText, RefusesABadCount) {
  const Layout l = layout();
  const std::string head =
      "nr_cpu_ids=2 select_rq_mask=[&{} x128] sd_llc_shared=[&{nr_busy_cpus=0 nr_idle_scan=0} x128] ";
  struct Bad {
    std::string tail, says;
  };
  const Bad bad[] = {
      {"table=[0 x7] hops=[&{}]", "at most 6 elements"},
      {"table=[0 x5] hops=[&{}]", "6 elements"},
      {"table=[0 x0, 0 x6] hops=[&{}]", "a count after `x`"},
      {"table=[0 x, 0 x5] hops=[&{}]", "a count after `x`"},
      {"table=[0x6] hops=[&{}]", "`,` or `]`"},  // `0x6` is not `0 x6`
      {"table=[0 x6] hops=[&{} x65]", "at most 64 elements"},
      {"table=[0 x6] hops=[&{} x18446744073709551615]", "at most 64 elements"},
  };
  for (const Bad& x : bad) {
    Input in;
    std::string error;
    EXPECT_FALSE(parse_input(l, head + x.tail, &in, &error)) << x.tail;
    EXPECT_NE(error.find(x.says), std::string::npos) << x.tail << "\n  said: " << error;
  }
  Input in;
  std::string error;
  EXPECT_FALSE(parse_input(l, "nr_cpu_ids=2 select_rq_mask=[&{} x129]", &in, &error));
  EXPECT_NE(error.find("at most 128 elements"), std::string::npos) << error;
}

// Generated inputs: the per-CPU copies at or past nr_cpu_ids are zeros, so
// the line stays short at any nr_cpu_ids, and every line reads back.
TEST(FnInputText, PerCpuCopiesPastNrCpuIdsPrintAsOneRun) {
  const Layout l = layout();
  std::mt19937_64 rng(3);
  for (int i = 0; i < 300; ++i) {
    const unsigned nr = i % 3 == 0 ? 2 : i % 3 == 1 ? 0 : 200;
    const Input in = generate_input(l, rng, nr);
    const std::string text = show_input(l, in);
    Input back;
    std::string error;
    ASSERT_TRUE(parse_input(l, text, &back, &error)) << error << "\n" << text;
    EXPECT_EQ(back.values, in.values) << text;
    if (in.nr_cpu_ids < kPerCpuCopies - 2) {
      EXPECT_GE(zero_run(text), kPerCpuCopies - in.nr_cpu_ids) << text;
    }
  }
}

// A file's own array of 128 elements is not a per-CPU variable: only the
// shim's mark (GlobalRead::per_cpu) makes one, never the size alone.
TEST(FnShow, OnlyTheShimsMarkMakesAPerCpuVariable) {
  Layout l;
  l.function = "f";
  l.result = scalar(32, true);
  l.globals.push_back({"own", true, false, -1, array_of(scalar(32, true), kPerCpuCopies)});
  EXPECT_FALSE(is_per_cpu(l.globals[0]));
  std::mt19937_64 rng(3);
  const Input in = generate_input(l, rng, 2);
  std::size_t nonzero_past = 0;
  for (std::size_t i = 2; i < in.values.size(); ++i) nonzero_past += in.values[i] != 0;
  EXPECT_GT(nonzero_past, 0u) << show_input(l, in);  // drawn, not zeroed
  l.globals[0].per_cpu = true;
  EXPECT_TRUE(is_per_cpu(l.globals[0]));
}

// Lowering nr_cpu_ids zeroes the copies it drops, as the generator would.
TEST(FnShrink, LoweringNrCpuIdsZeroesThePerCpuCopiesPastIt) {
  const Layout l = layout();
  std::mt19937_64 rng(8);
  const Input in = generate_input(l, rng, 128);
  bool lowered = false;
  for (const Input& c : shrink_candidates(l, in)) {
    if (c.nr_cpu_ids == 128) continue;
    lowered = true;
    EXPECT_GE(zero_run(show_input(l, c)), kPerCpuCopies - c.nr_cpu_ids) << show_input(l, c);
  }
  EXPECT_TRUE(lowered);
}

TEST(FnListDiff, NamesEachDifferingElementByItsIndex) {
  std::vector<std::string> a(128, "unchanged"), b = a;
  EXPECT_EQ(list_diff(a, b).count, 0u);
  b[5] = "{0-3}";
  ListDiff d = list_diff(a, b);
  EXPECT_EQ(d.count, 1u);
  EXPECT_EQ(d.old_text, "[5]=unchanged");
  EXPECT_EQ(d.new_text, "[5]={0-3}");
  for (int i = 64; i < 128; ++i) b[static_cast<std::size_t>(i)] = "{}";  // a run: one range
  b[0] = "{1}";
  d = list_diff(a, b);
  EXPECT_EQ(d.count, 66u);
  EXPECT_EQ(d.old_text, "[0]=unchanged, [5]=unchanged, [64-127]=unchanged");
  EXPECT_EQ(d.new_text, "[0]={1},       [5]={0-3},     [64-127]={}");
}

// A finding's per-CPU row: the differing copies, their count, the marker;
// a long row that does not differ, once.
TEST(FnShowObservations, AnArrayRowShowsOnlyTheElementsThatDiffer) {
  const Layout l = layout();
  json words = json::array(), shared = json::array();
  for (int i = 0; i < 128; ++i) words.push_back("=");
  for (unsigned i = 0; i < 128; ++i) shared.push_back(json::array({i, 0u}));
  Observation a, b;
  a.record = {{"ret", 0}, {"glob", {words, shared, json::array({0, 0, 0, 0, 0, 0})}}, {"warn", 0}};
  b.record = a.record;
  b.record["glob"][0][3] = json::array({6u});  // a record's words are unsigned
  const std::string text = show_observations(l, a, b, 4);
  EXPECT_NE(text.find("  select_rq_mask old: [3]=unchanged   (1 of 128 elements differs; the rest are equal)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("                 new: [3]={1-2}   <-- differs\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  table        old: [0 x6]\n               new: [0 x6]\n"), std::string::npos) << text;
  // A long row that does not differ is written once.
  EXPECT_NE(text.find("  sd_llc_shared old: [{nr_busy_cpus=0 nr_idle_scan=0}, {nr_busy_cpus=1 nr_idle_scan=0}, "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("nr_idle_scan=0}]\n                new: the same\n"), std::string::npos) << text;
  EXPECT_EQ(first_differing_row(l, a, b, FnLevel::kExact), "select_rq_mask");
}

TEST(FnLeavesDiff, NamesEachDifferingFieldByItsPath) {
  const Leaves a = {{"p.cpu", "1"}, {"src_cpu", "70"}, {"dst_cpu", "73"}, {"stats.idle_cpu", "-1"}};
  Leaves b = a;
  EXPECT_EQ(leaves_diff(a, b).count, 0u);
  b[2].second = "70";
  b[3].second = "4";
  const ListDiff d = leaves_diff(a, b);
  EXPECT_EQ(d.count, 2u);
  EXPECT_EQ(d.old_text, "{dst_cpu=73, stats.idle_cpu=-1}");
  EXPECT_EQ(d.new_text, "{dst_cpu=70, stats.idle_cpu=4}");
  b[0].first = "p.prio";  // not the same fields: nothing to pair
  EXPECT_EQ(leaves_diff(a, b).count, 0u);
  EXPECT_EQ(leaves_diff(a, Leaves(a.begin(), a.end() - 1)).count, 0u);
}

// A long struct row that differs (task_numa_find_cpu()'s *env): only the
// differing fields, by path through nested structs and pointers; a short
// one whole.
TEST(FnShowObservations, ALongStructRowShowsOnlyTheFieldsThatDiffer) {
  Node task;
  task.kind = NodeKind::kStruct;
  task.c_type = "struct task";
  for (const char* f : {"prio", "cpu", "policy", "on_rq", "on_cpu", "flags"})
    task.kids.push_back(scalar(32, true, f));
  Node stats = task;
  stats.c_type = "struct stats";
  stats.kids = {scalar(32, true, "nr_running"), scalar(32, true, "idle_cpu")};
  stats.field = "dst_stats";
  Node env;
  env.kind = NodeKind::kStruct;
  env.c_type = "struct env";
  Node p = pointer_to(task);
  p.field = "p";
  env.kids = {p, scalar(32, true, "src_cpu"), scalar(32, true, "dst_cpu"), stats};
  Layout l;
  l.function = "f";
  l.result_void = true;
  l.params.push_back({"env", false, false, -1, pointer_to(env)});
  const json task_v = json::array({-1380896719, 1, 3239130480u, 5, 1, 4294967295u});
  Observation a, b;
  a.record = {{"out", {json::array({task_v, 70, 73, json::array({2, -1})})}}, {"warn", 0}};
  b.record = a.record;
  b.record["out"][0][2] = 70;
  b.record["out"][0][3][1] = 4;
  b.record["out"][0][0][1] = 2;
  std::string text = show_observations(l, a, b, 4);
  EXPECT_NE(text.find("  *env         old: {p.cpu=1, dst_cpu=73, dst_stats.idle_cpu=-1}   (3 of 10 fields "
                      "differ; the rest are equal)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("               new: {p.cpu=2, dst_cpu=70, dst_stats.idle_cpu=4}   <-- differs\n"),
            std::string::npos)
      << text;
  // Short: whole.
  l.params[0].node.kids[0].kids = {scalar(32, true, "dst_cpu")};
  a.record["out"][0] = json::array({73});
  b.record["out"][0] = json::array({70});
  text = show_observations(l, a, b, 4);
  EXPECT_NE(text.find("  *env         old: {dst_cpu=73}\n               new: {dst_cpu=70}   <-- differs\n"),
            std::string::npos)
      << text;
}

}  // namespace show_test
}  // namespace diffsched::fn
