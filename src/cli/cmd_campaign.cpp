// `diffsched campaign --time S [--targets T,...] [--jobs N] [--engine libfuzzer|afl]
//  [--corpus DIR] [--out DIR]`: a time-boxed fuzz campaign (campaign/campaign.h)
// that ends with its Markdown summary.
#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "cli/commands.h"

namespace diffsched::cli {

namespace {

struct CampaignArgs {
  campaign::CampaignOptions o;
  bool quiet = false;
};

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
  if (report.interrupted)
    fmt::print(stderr, "diffsched: campaign interrupted (signal {}); the corpus holds what was "
                       "merged\n", report.signal);
  else if (const std::size_t n = report.engine_failures())
    fmt::print(stderr, "diffsched: error: campaign: {} target{} engine-failed (first: {}: {})\n",
               n, n == 1 ? "" : "s", first_failure(report).target, first_failure(report).error);
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
  return [a] { return run_campaign_cmd(*a); };
}

}  // namespace diffsched::cli
