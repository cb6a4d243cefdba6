// What a fuzz campaign did and found, and the three report formats written
// from it into --out: Markdown (CI job summary), JUnit XML (one test case per
// target, one failure per unique new finding) and SARIF 2.1.0 (one result per
// unique finding, located at the source line of the first failing check).
//
//   CampaignReport r = run_campaign(options);      // campaign/campaign.h
//   write_file(out / "summary.md", report_markdown(r));
//   write_file(out / "junit.xml", report_junit(r));
//   write_file(out / "results.sarif", report_sarif(r));
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/verdict.h"

namespace diffsched::campaign {

// How a target's engine run ended.
enum class TargetStatus : std::uint8_t {
  kRan,           // the engine ran inputs and exited normally (or was stopped by the campaign)
  kEngineFailed,  // the engine failed to start, exited abnormally or ran 0 inputs: exit 2
  kNotRun,        // not started (or no input run) because the campaign was interrupted
};

std::string_view target_status_name(TargetStatus status);  // "ran", "engine-failed", "not-run"

// One fuzz target's share of the campaign.
struct TargetRun {
  std::string target;        // "cpudl"
  std::string property;      // FuzzTarget::property
  std::string engine;        // "libfuzzer" or "afl"
  double seconds = 0;        // wall time this target ran
  std::uint64_t execs = 0;   // inputs executed (all jobs)
  std::uint64_t exec_per_s = 0;
  std::uint64_t coverage = 0;   // libFuzzer "cov" (edges); AFL: edges found
  std::uint64_t features = 0;   // libFuzzer "ft"; 0 for AFL
  std::size_t corpus_before = 0;  // files in the corpus dir before
  std::size_t corpus_after = 0;   // after the merge
  std::size_t crash_files = 0;    // raw crash files the engine wrote
  TargetStatus status = TargetStatus::kRan;
  std::string error;              // why, when not kRan (one line, e.g. the engine log's error)
  bool ran() const { return status == TargetStatus::kRan; }
};

enum class FindingStatus : std::uint8_t {
  kNew,       // reproduces on every re-run and is not in the accepted list: fails the campaign
  kAccepted,  // signature listed in the accepted file: reported, does not fail
  kFlaky,     // failed on some re-runs only: reported, fails the campaign
  kNoRepro,   // crash file did not reproduce at all under replay: reported, fails
};

std::string_view finding_status_name(FindingStatus status);

// One unique finding: all crash files of one target with one signature.
struct UniqueFinding {
  std::string target;
  std::string signature;          // Finding::signature()
  FindingStatus status = FindingStatus::kNew;
  std::string accepted_reason;    // from the accepted file, when kAccepted
  Finding finding;                // of the minimised reproducer (or of the first crash)
  std::size_t duplicates = 0;     // crash files with this signature
  std::string first_crash;        // path of one raw crash file
  std::size_t reruns = 0;         // times the crash was replayed
  std::size_t rerun_failures = 0; // of which failed with this signature
  std::size_t original_ops = 0;   // ops in the crash input
  std::size_t minimized_ops = 0;  // ops in the reproducer
  std::string ops_path;           // reproducer, .ops text (relative to the cwd)
  std::string bin_path;           // reproducer, binary
  std::string ops_text;           // the reproducer's text
  std::string reproduce;          // exact shell command: "diffsched replay OUT/findings/x.ops"
  std::string check_file;         // repo-relative source file of the failing check
  unsigned check_line = 0;        // its line (1-based; 0 unknown)

  // The same check failing on the same field after other kinds of op: one
  // bug seen through several ops (e.g. a lost back-pointer after set, clear
  // and clear_online). Folded into this finding, each with its reproducer.
  struct Variant {
    std::string signature;
    std::size_t duplicates = 0;
    std::size_t minimized_ops = 0;
    std::string ops_path;
    std::string reproduce;
  };
  std::vector<Variant> variants;
};

struct CampaignReport {
  std::string started_utc;        // ISO 8601, "2026-11-30T05:40:00Z"
  double seconds = 0;             // wall time of the whole campaign
  double budget_seconds = 0;      // --time
  std::string engine;             // "libfuzzer" or "afl"
  unsigned jobs = 1;
  std::string corpus_dir;
  std::string out_dir;
  bool interrupted = false;       // stopped by SIGINT/SIGTERM before the budget
  int signal = 0;                 // the signal that interrupted it (SIGINT 2, SIGTERM 15)
  std::vector<TargetRun> targets;
  std::vector<UniqueFinding> findings;

  std::size_t new_findings() const;    // kNew, kFlaky and kNoRepro
  std::size_t engine_failures() const; // targets with TargetStatus::kEngineFailed
  // The campaign's exit status, in this order: 128+signal if interrupted
  // (130 SIGINT, 143 SIGTERM), 2 if an engine failed, 1 on a new finding, 0.
  int exit_status() const;
};

std::string report_markdown(const CampaignReport& r);
std::string report_junit(const CampaignReport& r);
std::string report_sarif(const CampaignReport& r);

}  // namespace diffsched::campaign
