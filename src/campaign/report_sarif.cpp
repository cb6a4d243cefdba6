#include "campaign/report.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <csignal>
#include <cmath>

#include <nlohmann/json.hpp>

#include "campaign/report_text.h"
#include "util/json.h"

#ifndef DIFFSCHED_VERSION
#define DIFFSCHED_VERSION "0.0.0"
#endif

namespace diffsched::campaign {

using namespace report_text;  // NOLINT(google-build-using-namespace): the formats' shared words

// SARIF 2.1.0.

namespace {

// Keys in the order written (the SARIF spec's order), not sorted.
using json = nlohmann::ordered_json;

// "cpudl/divergence/exact", "cpudl/invariant/heap-order", "pick/model-mismatch/model".
std::string rule_id(const Finding& f) {
  return fmt::format("{}/{}/{}", f.subject, finding_kind_name(f.kind), f.check);
}

std::string rule_short(const Finding& f) {
  switch (f.kind) {
    case FindingKind::kDivergence:
      return fmt::format("A {} side differs from the reference at level {}.", f.subject, f.check);
    case FindingKind::kInvariant:
      return fmt::format("A {} side breaks its invariant {}.", f.subject, f.check);
    case FindingKind::kModelMismatch:
      return fmt::format("A {} side answers what the simple model does not permit.", f.subject);
    case FindingKind::kOutOfDomain:
      return fmt::format("A {} check ({}) failed while live deadlines spanned 2^63 or more.",
                         f.subject, f.check);
    case FindingKind::kReader:
      return fmt::format("A lockless {} reader can see a {} answer only a non-reference side gives.",
                         f.subject, f.check);
  }
  return "A diffsched finding.";
}

std::string rule_full(const Finding& f) {
  switch (f.kind) {
    case FindingKind::kDivergence:
      return fmt::format(
          "diffsched ran the same op sequence on every {} side in lockstep and compared each "
          "side's observation with the reference's at equivalence level {}; a side differed.",
          f.subject, f.check);
    case FindingKind::kInvariant:
      return fmt::format(
          "diffsched checks each {} side's own invariants after every op; invariant {} did "
          "not hold on one side.",
          f.subject, f.check);
    case FindingKind::kModelMismatch:
      return fmt::format(
          "diffsched compares each {} side with a simple model at the level the model can "
          "answer; a side gave an answer the model does not permit.",
          f.subject);
    case FindingKind::kOutOfDomain:
      return fmt::format(
          "A {} check ({}) failed while live deadlines spanned 2^63 or more, outside the "
          "domain where dl_time_before() orders deadlines.",
          f.subject, f.check);
    case FindingKind::kReader:
      return fmt::format(
          "diffsched enumerated every answer a lockless {} reader can form between two stores "
          "of each update, every side from the reference's state; a side's reader reaches "
          "class {} at an op kind where the reference's never does.",
          f.subject, f.check);
  }
  return rule_short(f);
}

constexpr std::string_view kRuleHelp =
    "Replay the reproducer with the command in the result (diffsched replay FILE.ops) to see "
    "the op-by-op trace; diffsched minimize shrinks it further. If the difference is "
    "intended, add the signature with a reason to the campaign's accepted list.";

std::string result_message(const UniqueFinding& f) {
  std::string text = fmt::format("{} finding in target {}: {}.", finding_status_name(f.status),
                                 f.target, finding_words(f.finding));
  if (f.status == FindingStatus::kAccepted && !f.accepted_reason.empty())
    fmt::format_to(std::back_inserter(text), " Accepted: {}.", one_line(f.accepted_reason));
  // The command before the closing sentence, so that no period sticks to it.
  if (!f.reproduce.empty())
    fmt::format_to(std::back_inserter(text), " Reproduce: {}", one_line(f.reproduce));
  fmt::format_to(std::back_inserter(text), " (re-runs: {}; {}; ops {} -> {}).", reruns_text(f),
                 plural(f.duplicates, "crash file", "crash files"), f.original_ops,
                 f.minimized_ops);
  return text;
}

}  // namespace

std::string report_sarif(const CampaignReport& r) {
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  json results = json::array();
  for (const UniqueFinding& f : r.findings) {
    const std::string id = rule_id(f.finding);
    auto [it, inserted] = rule_index.emplace(id, rule_index.size());
    if (inserted) {
      rules.push_back({
          {"id", id},
          {"name", fmt::format("{}-{}", finding_kind_name(f.finding.kind), f.finding.check)},
          {"shortDescription", {{"text", rule_short(f.finding)}}},
          {"fullDescription", {{"text", rule_full(f.finding)}}},
          {"help", {{"text", std::string(kRuleHelp)}}},
          {"helpUri", std::string(kInformationUri)},
          {"defaultConfiguration", {{"level", "error"}}},
          {"properties", {{"tags", {"diffsched", std::string(f.finding.subject),
                                    std::string(finding_kind_name(f.finding.kind))}}}},
      });
    }
    json result = {
        {"ruleId", id},
        {"ruleIndex", it->second},
        {"level", fails(f) ? "error" : "note"},
        {"message", {{"text", result_message(f)}}},
        {"partialFingerprints", {{"diffschedSignature/v1", f.signature}}},
        {"properties",
         {{"target", f.target},
          {"status", std::string(finding_status_name(f.status))},
          {"signature", f.signature},
          {"duplicates", f.duplicates},
          {"reruns", f.reruns},
          {"rerunFailures", f.rerun_failures},
          {"originalOps", f.original_ops},
          {"minimizedOps", f.minimized_ops},
          {"reproduce", f.reproduce},
          {"ops", f.ops_text},
          {"opsPath", f.ops_path}}},
    };
    if (!f.variants.empty()) {
      json variants = json::array();
      for (const auto& v : f.variants)
        variants.push_back({{"signature", v.signature},
                            {"duplicates", v.duplicates},
                            {"minimizedOps", v.minimized_ops},
                            {"opsPath", v.ops_path},
                            {"reproduce", v.reproduce}});
      result["properties"]["variants"] = std::move(variants);
    }
    if (!f.check_file.empty()) {
      json physical = {{"artifactLocation", {{"uri", f.check_file}, {"uriBaseId", "SRCROOT"}}}};
      if (f.check_line > 0) physical["region"] = {{"startLine", f.check_line}};
      result["locations"] = json::array({{{"physicalLocation", physical}}});
    }
    if (f.status == FindingStatus::kAccepted)
      result["suppressions"] = json::array(
          {{{"kind", "external"},
            {"justification", f.accepted_reason.empty() ? "listed as accepted" : f.accepted_reason}}});
    results.push_back(std::move(result));
  }

  bool all_ran = true;
  json notifications = json::array();
  for (const TargetRun& t : r.targets) {
    if (t.ran()) continue;
    all_ran = false;
    const bool failed = t.status == TargetStatus::kEngineFailed;
    notifications.push_back(
        {{"level", failed ? "error" : "warning"},
         {"message", {{"text", fmt::format("Target {} {}: {}.", t.target,
                                           failed ? "engine-failed" : "not run",
                                           t.error.empty() ? "no reason given"
                                                           : one_line(t.error))}}},
         {"properties", {{"status", std::string(target_status_name(t.status))}}}});
  }
  if (r.interrupted)
    notifications.push_back(
        {{"level", "warning"},
         {"message", {{"text", fmt::format("The campaign was interrupted by signal {} before its "
                                           "time budget.", r.signal)}}}});
  const int exit_code = r.exit_status();
  json invocation = {
      {"executionSuccessful", all_ran && exit_code <= 1},
      {"exitCode", exit_code},
  };
  if (!r.started_utc.empty()) invocation["startTimeUtc"] = r.started_utc;
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  invocation["properties"] = {
      {"engine", r.engine},         {"jobs", r.jobs},
      {"seconds", r.seconds},       {"budgetSeconds", r.budget_seconds},
      {"interrupted", r.interrupted}, {"newFindings", r.new_findings()},
      {"engineFailures", r.engine_failures()},
  };

  json run = {
      {"tool",
       {{"driver",
         {{"name", "diffsched"},
          {"informationUri", std::string(kInformationUri)},
          {"version", DIFFSCHED_VERSION},
          {"rules", rules}}}}},
      {"automationDetails",
       {{"id", fmt::format("diffsched/campaign/{}", r.started_utc.empty() ? "run" : r.started_utc)}}},
      {"originalUriBaseIds",
       {{"SRCROOT", {{"description", {{"text", "The root of the diffsched source tree."}}}}}}},
      {"invocations", json::array({invocation})},
      {"results", results},
  };
  json log = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::array({run})},
  };
  return util::dump_json(log, 2) + "\n";  // any bytes: util/json.h
}


}  // namespace diffsched::campaign
