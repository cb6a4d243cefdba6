#include "campaign/report.h"

#include <algorithm>
#include <csignal>
#include <string_view>

#include <fmt/format.h>

#include "engine/exit_status.h"

namespace diffsched::campaign {

std::string_view finding_status_name(FindingStatus status) {
  switch (status) {
    case FindingStatus::kNew: return "new";
    case FindingStatus::kAccepted: return "accepted";
    case FindingStatus::kFlaky: return "flaky";
    case FindingStatus::kNoRepro: return "no-repro";
  }
  return "?";
}

std::string_view target_status_name(TargetStatus status) {
  switch (status) {
    case TargetStatus::kRan: return "ran";
    case TargetStatus::kEngineFailed: return "engine-failed";
    case TargetStatus::kNotRun: return "not-run";
  }
  return "?";
}

std::size_t CampaignReport::engine_failures() const {
  return static_cast<std::size_t>(
      std::count_if(targets.begin(), targets.end(),
                    [](const TargetRun& t) { return t.status == TargetStatus::kEngineFailed; }));
}

int CampaignReport::exit_status() const {
  if (interrupted) return kExitSignalBase + (signal > 0 ? signal : SIGINT);
  if (engine_failures()) return kExitBadInput;
  return new_findings() ? kExitFinding : kExitOk;
}

std::size_t CampaignReport::new_findings() const {
  return static_cast<std::size_t>(std::count_if(
      findings.begin(), findings.end(),
      [](const UniqueFinding& f) { return f.status != FindingStatus::kAccepted; }));
}

}  // namespace diffsched::campaign
