// The campaign report writers (src/campaign/report.cpp) on hand-made reports:
// counts, structure and escaping. The real validators run on the same samples
// in the ctest reports.validate.* (scripts/validate-reports.sh).
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "campaign/report_samples.h"

namespace diffsched::campaign {
namespace {

using nlohmann::json;

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1))
    ++n;
  return n;
}

// The value of attribute `name` on the first element `tag`.
std::string attribute(const std::string& xml, const std::string& tag, const std::string& name) {
  std::smatch m;
  const std::regex re("<" + tag + "\\b[^>]*\\b" + name + "=\"([^\"]*)\"");
  return std::regex_search(xml, m, re) ? m[1].str() : "<missing>";
}

bool has_forbidden_xml_char(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && u != '\n' && u != '\t' && u != '\r') return true;
  }
  return false;
}

TEST(Report, StatusNamesAndNewFindingsCountEverythingButAccepted) {
  EXPECT_EQ(finding_status_name(FindingStatus::kNew), "new");
  EXPECT_EQ(finding_status_name(FindingStatus::kAccepted), "accepted");
  EXPECT_EQ(finding_status_name(FindingStatus::kFlaky), "flaky");
  EXPECT_EQ(finding_status_name(FindingStatus::kNoRepro), "no-repro");
  EXPECT_EQ(sample_clean().new_findings(), 0u);
  EXPECT_EQ(sample_clean().exit_status(), 0);
  EXPECT_EQ(sample_mixed().new_findings(), 3u);
  EXPECT_EQ(sample_mixed().exit_status(), 1);
  EXPECT_EQ(sample_engine_failed().exit_status(), 2);  // an engine failure beats "no finding"
  EXPECT_EQ(sample_interrupted().exit_status(), 130);  // SIGINT beats the engine failure
  CampaignReport term = sample_mixed();
  term.interrupted = true;
  term.signal = 15;
  EXPECT_EQ(term.exit_status(), 143);  // and beats a finding
  CampaignReport failed_with_finding = sample_mixed();
  failed_with_finding.targets[0].status = TargetStatus::kEngineFailed;
  EXPECT_EQ(failed_with_finding.exit_status(), 2);
  EXPECT_EQ(target_status_name(TargetStatus::kEngineFailed), "engine-failed");
}

TEST(ReportEngineFailed, IsNeverAPassInAnyReport) {
  const CampaignReport r = sample_engine_failed();
  const std::string md = report_markdown(r);
  EXPECT_NE(md.find("1 target engine-failed, no new finding"), std::string::npos) << md;
  EXPECT_NE(md.find("engine-failed: ran 0 inputs"), std::string::npos) << md;
  const std::string xml = report_junit(r);
  EXPECT_EQ(count(xml, "<error "), 1u);
  EXPECT_NE(xml.find("type=\"engine-failed\""), std::string::npos);
  EXPECT_NE(xml.find("Not a directory"), std::string::npos);
  EXPECT_EQ(attribute(xml, "testsuite", "errors"), "1");
  const json inv = json::parse(report_sarif(r))["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  EXPECT_EQ(inv["exitCode"], 2);
  ASSERT_EQ(inv["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["level"], "error");
  EXPECT_EQ(inv["toolExecutionNotifications"][0]["properties"]["status"], "engine-failed");
}

TEST(ReportMarkdown, CleanRunSaysNoNewFindingAndListsEveryTarget) {
  const std::string md = report_markdown(sample_clean());
  EXPECT_NE(md.find("**diffsched campaign: no new finding** — 4 targets, 180 s of 180 s budget, "
                    "libfuzzer ×2 jobs"),
            std::string::npos)
      << md;
  for (const char* t : {"`cpudl`", "`cpudl_exact`", "`pick`", "`cpumask`"})
    EXPECT_NE(md.find(std::string("| ") + t + " |"), std::string::npos) << t;
  EXPECT_NE(md.find("| 12 → 19 (+7) |"), std::string::npos);
  EXPECT_NE(md.find("| 1,234,567 |"), std::string::npos);
  EXPECT_EQ(md.find("## Findings"), std::string::npos);
}

TEST(ReportMarkdown, FindingsShowReproducerAndCommandAndEscapeTableAndControlChars) {
  const std::string md = report_markdown(sample_mixed());
  EXPECT_NE(md.find("**diffsched campaign: 3 new findings**"), std::string::npos);
  EXPECT_NE(md.find("### 1. new in `cpudl_exact`: `cpudl:divergence:exact:slot.cpu:set`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- re-runs: 2 of 5 failed"), std::string::npos);
  EXPECT_NE(md.find("- ops: 57 original → 2 minimised"), std::string::npos);
  EXPECT_NE(md.find("```sh\ndiffsched replay --target cpudl_exact"), std::string::npos);
  // The flaky reproducer holds a ``` line: its fence must be longer.
  EXPECT_NE(md.find("````text\nset 0 1\n```\nclear 3"), std::string::npos) << md;
  EXPECT_NE(md.find("## Accepted divergences"), std::string::npos);
  EXPECT_NE(md.find("known tie \\| at the \\<max\\> \\& \"equal\" deadlines\\\\x01"),
            std::string::npos)
      << md;
  EXPECT_FALSE(has_forbidden_xml_char(md));
  // Every table row has the header's 10 cells (11 unescaped pipes).
  std::size_t rows = 0;
  for (std::size_t at = 0; at < md.size();) {
    const std::size_t end = md.find('\n', at);
    const std::string line = md.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] != '|') continue;
    ++rows;
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i)
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
    EXPECT_EQ(pipes, 11u) << line;
  }
  EXPECT_EQ(rows, 6u);
}

TEST(ReportMarkdown, StaysShortWithManyFindingsAndLongReproducers) {
  const std::string md = report_markdown(sample_many());
  EXPECT_NE(md.find("# ... 960 more lines in out/campaign/findings/cpudl_exact-1.ops"),
            std::string::npos);
  EXPECT_NE(md.find("### 10 more"), std::string::npos);
  EXPECT_EQ(count(md, "```sh\n"), 20u);
  EXPECT_LT(md.size(), 40000u);
}

TEST(ReportMarkdown, InterruptionAndTargetsThatCouldNotRunAreFlagged) {
  const std::string md = report_markdown(sample_interrupted());
  EXPECT_NE(md.find("(interrupted)**"), std::string::npos);
  EXPECT_NE(md.find("> **Interrupted:**"), std::string::npos);
  EXPECT_NE(md.find("engine-failed: afl-fuzz: no instrumentation found in "
                    "\\<build-afl/fuzz/pick\\> \\& \"\\|\"\\\\x03"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("**not run**"), std::string::npos);
}

TEST(ReportJunit, OneTestCasePerTargetAndOneFailurePerUniqueFailingFinding) {
  const std::string xml = report_junit(sample_mixed());
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  EXPECT_EQ(count(xml, "<testcase "), 4u);
  EXPECT_EQ(count(xml, "<failure "), 3u);  // new, flaky, no-repro; not the accepted one
  EXPECT_EQ(attribute(xml, "testsuites", "tests"), "4");
  EXPECT_EQ(attribute(xml, "testsuite", "failures"), "2");  // test cases cpudl and cpudl_exact
  EXPECT_EQ(attribute(xml, "testsuite", "errors"), "0");
  EXPECT_EQ(attribute(xml, "testsuite", "timestamp"), "2026-11-30T05:40:00Z");
  EXPECT_EQ(attribute(xml, "testcase", "time"), "45.000");
  EXPECT_NE(xml.find("type=\"flaky\""), std::string::npos);
  EXPECT_NE(xml.find("accepted: cpudl:divergence:exact:find.ret:find (2 crash files): known tie "
                     "| at the &lt;max&gt; &amp; \"equal\" deadlines\\x01"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("clear 3 &lt;x&gt; &amp; &quot;y&quot; | z"), std::string::npos);
  EXPECT_NE(xml.find("\\x1B[31m\\xFF\\xFE end"), std::string::npos) << xml;
  EXPECT_FALSE(has_forbidden_xml_char(xml));
}

TEST(ReportJunit, TargetThatCouldNotRunIsAnErrorAndOneNeverStartedIsSkipped) {
  const std::string xml = report_junit(sample_interrupted());
  EXPECT_EQ(count(xml, "<error "), 1u);
  EXPECT_EQ(count(xml, "<skipped>"), 1u);
  EXPECT_EQ(attribute(xml, "testsuite", "errors"), "1");
  EXPECT_EQ(attribute(xml, "testsuite", "skipped"), "1");
  EXPECT_EQ(attribute(xml, "testsuite", "failures"), "0");
  EXPECT_NE(xml.find("&lt;build-afl/fuzz/pick&gt; &amp; &quot;|&quot;\\x03"), std::string::npos);
  EXPECT_EQ(report_junit(sample_clean()).find("<failure"), std::string::npos);
}

TEST(ReportSarif, HasTheRequiredKeysOneRulePerCheckAndOneResultPerFinding) {
  const json log = json::parse(report_sarif(sample_mixed()));
  EXPECT_EQ(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "diffsched");
  EXPECT_TRUE(run["tool"]["driver"].contains("version"));
  EXPECT_TRUE(run["tool"]["driver"].contains("informationUri"));
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 3u);  // cpudl/divergence/exact (twice), heap-order, model
  EXPECT_EQ(rules[0]["id"], "cpudl/divergence/exact");
  EXPECT_EQ(rules[1]["id"], "cpudl/invariant/heap-order");
  EXPECT_EQ(rules[2]["id"], "cpudl/model-mismatch/model");
  for (const json& rule : rules) {
    EXPECT_TRUE(rule["shortDescription"].contains("text"));
    EXPECT_TRUE(rule["fullDescription"].contains("text"));
    EXPECT_TRUE(rule["help"].contains("text"));
  }
  EXPECT_TRUE(run["originalUriBaseIds"].contains("SRCROOT"));
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], true);
  EXPECT_EQ(run["invocations"][0]["exitCode"], 1);
  EXPECT_TRUE(run["automationDetails"].contains("id"));

  const json& results = run["results"];
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0]["ruleId"], "cpudl/divergence/exact");
  EXPECT_EQ(results[0]["ruleIndex"], 0);
  EXPECT_EQ(results[0]["level"], "error");
  EXPECT_EQ(results[1]["level"], "note");
  EXPECT_EQ(results[1]["ruleIndex"], 0);
  EXPECT_EQ(results[1]["suppressions"][0]["kind"], "external");
  EXPECT_EQ(results[2]["level"], "error");
  EXPECT_EQ(results[3]["level"], "error");
  const json& loc = results[0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "src/subjects/cpudl/lockstep.cpp");
  EXPECT_EQ(loc["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(loc["region"]["startLine"], 120);
  EXPECT_FALSE(results[1]["locations"][0]["physicalLocation"].contains("region"));  // line 0
  EXPECT_FALSE(results[3].contains("locations"));  // no check file
  EXPECT_EQ(results[0]["partialFingerprints"]["diffschedSignature/v1"],
            "cpudl:divergence:exact:slot.cpu:set");
  const json& props = results[2]["properties"];
  EXPECT_EQ(props["target"], "cpudl");
  EXPECT_EQ(props["status"], "flaky");
  EXPECT_EQ(props["duplicates"], 1);
  EXPECT_EQ(props["ops"], "set 0 1\n```\nclear 3 # <&> \"|\" \x07\n");  // kept exactly
  const std::string message = results[0]["message"]["text"];
  EXPECT_NE(message.find("Reproduce: diffsched replay --target cpudl_exact"), std::string::npos);
  EXPECT_EQ(message.back(), '.');
}

TEST(ReportSarif, InterruptedRunAndUnrunTargetsAreNotSuccessfulExecutions) {
  const json log = json::parse(report_sarif(sample_interrupted()));
  const json& inv = log["runs"][0]["invocations"][0];
  EXPECT_EQ(inv["executionSuccessful"], false);
  EXPECT_EQ(inv["exitCode"], 130);  // the process's real exit status, not 0
  EXPECT_EQ(inv["toolExecutionNotifications"].size(), 3u);  // two targets + the interrupt
  EXPECT_TRUE(log["runs"][0]["results"].empty());
  EXPECT_TRUE(log["runs"][0]["tool"]["driver"]["rules"].empty());
}

}  // namespace
}  // namespace diffsched::campaign
