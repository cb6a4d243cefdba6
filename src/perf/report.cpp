#include "perf/report.h"

#include <fmt/format.h>

namespace diffsched::perf {

namespace {

std::string wall(const Row& row) {
  if (!row.clock) return "-";
  const auto& c = *row.clock;
  return fmt::format("{:.3f} ({:.3f}-{:.3f}); {:.1f} vs {:.1f} ns", c.wall_ratio.median,
                     c.wall_ratio.p25, c.wall_ratio.p75, c.reference_ns.median,
                     c.side_ns.median);
}

void table(std::string* out, const Report& r, const std::vector<Row>& rows, bool worst) {
  if (rows.empty()) return;
  *out += fmt::format(
      "{} case ({} / reference, metric {}, ratio = (side + 1) / (reference + 1)):\n",
      worst ? "worst" : "best", r.subject->perf_sides.size() > 2 ? "side" : "optimized", metric_name(r.metric));
  *out += fmt::format("{:>5} {:<9} {:>10} {:>10} {:>9} {:>4} {:>9} {:>9} {:>6}  {}\n", "cpus",
                      "side", "reference", "side", "ratio", "ops", "found", "random", "runs",
                      "wall ratio (IQR); ns ref vs side");
  for (const Row& row : rows) {
    *out += fmt::format("{:>5} {:<9} {:>10} {:>10} {:>9.3f} {:>4} {:>9.3f} {:>9.3f} {:>6}  {}\n",
                        row.cpus, row.side, row.reference, row.optimized, row.ratio, row.ops,
                        row.found_ratio, row.random_ratio, row.runs, wall(row));
  }
}

nlohmann::json spread(const tools::Spread& s) {
  return {{"median", s.median}, {"p25", s.p25}, {"p75", s.p75}, {"min", s.min}, {"max", s.max},
          {"n", s.n}};
}

nlohmann::json rows_json(const Report& r, const std::vector<Row>& rows) {
  nlohmann::json a = nlohmann::json::array();
  for (const Row& row : rows) {
    nlohmann::json j{{"cpus", row.cpus},
                     {"metric", metric_name(r.metric)},
                     {"ratio", row.ratio},
                     {"reference", row.reference},
                     {"optimized", row.optimized},
                     {"wall_ratio", row.clock ? nlohmann::json(row.clock->wall_ratio.median)
                                              : nlohmann::json()},
                     {"reproducer", row.reproducer},
                     {"optimized_side", row.side},
                     {"command", row.command},
                     {"ops", row.ops},
                     {"found_ratio", row.found_ratio},
                     {"found_ops", row.found_ops},
                     {"minimal", row.minimal},
                     {"runs", row.runs},
                     {"corpus", row.corpus},
                     {"features", row.features},
                     {"random", {{"ratio", row.random_ratio},
                                 {"reference", row.random_reference},
                                 {"optimized", row.random_optimized},
                                 {"runs", row.random_runs}}}};
    if (row.clock) {
      j["clock"] = {{"reference_ns", spread(row.clock->reference_ns)},
                    {"optimized_ns", spread(row.clock->side_ns)},
                    {"wall_ratio", spread(row.clock->wall_ratio)}};
    }
    a.push_back(std::move(j));
  }
  return a;
}

}  // namespace

std::string format_table(const Report& r) {
  std::string out;
  table(&out, r, r.worst, true);
  if (!r.worst.empty() && !r.best.empty()) out += "\n";
  table(&out, r, r.best, false);
  return out;
}

nlohmann::json to_json(const Report& r) {
  return {{"subject", r.subject->name},
          {"metric", metric_name(r.metric)},
          {"ratio_constant", kRatioConstant},
          {"worst", rows_json(r, r.worst)},
          {"best", rows_json(r, r.best)},
          {"findings", r.findings}};
}

std::string gnuplot_script(const Report& r, const std::string& png) {
  std::string s = fmt::format(
      "set terminal pngcairo size 900,560\nset output '{}'\n"
      "set title 'diffsched perf {}: counted {} ratio, side / reference'\n"
      "set xlabel 'nr\\_cpu\\_ids'\nset ylabel 'ratio (log)'\nset logscale xy 2\n"
      "set key left top\nset grid\n",
      png, r.subject->name, metric_name(r.metric));
  std::vector<std::string> plots, blocks;
  auto series = [&](const std::vector<Row>& rows, const std::string& side, bool worst) {
    std::string guided, random;
    for (const Row& row : rows) {
      if (row.side != side) continue;
      guided += fmt::format("{} {}\n", row.cpus, row.ratio);
      random += fmt::format("{} {}\n", row.cpus, row.random_ratio);
    }
    if (guided.empty()) return;
    const std::string name = fmt::format("{}_{}", worst ? "worst" : "best", side);
    blocks.push_back(fmt::format("${}_g << EOD\n{}EOD\n${}_r << EOD\n{}EOD\n", name, guided, name,
                                 random));
    plots.push_back(fmt::format("${}_g with linespoints lw 2 title '{} {} (guided)'", name,
                                worst ? "worst" : "best", side));
    plots.push_back(fmt::format("${}_r with linespoints dt 2 title '{} {} (random)'", name,
                                worst ? "worst" : "best", side));
  };
  for (const std::string_view side : side_names(*r.subject).subspan(1)) {
    series(r.worst, std::string(side), true);
    series(r.best, std::string(side), false);
  }
  for (const auto& b : blocks) s += b;
  s += "plot 1 with lines lc rgb 'gray' title 'ratio 1'";
  for (const auto& p : plots) s += ", " + p;
  s += "\n";
  return s;
}

}  // namespace diffsched::perf
