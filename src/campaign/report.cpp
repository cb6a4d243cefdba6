// Placeholder writers until the full report formats land.
#include "campaign/report.h"

#include <fmt/format.h>

namespace diffsched::campaign {

std::string_view finding_status_name(FindingStatus s) {
  switch (s) {
    case FindingStatus::kNew: return "new";
    case FindingStatus::kAccepted: return "accepted";
    case FindingStatus::kFlaky: return "flaky";
    case FindingStatus::kNoRepro: return "no-repro";
  }
  return "?";
}

std::size_t CampaignReport::new_findings() const {
  std::size_t n = 0;
  for (const auto& f : findings) n += f.status != FindingStatus::kAccepted;
  return n;
}

std::string report_markdown(const CampaignReport& r) {
  std::string out = fmt::format("campaign: {} new findings, {} targets\n", r.new_findings(), r.targets.size());
  for (const auto& t : r.targets)
    out += fmt::format("- {} {} execs cov {} corpus {} -> {} crashes {} {}\n", t.target, t.execs, t.coverage, t.corpus_before, t.corpus_after, t.crash_files, t.error);
  for (const auto& f : r.findings)
    out += fmt::format("* {} {} {} dup {} reruns {}/{} ops {}->{} at {}:{}\n  {}\n{}", finding_status_name(f.status), f.target, f.signature, f.duplicates, f.rerun_failures, f.reruns, f.original_ops, f.minimized_ops, f.check_file, f.check_line, f.reproduce, f.ops_text);
  return out;
}
std::string report_junit(const CampaignReport&) { return "<testsuites/>\n"; }
std::string report_sarif(const CampaignReport&) { return "{}\n"; }

}  // namespace diffsched::campaign
