// The campaign's pieces that need no fuzzer: the accepted-divergences file,
// signature globs, and that findings name the check's source line.
#include <fstream>

#include <gtest/gtest.h>

#include "campaign/campaign.h"
#include "subjects/cpudl/lockstep.h"
#include "engine/runner.h"
#include "io/text.h"
#include "tools/process.h"

namespace diffsched::campaign {
namespace {

TEST(CampaignGlob, MatchesStarsAndQuestionMarks) {
  EXPECT_TRUE(glob_match("cpudl:divergence:exact:*", "cpudl:divergence:exact:slot.cpu:set"));
  EXPECT_TRUE(glob_match("*:idx:?et", "cpudl:invariant:idx-of-slot:idx:set"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_FALSE(glob_match("cpudl:divergence:exact:*", "cpudl:divergence:deadline:dl:set"));
  EXPECT_FALSE(glob_match("cpudl:*:set", "cpudl:invariant:heap-order:slot.dl:clear"));
  EXPECT_FALSE(glob_match("a?", "a"));
}

std::string write_temp(const std::string& text) {
  static int n = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("diffsched-accepted-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  std::ofstream(path) << text;
  return path.string();
}

TEST(CampaignAccepted, TheCheckedInFileParses) {
  std::string error;
  auto entries = load_accepted(tools::source_dir() / "corpus" / "accepted.txt", &error);
  ASSERT_TRUE(entries) << error;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].target, "cpudl_exact");
  EXPECT_TRUE((*entries)[0].if_deadline_level_passes);
  EXPECT_FALSE((*entries)[0].reason.empty());
}

TEST(CampaignAccepted, BadLinesAreNamedWithTheirLineNumber) {
  std::string error;
  EXPECT_FALSE(load_accepted(write_temp("# c\ncpudl cpudl:*\n"), &error));
  EXPECT_NE(error.find(":2: expected"), std::string::npos) << error;
  EXPECT_FALSE(load_accepted(write_temp("nosuch cpudl:* -- r\n"), &error));
  EXPECT_NE(error.find("unknown target 'nosuch'"), std::string::npos) << error;
  EXPECT_FALSE(load_accepted(write_temp("cpudl cpudl:* if-sunny -- r\n"), &error));
  EXPECT_NE(error.find("unknown condition 'if-sunny'"), std::string::npos) << error;
  // The lockstep never shows a race target's finding: the condition would pass them all.
  EXPECT_FALSE(load_accepted(write_temp("cpudl_race cpudl:reader:* if-deadline-level-passes -- r\n"),
                             &error));
  EXPECT_NE(error.find(":1: if-deadline-level-passes asks the lockstep"), std::string::npos) << error;
  EXPECT_FALSE(load_accepted("/nonexistent/accepted.txt", &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
}

io::AnyProgram tie_program() {
  io::Program<cpudl::Subject> p;
  p.config = {2};
  p.ops = {cpudl::Set{1, 0}, cpudl::Set{0, 0}};
  return p;
}

UniqueFinding new_finding(std::string target, std::string signature) {
  UniqueFinding u;
  u.target = std::move(target);
  u.signature = std::move(signature);
  return u;
}

TEST(CampaignAccepted, ApplyMatchesTargetAndGlob) {
  const std::vector<AcceptedEntry> accepted = {{"cpudl_exact", "cpudl:divergence:exact:*", false,
                                                "ties", 1}};
  UniqueFinding u = new_finding("cpudl_exact", "cpudl:divergence:exact:slot.cpu:set");
  apply_accepted(accepted, std::nullopt, &u);
  EXPECT_EQ(u.status, FindingStatus::kAccepted);
  EXPECT_EQ(u.accepted_reason, "ties");
  UniqueFinding other_target = new_finding("cpudl", "cpudl:divergence:exact:slot.cpu:set");
  apply_accepted(accepted, std::nullopt, &other_target);
  EXPECT_EQ(other_target.status, FindingStatus::kNew);
  UniqueFinding other_sig = new_finding("cpudl_exact", "cpudl:invariant:heap-order:dl:set");
  apply_accepted(accepted, std::nullopt, &other_sig);
  EXPECT_EQ(other_sig.status, FindingStatus::kNew);
  apply_accepted({}, std::nullopt, &other_sig);
  EXPECT_EQ(other_sig.status, FindingStatus::kNew);
}

TEST(CampaignAccepted, IfDeadlineLevelPassesNeedsAReproducerThatPasses) {
  const std::vector<AcceptedEntry> accepted = {{"cpudl_exact", "*", true, "ties only", 1}};
  UniqueFinding tie = new_finding("cpudl_exact", "cpudl:divergence:exact:slot.cpu:set");
  apply_accepted(accepted, tie_program(), &tie);  // a tie: passes at the deadline level
  EXPECT_EQ(tie.status, FindingStatus::kAccepted);
  UniqueFinding unknown = new_finding("cpudl_exact", "cpudl:divergence:exact:slot.cpu:set");
  apply_accepted(accepted, std::nullopt, &unknown);  // no reproducer: cannot tell, not accepted
  EXPECT_EQ(unknown.status, FindingStatus::kNew);
}

TEST(CampaignFinding, NamesTheSourceLineOfTheFailingCheck) {
  // Equal deadlines at the exact level: the slot comparison in lockstep_findings.cpp.
  std::vector<cpudl::Op> ops = {cpudl::Set{1, 0}, cpudl::Set{0, 0}};
  cpudl::Lockstep lockstep;
  const Verdict v = run_lockstep<cpudl::Subject>(lockstep, {2}, ops, Level::kExact);
  ASSERT_TRUE(v.finding);
  EXPECT_EQ(v.finding->check_source(), "src/subjects/cpudl/lockstep_findings.cpp");
  EXPECT_GT(v.finding->check_line, 0u);
  std::ifstream src(tools::source_dir() / "src/subjects/cpudl/lockstep_findings.cpp");
  std::string line;
  for (unsigned i = 0; i < v.finding->check_line; ++i) std::getline(src, line);
  EXPECT_NE(line.find("fail("), std::string::npos) << "line " << v.finding->check_line << ": "
                                                    << line;
}

}  // namespace
}  // namespace diffsched::campaign

namespace diffsched::campaign {
namespace {

// Each invariant's violation points at the statement under its check.
TEST(CampaignFinding, InvariantViolationsNameTheirCheckLine) {
  kernel::cpudl_item<kernel::Uncounted> el[2] = {};
  el[0].dl = 1;  // slot 0: cpu 0, dl 1; slot 1: cpu 1, dl 2 -> heap order broken
  el[0].cpu = 0;
  el[0].idx = 0;
  el[1].dl = 2;
  el[1].cpu = 1;
  el[1].idx = 1;
  kernel::Cpumask free_cpus{};
  const cpudl::HeapView h{2, 2, el, &free_cpus};
  const auto v = cpudl::check_invariants(h);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->invariant, "heap-order");
  ASSERT_NE(v->file, nullptr);
  std::ifstream src(v->file);
  std::string line;
  for (unsigned i = 0; i < v->line; ++i) std::getline(src, line);
  EXPECT_NE(line.find("\"heap-order\""), std::string::npos) << "line " << v->line << ": " << line;
}

}  // namespace
}  // namespace diffsched::campaign
