// A time-boxed fuzz campaign over the fuzz targets (targets.h), one command:
//
//   CampaignOptions o{.seconds = 120, .out = "campaign-out"};
//   CampaignReport report;
//   std::string error;
//   int status = run_campaign(o, &report, &error);   // 0, 1, 2 (or 128+signal)
//
// Before anything starts, --corpus, --out, --fuzz-dir and --afl-dir are
// checked (error: the path and what was expected; exit 2, no reports), and
// --out is made ready: a campaign's earlier --out (marked .diffsched-campaign)
// loses its reports, findings/ and work/, anything else non-empty is refused
// without --force.
//
// Per target, in turn, in its slot of --time / targets seconds: run the engine (libFuzzer
// -fork=JOBS -ignore_crashes=1, or afl-fuzz) on a scratch corpus seeded from
// CORPUS/<target>; merge what it found into CORPUS/<target> (libFuzzer
// -merge=1 into a staging directory, then one atomic rename per new file, so
// an interrupted run leaves the corpus as it was or with whole new files);
// classify every crash file by replaying it (signature), deduplicate, re-run
// the fuzz binary on one input per signature RERUNS times (flaky or real),
// minimise it, and write it as .ops and binary under OUT/findings with the
// command that reproduces it. Signatures listed in the accepted file are
// reported but do not fail the campaign. Reports: OUT/summary.md,
// OUT/junit.xml, OUT/results.sarif (campaign/report.h).
//
// The steps live in their own units: arguments.h (options and paths),
// layout.h (every path of --out and the corpus), engine.h (libFuzzer and
// AFL++ behind one interface), supervise.h (process groups, slots, signals),
// merge.h, classify.h, accepted.h, findings.h and report.h.
//
// An engine that cannot start, exits abnormally or runs no input makes its
// target engine-failed (TargetStatus), and the campaign exits 2.
//
// SIGINT/SIGTERM: the engine's process group is signalled (SIGKILL shortly
// after), what it found so far is merged (at most 0.8 s), crash files are
// classified without re-runs or minimisation, the reports are written
// (marked interrupted, exit status 128+signal also in SARIF): about 1-2 s in
// all. A second signal abandons the merge (the corpus keeps its earlier,
// whole state). The exit status is CampaignReport::exit_status().
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "campaign/accepted.h"  // load_accepted, glob_match
#include "campaign/report.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

struct CampaignOptions {
  double seconds = 60;                 // fuzzing time over all targets
  std::vector<std::string> targets;    // empty: all
  unsigned jobs = 1;                   // libFuzzer -fork=N; afl: N instances
  std::string engine = "libfuzzer";    // or "afl"
  fs::path corpus = "corpus";          // CORPUS/<target>, grows
  fs::path out = "campaign-out";        // a campaign's own, or new/empty (see prepare_out)
  bool force = false;                  // use a non-empty --out that is not a campaign's
  fs::path accepted;                   // default: <source>/corpus/accepted.txt
  fs::path fuzz_dir;                   // libFuzzer binaries; default: build-fuzz/fuzz, built
  fs::path afl_dir;                    // AFL++ binaries; default: build-afl/fuzz, built
  unsigned reruns = 3;
  std::optional<unsigned> seed;        // engine seed; default: the engine's
  std::string self = "diffsched";      // how reproduce commands invoke diffsched
  double progress_every = 30;          // seconds between progress lines when not a TTY
};

int run_campaign(const CampaignOptions& options, CampaignReport* report, std::string* error);

}  // namespace diffsched::campaign
