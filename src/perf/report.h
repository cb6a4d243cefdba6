// What `diffsched perf` reports: per size and side, the worst and best input
// found by the guided search next to plain random generation of the same
// budget, the minimised reproducer, and the clock's view of it.
//
//   perf::Report r{.subject = &kPickTool, .metric = Metric::kWork};
//   r.worst.push_back(row);
//   fmt::print("{}", perf::format_table(r));
//   io::write_file("perf.json", util::dump_json(perf::to_json(r), 2), &error);
//
// JSON (--json): {"subject", "metric", "ratio_constant",
//   "worst": [{"cpus", "metric", "ratio", "reference", "optimized",
//              "wall_ratio", "reproducer", "optimized_side", ...}], "best": [...],
//   "findings": [...]}. "ratio" is the minimised input's counted ratio
// (optimized_side / reference, perf::ratio), "reference" and "optimized" its
// counted costs; "wall_ratio" null when the clock was not asked for.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perf/clock.h"
#include "perf/cost.h"

namespace diffsched::perf {

struct Row {
  unsigned cpus = 0;
  std::string side;        // optimized_side: "optimized" or "fused"
  bool worst = true;
  // guided search, after minimisation
  u64 reference = 0, optimized = 0;
  double ratio = 1.0;
  std::size_t ops = 0;
  double found_ratio = 1.0;  // before minimisation
  std::size_t found_ops = 0;
  u64 runs = 0;
  std::size_t corpus = 0, features = 0;
  bool minimal = false;
  // plain random generation, same budget
  double random_ratio = 1.0;
  u64 random_reference = 0, random_optimized = 0;
  u64 random_runs = 0;
  std::optional<ClockResult> clock;
  std::string reproducer;  // path of the .ops written, "" if none
  std::string command;     // the command that prints its counted ratio
};

struct Report {
  const SubjectTool* subject = &kCpudlTool;
  Metric metric = Metric::kAccesses;
  std::vector<Row> worst, best;
  std::vector<std::string> findings;  // one line each
};

std::string format_table(const Report& r);
nlohmann::json to_json(const Report& r);
// A self-contained gnuplot script (data inline) drawing the worst (and best)
// counted ratio against nr_cpu_ids, log-log, one line per side, the random
// baseline dashed, into `png`.
std::string gnuplot_script(const Report& r, const std::string& png);

}  // namespace diffsched::perf
