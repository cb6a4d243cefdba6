// `diffsched coverage [--corpus DIR] [--html DIR] [--min-reference-optimized PERCENT]`:
// builds the CLI with clang-14 source-based coverage (preset `coverage`),
// replays every checked-in input, and prints line and branch coverage of src/
// per file and per code group (reference, optimized, shared; tools/coverage.h).
// Exit 0 if the reference and optimized code (both heapify strategies, the
// three pick variants) reach the threshold in lines and branches, 1 if not,
// 2 if it could not run.
#include <fmt/format.h>

#include "cli/commands.h"
#include "tools/coverage.h"
#include "tools/coverage_workdir.h"
#include "tools/process.h"

namespace diffsched::cli {

namespace {

struct CoverageCliOptions {
  std::string corpus;
  std::string html;
  double min_percent = 100.0;
};

std::string cell(const tools::Counts& c) {
  if (c.total == 0) return "-";
  return fmt::format("{}/{} {:5.1f}%", c.covered, c.total, c.percent());
}

int run_coverage_cmd(const CoverageCliOptions& o) {
  if (o.min_percent < 0 || o.min_percent > 100) {
    fmt::print(stderr, "diffsched: error: --min-reference-optimized must be 0..100 (got {})\n",
               o.min_percent);
    return kExitBadInput;
  }
  tools::CoverageOptions options;
  const tools::CoverageWork work = tools::CoverageWork::default_dir();
  options.corpus = o.corpus.empty() ? tools::SourceTree{tools::source_dir()}.corpus_tree().dir : tools::fs::path(o.corpus);
  options.work = work.dir;
  options.html = o.html.empty() ? work.html() : tools::fs::path(o.html);
  fmt::print(stderr, "coverage: building preset coverage and replaying {} ...\n",
             options.corpus.string());
  std::string error;
  auto result = tools::run_coverage(options, &error);
  if (!result) {
    fmt::print(stderr, "diffsched: error: coverage: {}\n", error);
    return kExitBadInput;
  }
  const auto& report = result->report;

  fmt::print("coverage of src/ by {} inputs from {} (clang-14 source-based, llvm-cov-14)\n\n",
             result->inputs, options.corpus.string());
  std::size_t width = 4;
  for (const auto& f : report.files) width = std::max(width, f.file.size());
  fmt::print("{:<{}}  {:>18}  {:>18}\n", "file", width, "lines", "branches");
  for (const auto& f : report.files)
    fmt::print("{:<{}}  {:>18}  {:>18}\n", f.file, width, cell(f.figures.lines),
               cell(f.figures.branches));

  fmt::print("\n{:<10}  {:>9}  {:>18}  {:>18}  {:>18}\n", "group", "functions", "lines",
             "branches", "regions");
  for (std::size_t i = 0; i < report.groups.size(); ++i) {
    const auto& g = report.groups[i];
    fmt::print("{:<10}  {:>9}  {:>18}  {:>18}  {:>18}\n", tools::kGroupNames[i],
               g.functions.size(), cell(g.figures.lines), cell(g.figures.branches),
               cell(g.figures.regions));
  }
  for (std::size_t i = 0; i < 2; ++i) {
    fmt::print("{} functions:", tools::kGroupNames[i]);
    for (const auto& f : report.groups[i].functions) fmt::print(" {};", f);
    fmt::print("\n");
  }
  for (const auto& note : result->notes) fmt::print("note: {}\n", note);

  // The gate: every gated function present, lines and branches at the threshold.
  int status = kExitOk;
  for (const auto gated : tools::kGatedFunctions) {
    bool found = false;
    for (std::size_t i = 0; i < 2; ++i)
      for (const auto& f : report.groups[i].functions)
        found |= f.find(std::string(gated) + " (") != std::string::npos;
    if (!found) {
      fmt::print("MISSED: {} never instantiated or not in the coverage export\n", gated);
      status = kExitFinding;
    }
  }
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& g = report.groups[i];
    if (g.figures.lines.total == 0) {
      fmt::print("MISSED: no {} code found in the export\n", tools::kGroupNames[i]);
      status = kExitFinding;
      continue;
    }
    const bool ok = g.figures.lines.percent() >= o.min_percent &&
                    g.figures.branches.percent() >= o.min_percent;
    if (!ok) {
      fmt::print("MISSED: {} code below {}% (lines {:.1f}%, branches {:.1f}%):\n",
                 tools::kGroupNames[i], o.min_percent, g.figures.lines.percent(),
                 g.figures.branches.percent());
      status = kExitFinding;
    }
    for (const auto& m : g.missed) fmt::print("  not covered ({}): {}\n", tools::kGroupNames[i], m);
  }
  fmt::print("html report: {}\n", tools::CoverageWork::html_index(options.html).string());
  if (status == kExitOk)
    fmt::print("reference and optimized code covered at >= {}% of lines and branches\n",
               o.min_percent);
  return status;
}

}  // namespace

Runner add_coverage(CLI::App& app) {
  auto opts = std::make_shared<CoverageCliOptions>();
  auto* sub = app.add_subcommand(
      "coverage",
      "Build with clang source-based coverage, replay the corpus, print line and branch "
      "coverage of src/ per file and for reference/optimized/shared code (exit 1 if the "
      "reference or optimized code is below --min-reference-optimized)");
  sub->add_option("--corpus", opts->corpus,
                  "corpus root: <target>/ raw inputs, seeds/<target>/*.ops, "
                  "regressions/<subject>/*.ops (default: the source tree's corpus/)")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--html", opts->html,
                  "HTML report directory (default: build-coverage/diffsched-coverage/html)");
  sub->add_option("--min-reference-optimized", opts->min_percent,
                  "percent of lines and branches the reference and optimized code must reach "
                  "(default 100)")
      ->check(CLI::Range(0.0, 100.0));
  return [opts] { return run_coverage_cmd(*opts); };
}

}  // namespace diffsched::cli
