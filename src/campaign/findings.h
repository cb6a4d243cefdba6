// From crash files to the campaign's unique findings: classify (signature),
// re-run one file per signature (flaky or real), minimise it, write it as
// .ops and binary under OUT/findings with the command that reproduces it,
// apply the accepted list, fold variants. After an interrupt there are no
// re-runs and no minimisation (the campaign stops promptly); the in-process
// replay decides.
//
//   auto findings = make_findings({.layout = layout, .fuzz_dir = dir, .reruns = 3,
//                                  .self = "diffsched"}, crashes, accepted);
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "campaign/accepted.h"
#include "campaign/classify.h"
#include "campaign/layout.h"
#include "campaign/report.h"

namespace diffsched::campaign {

struct FindingOptions {
  Layout layout;                // reproducers under layout.findings(); the binaries' logs
  std::filesystem::path fuzz_dir;  // libFuzzer binaries: classification and re-runs
  unsigned reruns = 3;
  std::string self = "diffsched";  // how reproduce commands invoke diffsched
};

// The unique findings, failing ones first.
std::vector<UniqueFinding> make_findings(const FindingOptions& o, const std::vector<Crash>& crashes,
                                         const std::vector<AcceptedEntry>& accepted);

}  // namespace diffsched::campaign
