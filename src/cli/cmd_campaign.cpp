// `diffsched campaign --time S [--targets T,...] [--jobs N] [--engine libfuzzer|afl]
//  [--corpus DIR] [--out DIR]`: a time-boxed fuzz campaign (campaign/campaign.h)
// that ends with its Markdown summary.
#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>

#include "campaign/campaign.h"
#include "campaign/layout.h"
#include "cli/commands.h"
#include "perf/run.h"

namespace diffsched::cli {

namespace {

struct CampaignArgs {
  campaign::CampaignOptions o;
  bool quiet = false;
  bool perf = false;              // --perf: the extra perf stage
  std::uint64_t perf_runs = 2000;  // its evaluations per search
};

// The --perf stage: `diffsched perf` (worst case only, no clock) on both
// subjects at their default sizes, reproducers in OUT/perf/, a Markdown
// section appended to OUT/summary.md. Returns 1 if it met a behavioural
// finding, 2 if it could not write, else 0.
int perf_stage(const CampaignArgs& a) {
  std::string md = "\n## Perf stage (diffsched perf, worst counted ratios)\n\n"
                   "| subject | cpus | side | metric | ratio | guided found | random | reproducer |\n"
                   "|---|---|---|---|---|---|---|---|\n";
  int status = 0;
  const campaign::Layout layout{a.o.out, a.o.corpus};
  for (const SubjectTool* tool : kSubjectTools) {
    const std::string_view subject = tool->name;
    perf::PerfSettings ro;
    ro.subject = tool;
    ro.metric = perf::default_metric(*tool);
    ro.cpus.assign(tool->perf_cpus.begin(), tool->perf_cpus.end());
    ro.runs = a.perf_runs;
    ro.seed = a.o.seed.value_or(1);
    ro.clock = false;
    ro.best = false;
    ro.out = layout.perf().string();
    ro.self = a.o.self;
    std::string error;
    const auto r = perf::run(ro, &error);
    if (!r) {
      fmt::print(stderr, "diffsched: error: campaign --perf: {}\n", error);
      return kExitBadInput;
    }
    for (const perf::Row& row : r->worst)
      md += fmt::format("| {} | {} | {} | {} | {:.3f} | {:.3f} | {:.3f} | `{}` |\n", subject,
                        row.cpus, row.side, perf::metric_name(ro.metric), row.ratio,
                        row.found_ratio, row.random_ratio, row.reproducer);
    for (const std::string& f : r->findings) {
      md += fmt::format("\nFINDING ({}): {}\n", subject, f);
      status = kExitFinding;
    }
  }
  {
    std::ofstream summary(layout.summary_md(), std::ios::app);
    summary << md;
    summary.flush();
    if (!summary) {  // the finding's status wins over a lost report line
      fmt::print(stderr, "diffsched: error: cannot write {}\n", layout.summary_md().string());
      if (status == kExitOk) status = kExitBadInput;
    }
  }
  if (!a.quiet) fmt::print("{}", md);
  return status;
}

const campaign::TargetRun& first_failure(const campaign::CampaignReport& r) {
  for (const auto& t : r.targets)
    if (t.status == campaign::TargetStatus::kEngineFailed) return t;
  return r.targets.front();
}

int run_campaign_cmd(CampaignArgs& a) {
  a.o.self = self_command();
  campaign::CampaignReport report;
  std::string error;
  const int status = campaign::run_campaign(a.o, &report, &error);
  if (!error.empty()) {  // bad input or could not start: no reports
    fmt::print(stderr, "diffsched: error: campaign: {}\n", error);
    return status;
  }
  if (!a.quiet) fmt::print("\n{}", campaign::report_markdown(report));
  fmt::print("\nreports: {0}/summary.md {0}/junit.xml {0}/results.sarif\n", a.o.out.string());
  int perf_status = 0;
  if (a.perf && !report.interrupted) perf_status = perf_stage(a);
  if (report.interrupted)
    fmt::print(stderr, "diffsched: campaign interrupted (signal {}); the corpus holds what was "
                       "merged\n", report.signal);
  else if (const std::size_t n = report.engine_failures())
    fmt::print(stderr, "diffsched: error: campaign: {} target{} engine-failed (first: {}: {})\n",
               n, n == 1 ? "" : "s", first_failure(report).target, first_failure(report).error);
  // The perf stage raises the status, never lowers it (2 and 130/143 stay).
  if (status == kExitOk || (status == kExitFinding && perf_status == kExitBadInput))
    return std::max(status, perf_status);
  return status;
}

}  // namespace

Runner add_campaign(CLI::App& app) {
  auto a = std::make_shared<CampaignArgs>();
  auto* sub = app.add_subcommand(
      "campaign", "Time-boxed fuzz campaign over the targets: dedup, minimise, report");
  sub->add_option("--time", a->o.seconds, "fuzzing time over all targets, seconds")
      ->required()
      ->check(CLI::Range(1.0, 1e7));
  sub->add_option("--targets", a->o.targets, "targets (default all: " + target_names() + ")")
      ->delimiter(',');
  sub->add_option("--jobs", a->o.jobs, "parallel fuzzing jobs per target (libFuzzer -fork)")
      ->check(CLI::Range(1u, 256u));
  sub->add_option("--engine", a->o.engine, "libfuzzer or afl")
      ->check(CLI::IsMember({"libfuzzer", "afl"}));
  sub->add_option("--corpus", a->o.corpus,
                  "corpus directory: DIR/<target> seeds the run and receives new inputs "
                  "(created from the checked-in corpus if missing)");
  sub->add_option("--out", a->o.out,
                  "output directory for reports and findings: new, empty or a campaign's "
                  "earlier --out (its reports, findings/ and work/ are replaced)");
  sub->add_flag("--force", a->o.force,
                "use a non-empty --out that is not a campaign's (only the campaign's own files "
                "in it are replaced)");
  sub->add_option("--accepted", a->o.accepted,
                  "accepted divergences file (default: corpus/accepted.txt of the source)")
      ->check(CLI::ExistingFile);
  sub->add_option("--fuzz-dir", a->o.fuzz_dir,
                  "use these libFuzzer binaries instead of building the fuzz preset");
  sub->add_option("--afl-dir", a->o.afl_dir,
                  "use these AFL++ binaries instead of building the afl preset");
  sub->add_option("--reruns", a->o.reruns, "re-runs per unique finding (flaky or real)")
      ->check(CLI::Range(1u, 100u));
  sub->add_option("--seed", a->o.seed, "engine seed");
  sub->add_option("--progress-every", a->o.progress_every,
                  "seconds between progress lines when stdout is not a terminal")
      ->check(positive());
  sub->add_flag("-q,--quiet", a->quiet, "do not print the Markdown summary at the end");
  sub->add_flag("--perf", a->perf,
                "extra stage: diffsched perf (worst case, both subjects), worst ratios in the "
                "summary, reproducers in OUT/perf/");
  sub->add_option("--perf-runs", a->perf_runs, "evaluations per perf search (default 2000)")
      ->check(positive());
  return [a] { return run_campaign_cmd(*a); };
}

}  // namespace diffsched::cli
