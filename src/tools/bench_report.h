// The analysis behind `diffsched bench`: from the parsed outputs of the bench
// binaries to per-size comparisons and one verdict per claim.
//
//   BenchInputs in{cpudl_time, pick_time, cpudl_counts, icount_parts, stack};
//   std::string error;
//   std::optional<Report> r = analyse(in, &error);   // nullopt: inputs incomplete
//   print_report(stdout, *r);
//   nlohmann::json j = report_json(*r);
//
// Every ratio is optimized / reference (hole / swap; optimized or fused /
// reference pick): below 1 the optimization wins. Verdict rules:
//   time, at one size: each repetition gives one ratio (the median of its
//     iterations' paired ratios, bench/bench_main.h); over the repetitions
//     (pooled from several processes), FASTER when the upper quartile is below
//     1 and the median at most 1 - kTimeFloor, SLOWER when the lower quartile
//     is above 1 and the median at least 1 + kTimeFloor, otherwise NO CLEAR
//     DIFFERENCE. kTimeFloor is the resolution of this measurement on a
//     shared 2-CPU VM: the median ratio of one size moves by up to 2% from
//     one process to the next, so a verdict needs 5% to be reproducible;
//   stores, at one heapify depth: exact counts; "roughly half" is a ratio of
//     at most kRoughlyHalf;
//   a claim "holds" when it holds at every size measured, "holds only for
//     some sizes (...)" naming them, and "does not hold" at none. A time
//     verdict is words and sizes only (the figures are in `measured`), so the
//     verdicts of two runs can be compared as text (scripts/bench-agree.sh).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/bench_inputs.h"
#include "tools/bench_stats.h"

namespace diffsched::tools {

inline constexpr double kTimeFloor = 0.05;
inline constexpr double kRoughlyHalf = 0.6;

// The seed files the claims come from (../shared/seeds/).
inline constexpr const char* kSeedCpudl = "000_3e8678036266af48.txt";
inline constexpr const char* kSeedPick = "004_d735875dcb25db51.txt";

struct BenchInputs {
  GbenchRuns cpudl_time;    // bench_cpudl
  GbenchRuns pick_time;     // bench_pick
  GbenchRuns cpudl_counts;  // bench_cpudl_counts
  std::vector<CallgrindPart> icount;              // bench_cpudl/bench_pick --icount
  std::map<std::string, std::uint64_t> stack;     // pick.su
};

enum class Direction { kFaster, kNoClearDifference, kSlower };
const char* direction_name(Direction d);  // "faster", "no clear difference", "slower"
Direction classify(const Spread& ratio);

// One size, one variant against its reference.
struct TimeRow {
  std::string size;     // "cpus:256/ops:100000", "seed/nr:8"
  std::string variant;  // "hole", "optimized", "fused"
  Spread ratio;         // time ratio over repetitions
  double ref_ns = 0;    // ns per call, medians over repetitions
  double var_ns = 0;
  double ref_ir = 0;    // instructions per call (callgrind), 0 when absent
  double var_ir = 0;
  Direction direction = Direction::kNoClearDifference;
  double ir_ratio() const { return ref_ir > 0 ? var_ir / ref_ir : 0; }
};

// Exact counts of one heap on one size (bench_cpudl_counts).
struct HeapCounts {
  double loads_per_op = 0, stores_per_op = 0, compares_per_op = 0;
  double nontrivial = 0, nontrivial_loads = 0, nontrivial_stores = 0, nontrivial_compares = 0;
  double trivial = 0, trivial_stores = 0;
};
struct CountRow {
  std::string size;
  HeapCounts swap, hole;
};

// Non-trivial heapifies that moved the item `levels` levels, over all sizes.
struct LevelRow {
  int levels = 0;
  double calls = 0;
  double swap_stores = 0, hole_stores = 0;  // mean per heapify
  double ratio() const { return swap_stores > 0 ? hole_stores / swap_stores : 0; }
};

struct ClaimRow {
  std::string id;
  std::string claim;
  std::string seed_file;
  std::string seed_figure;
  std::string measured;
  std::string instructions;
  std::string verdict;
  std::vector<std::string> holds_at, fails_at;
};

struct Report {
  std::vector<ClaimRow> claims;
  std::vector<TimeRow> cpudl;  // hole vs swap
  std::vector<TimeRow> cpudl_author;  // hole vs swap, the author's workload (may be empty)
  std::vector<TimeRow> pick;   // optimized and fused vs reference
  std::vector<CountRow> counts;
  std::vector<LevelRow> levels;
  std::map<std::string, std::uint64_t> stack;
  size_t repetitions = 0;
};

// analyse(in, &error): nullopt with a one-line error when an input lacks a
// benchmark, a counter or a callgrind part the report needs.
std::optional<Report> analyse(const BenchInputs& in, std::string* error);

// The claims table, then the per-size tables, as Markdown tables.
void print_report(std::FILE* out, const Report& r);

nlohmann::json report_json(const Report& r);

// A size's short label: "cpus:256/ops:100000" -> "256/100K"; "seed/nr:8" -> "seed/8".
std::string short_size(std::string_view size);

// gnuplot_script(r, png): a self-contained gnuplot script (data inline) that
// draws the time and instruction ratios of every size into png
// (bench_plot.cpp).
std::string gnuplot_script(const Report& r, const std::string& png);

}  // namespace diffsched::tools
