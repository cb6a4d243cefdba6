// Runs a property that is expected to fail and returns what RapidCheck
// found: its printed counterexample and the shrunk op sequence.
//
//   auto found = expect_cpudl_finding([] { run_cpudl_state_check(...); });
//   EXPECT_TRUE(found.failed);  EXPECT_LE(found.ops.size(), 3u);
#pragma once

#include <algorithm>
#include <sstream>
#include <string>

#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>

#include "support/cpudl_state.h"

namespace diffsched::testing {

struct ExpectedFinding {
  bool failed = false;
  std::vector<cpudl::Op> ops;
  std::optional<Finding> finding;
  std::string report;  // RapidCheck's failure message and our trace
};

template <class Property>
ExpectedFinding expect_cpudl_finding(Property property) {
  last_cpudl_failure() = {};
  // A planted bug must be found, not found by luck: up to 1000 cases (the
  // run stops at the first failure, so a mutant found early costs nothing
  // more); the seed is still RapidCheck's (RC_PARAMS), so a run reproduces.
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, 1000);
  const auto result = rc::detail::checkTestable(property, rc::detail::TestMetadata{}, params);
  ExpectedFinding out;
  rc::detail::FailureResult failure;
  out.failed = result.match(failure);
  if (!out.failed) return out;
  const auto& last = last_cpudl_failure();
  out.ops = last.ops;
  out.finding = last.finding;
  std::ostringstream os;
  os << "RapidCheck: falsifiable after " << failure.numSuccess << " successful tests\n";
  for (const auto& [type, value] : failure.counterExample) os << type << ":\n" << value << "\n";
  os << "shrunk to " << out.ops.size() << " ops (cpus " << last.nr_cpu_ids << "):\n";
  {
    kernel::NrCpuIdsScope scope(last.nr_cpu_ids ? last.nr_cpu_ids : 1);
    for (const auto& op : out.ops) os << "  " << io::format_op(op) << "\n";
  }
  if (out.finding) os << out.finding->describe() << "\n";
  out.report = os.str();
  return out;
}

}  // namespace diffsched::testing
