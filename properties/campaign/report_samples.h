// Hand-made campaign reports for the report writers' tests: a clean run, one
// with a new, an accepted and a flaky finding whose texts hold the characters
// that break Markdown tables, XML and JSON (`<>&"|`, backticks, control
// characters, invalid UTF-8), an interrupted run with a target that could
// not run, one whose engine failed (not interrupted), and one with many
// findings and long reproducers.
//
//   for (const auto& [name, report] : report_samples()) write(name, report);
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "campaign/report.h"

namespace diffsched::campaign {

inline TargetRun sample_target(std::string name, double seconds, std::uint64_t execs) {
  TargetRun t;
  t.target = std::move(name);
  t.property = "hole-based heap == swap-based heap";
  t.engine = "libfuzzer";
  t.seconds = seconds;
  t.execs = execs;
  t.exec_per_s = seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(execs) / seconds) : 0;
  t.coverage = 312;
  t.features = 1020;
  t.corpus_before = 12;
  t.corpus_after = 19;
  return t;
}

inline CampaignReport sample_clean() {
  CampaignReport r;
  r.started_utc = "2026-11-30T05:40:00Z";
  r.seconds = 180;
  r.budget_seconds = 180;
  r.engine = "libfuzzer";
  r.jobs = 2;
  r.corpus_dir = "corpus";
  r.out_dir = "out/campaign";
  for (const char* name : {"cpudl", "cpudl_exact", "pick", "cpumask"})
    r.targets.push_back(sample_target(name, 45, 1234567));
  return r;
}

inline Finding sample_divergence() {
  Finding f;
  f.kind = FindingKind::kDivergence;
  f.subject = "cpudl";
  f.op_index = 1;
  f.op_kind = "set";
  f.op_text = "set 1 100";
  f.side = "optimized";
  f.against = "reference";
  f.check = "exact";
  f.field = "slot.cpu";
  f.where = "slot 1";
  f.expected = "0";
  f.actual = "1";
  return f;
}

inline CampaignReport sample_mixed() {
  CampaignReport r = sample_clean();
  r.targets[1].crash_files = 5;
  r.targets[0].crash_files = 2;

  UniqueFinding n;
  n.target = "cpudl_exact";
  n.finding = sample_divergence();
  n.signature = n.finding.signature();
  n.status = FindingStatus::kNew;
  n.duplicates = 3;
  n.first_crash = "out/campaign/crashes/cpudl_exact/crash-0a1b";
  n.reruns = 3;
  n.rerun_failures = 3;
  n.original_ops = 57;
  n.minimized_ops = 2;
  n.ops_path = "out/campaign/findings/cpudl_exact-1.ops";
  n.bin_path = "out/campaign/findings/cpudl_exact-1.bin";
  n.ops_text = "# cpudl, 4 cpus\nset 0 100\nset 1 100\n";
  n.reproduce = "diffsched replay --target cpudl_exact out/campaign/findings/cpudl_exact-1.ops";
  n.check_file = "src/subjects/cpudl/lockstep.cpp";
  n.check_line = 120;
  r.findings.push_back(n);

  UniqueFinding a = n;
  a.status = FindingStatus::kAccepted;
  a.accepted_reason = "known tie | at the <max> & \"equal\" deadlines\x01; see `docs`";
  a.duplicates = 2;
  a.target = "cpudl_exact";
  a.finding.field = "find.ret";
  a.finding.op_kind = "find";
  a.finding.op_text = "find";
  a.signature = a.finding.signature();
  a.check_line = 0;
  r.findings.push_back(a);

  UniqueFinding f;
  f.target = "cpudl";
  f.finding.kind = FindingKind::kInvariant;
  f.finding.subject = "cpudl";
  f.finding.op_index = 7;
  f.finding.op_kind = "clear";
  f.finding.op_text = "clear 3 <x> & \"y\" | z";
  f.finding.side = "hole";
  f.finding.check = "heap-order";
  f.finding.field = "slot.dl";
  f.finding.where = "slot 2 | parent 0";
  f.finding.actual = "dl[2]=`200` > dl[0]=100\x02\x1b[31m\xff\xfe end";
  f.finding.detail = "line one\nline two\r\twith tab";
  f.signature = f.finding.signature();
  f.status = FindingStatus::kFlaky;
  f.duplicates = 1;
  f.first_crash = "out/campaign/crashes/cpudl/crash-<&>";
  f.reruns = 5;
  f.rerun_failures = 2;
  f.original_ops = 300;
  f.minimized_ops = 9;
  f.ops_path = "out/campaign/findings/cpudl-2.ops";
  f.ops_text = "set 0 1\n```\nclear 3 # <&> \"|\" \x07\n";
  f.reproduce = "diffsched replay 'out/campaign/findings/cpudl-2.ops' | less";
  f.check_file = "src/subjects/cpudl/invariants.cpp";
  f.check_line = 42;
  r.findings.push_back(f);

  UniqueFinding nr = f;
  nr.status = FindingStatus::kNoRepro;
  nr.finding.kind = FindingKind::kModelMismatch;
  nr.finding.check = "model";
  nr.finding.against = "model";
  nr.finding.expected = "one of {0, 2}";
  nr.finding.actual = "3";
  nr.finding.detail = "";
  nr.finding.field = "find.ret";
  nr.signature = nr.finding.signature();
  nr.reruns = 3;
  nr.rerun_failures = 0;
  nr.check_file = "";
  nr.check_line = 0;
  r.findings.push_back(nr);
  return r;
}

inline CampaignReport sample_interrupted() {
  CampaignReport r = sample_clean();
  r.interrupted = true;
  r.seconds = 61.5;
  r.jobs = 1;
  r.engine = "afl";
  for (TargetRun& t : r.targets) t.engine = "afl", t.features = 0;
  r.signal = 2;  // SIGINT: exit 130
  r.targets[2].status = TargetStatus::kEngineFailed;
  r.targets[2].seconds = 0;
  r.targets[2].error = "afl-fuzz: no instrumentation found in <build-afl/fuzz/pick> & \"|\"\x03";
  r.targets[3].status = TargetStatus::kNotRun;  // never started: the interrupt came first
  r.targets[3].seconds = 0;
  return r;
}

// Not interrupted, one target's engine failed (libFuzzer given a file as its
// corpus): exit 2 even with no finding, JUnit <error>, SARIF not successful.
inline CampaignReport sample_engine_failed() {
  CampaignReport r = sample_clean();
  r.targets[1].status = TargetStatus::kEngineFailed;
  r.targets[1].execs = 0;
  r.targets[1].error = "ran 0 inputs (exit 1): ERROR: \"build/x/cpudl_exact\": Not a directory";
  return r;
}

// 30 failing findings with 1000-op reproducers: the summary must stay short.
inline CampaignReport sample_many() {
  CampaignReport r = sample_mixed();
  UniqueFinding big = r.findings[0];
  big.ops_text.clear();
  for (int i = 0; i < 1000; ++i) big.ops_text += "set " + std::to_string(i % 8) + " 100\n";
  r.findings.assign(30, big);
  return r;
}

inline std::vector<std::pair<std::string, CampaignReport>> report_samples() {
  return {{"clean", sample_clean()},
          {"mixed", sample_mixed()},
          {"interrupted", sample_interrupted()},
          {"engine-failed", sample_engine_failed()},
          {"many", sample_many()}};
}

}  // namespace diffsched::campaign
