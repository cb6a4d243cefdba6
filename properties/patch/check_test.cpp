// patch::check_patch and its reports (src/patch/check.h) where no
// kernel-check runs: a patch nothing can check (exit 3, never 0), bad
// patches and trees (2), the base order; the JSON and b4 reports parsed
// back with nlohmann-json, the KTAP's shape.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/exit_status.h"
#include "patch/check.h"

namespace diffsched::patch {
namespace {

namespace fs = std::filesystem;
const std::string kCheckInputs = DIFFSCHED_PATCH_INPUTS;

CheckPatchOptions options(const std::string& input) {
  CheckPatchOptions o;
  o.patch = kCheckInputs + "/" + input;
  o.tree = DIFFSCHED_PATCH_TREE;  // made at configure time (properties/patch/check_patch.cmake)
  o.self = "/nonexistent/diffsched";  // no kernel-check may run in these tests
  o.self_command = "diffsched";
  o.version = "diffsched test";
  return o;
}

// A git rename with a change: staged as a move, then its hunk; the changed
// function is found against the old file, and listed under the new path.
TEST(CheckPatch, RenameIsStagedAndDiffedAgainstTheOldPath) {
  const Report r = check_patch(options("rename-topology.diff"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.status, kExitOutOfDomain);
  ASSERT_EQ(r.units.size(), 1u);
  EXPECT_EQ(r.units[0].files, (std::vector<std::string>{"kernel/sched/topology_span.c"}));
  ASSERT_EQ(r.units[0].unchecked.size(), 1u);
  EXPECT_EQ(r.units[0].unchecked[0].file, "kernel/sched/topology_span.c");
  EXPECT_EQ(r.units[0].unchecked[0].function, "sd_degenerate_span");
}

// A rename alone changes no line: listed with its reason (3, never 0); a
// rename of a file the tree lacks is one error line (2).
TEST(CheckPatch, PureRenameIsNotCheckedWithItsReasonAndAMissingSourceIsAnError) {
  const fs::path dir = fs::temp_directory_path() / "diffsched-check-rename-test";
  fs::create_directories(dir);
  const auto write = [&](const char* name, const char* text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  CheckPatchOptions o = options("topology.patch");
  o.patch = write("pure.diff", "diff --git a/kernel/sched/topology.c b/kernel/sched/topo.c\n"
                               "similarity index 100%\nrename from kernel/sched/topology.c\n"
                               "rename to kernel/sched/topo.c\n");
  const Report r = check_patch(o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.status, kExitOutOfDomain);
  ASSERT_EQ(r.units.at(0).unchecked.size(), 1u);
  EXPECT_EQ(r.units[0].unchecked[0].reason, "renamed or copied from kernel/sched/topology.c; no line changed");
  o.patch = write("missing.diff", "diff --git a/kernel/sched/none.c b/kernel/sched/n.c\n"
                                  "similarity index 100%\nrename from kernel/sched/none.c\n"
                                  "rename to kernel/sched/n.c\n");
  const Report bad = check_patch(o);
  EXPECT_EQ(bad.status, kExitBadInput);
  EXPECT_EQ(bad.error, "patch 1 renames kernel/sched/none.c, which is not in the tree");
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(CheckPatch, NothingCheckableIsExitThreeNeverZero) {
  const Report r = check_patch(options("topology.patch"));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.status, kExitOutOfDomain);
  ASSERT_EQ(r.units.size(), 1u);
  EXPECT_TRUE(r.units[0].checks.empty());
  ASSERT_EQ(r.units[0].unchecked.size(), 1u);
  EXPECT_EQ(r.units[0].unchecked[0].function, "sd_degenerate_span");
  EXPECT_NE(r.units[0].unchecked[0].reason.find("diffsched fn is not available"), std::string::npos);
  EXPECT_EQ(r.base, "the tree as it is");
  EXPECT_TRUE(r.work.empty()) << "a clean run's temporary directory is removed";
}

TEST(CheckPatch, JsonReportIsData) {
  const Report r = check_patch(options("topology.patch"));
  const nlohmann::json j = nlohmann::json::parse(format_report(r, Format::kJson));
  EXPECT_EQ(j.at("status"), 3);
  EXPECT_EQ(j.at("verdict"), "NO VERDICT");
  EXPECT_EQ(j.at("form"), "mbox");
  EXPECT_EQ(j.at("units").at(0).at("unchecked").at(0).at("file"), "kernel/sched/topology.c");
  EXPECT_EQ(j.at("units").at(0).at("subject"),
            "[PATCH] sched: a topology change no check takes (test patch)");
}

TEST(CheckPatch, B4AnswerIsOneArrayOfChecks) {
  const Report r = check_patch(options("topology.patch"));
  const nlohmann::json j = nlohmann::json::parse(format_b4(r));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0].at("tool"), "diffsched");
  EXPECT_EQ(j[0].at("status"), "warn");
  EXPECT_TRUE(j[0].at("summary").is_string());
  EXPECT_TRUE(j[0].at("details").is_string());
}

TEST(CheckPatch, KtapSkipsWhatWasNotChecked) {
  const std::string k = format_report(check_patch(options("topology.patch")), Format::kKtap);
  EXPECT_EQ(k.rfind("KTAP version 1\n1..1\n", 0), 0u) << k;
  EXPECT_NE(k.find("    # Subtest: patch-1\n"), std::string::npos) << k;
  EXPECT_NE(k.find("    ok 1 kernel/sched/topology.c sd_degenerate_span # SKIP not checked: "),
            std::string::npos) << k;
  EXPECT_NE(k.find("\nok 1 patch-1 # SKIP nothing checkable\n"), std::string::npos) << k;
}

TEST(CheckPatch, BadInputsAreOneLineAndExitTwo) {
  for (const char* input : {"bad-counts.diff", "no-files.mbox", "bad-hunk-fails.diff", "missing.diff"}) {
    const Report r = check_patch(options(input));
    EXPECT_EQ(r.status, kExitBadInput) << input;
    EXPECT_FALSE(r.error.empty()) << input;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  }
  const Report hunk = check_patch(options("bad-hunk-fails.diff"));
  EXPECT_NE(hunk.error.find("kernel/sched/cpudeadline.c hunk 1 '@@ -158,7 +158,7 @@"), std::string::npos)
      << hunk.error;
  CheckPatchOptions no_tree = options("topology.patch");
  no_tree.tree = "/nonexistent/tree";
  EXPECT_EQ(check_patch(no_tree).status, kExitBadInput);
}

TEST(CheckPatch, StatedBaseOutsideGitIsANoteNotAGuess) {
  // The tree is not the top of a git repository: base-commit cannot be used there.
  CheckPatchOptions o = options("base-missing.mbox");
  o.patch = kCheckInputs + "/base-missing.mbox";
  o.base = "v1.0";
  const Report r = check_patch(o);
  EXPECT_EQ(r.status, kExitBadInput);
  EXPECT_NE(r.error.find("--base v1.0"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("not the top of a git tree"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace diffsched::patch

namespace diffsched::patch {
namespace {

// A report as check_patch would make it for a two-patch series whose
// second patch breaks the heap: the formats from the data alone.
Report series_with_a_finding() {
  Report r;
  r.patch = "s.mbox";
  r.form = "mbox";
  r.tree = "/t";
  r.base = "the tree as it is";
  r.version = "diffsched test";
  r.status = kExitFinding;
  CheckRun ok;
  ok.subject = "cpudl";
  ok.file = "kernel/sched/cpudeadline.c";
  ok.status = kExitOk;
  ok.programs = 10;
  ok.ops = 100;
  ok.executions = 5;
  ok.time = 1;
  ok.level = "deadline";
  CheckRun bad = ok;
  bad.status = kExitFinding;
  bad.executions = 0;
  bad.signature = "cpudl:invariant:heap-order:slot.dl:clear";
  bad.trace = "subject cpudl\ncpus 2\nset 0 1\nclear 0\n";
  bad.replay = "diffsched kernel-check cpudl --candidate c.c --replay min.ops";
  r.units.push_back({.name = "patch-1", .subject = "[PATCH 1/2] fine", .checks = {ok}, .status = kExitOk});
  r.units.push_back({.name = "patch-2", .subject = "[PATCH 2/2] broken", .checks = {bad},
                     .status = kExitFinding});
  r.units.push_back({.name = "series", .subject = "the series", .checks = {bad}, .status = kExitFinding});
  return r;
}

TEST(CheckPatchReport, MailNamesThePatchWithTheVerdict) {
  const std::string m = format_report(series_with_a_finding(), Format::kMail);
  EXPECT_EQ(m.rfind("diffsched check-patch: FINDING: [PATCH 2/2] broken\n", 0), 0u) << m;
  EXPECT_NE(m.find("      clear 0\n"), std::string::npos) << m;
  EXPECT_NE(m.find("reproduce: diffsched kernel-check cpudl"), std::string::npos) << m;
  EXPECT_NE(m.find("level deadline"), std::string::npos) << m;
  EXPECT_NE(m.find("\n-- \ndiffsched test (check-patch)\n"), std::string::npos) << m;
}

TEST(CheckPatchReport, KtapFindingHasDiagnosticsAndNotOk) {
  const std::string k = format_report(series_with_a_finding(), Format::kKtap);
  EXPECT_NE(k.find("\nok 1 patch-1\n"), std::string::npos) << k;
  EXPECT_NE(k.find("\nnot ok 2 patch-2\n"), std::string::npos) << k;
  EXPECT_NE(k.find("\nnot ok 3 series\n"), std::string::npos) << k;
  EXPECT_NE(k.find("        # clear 0\n"), std::string::npos) << k;
  EXPECT_NE(k.find("        # reproduce: diffsched kernel-check cpudl"), std::string::npos) << k;
  EXPECT_NE(k.find("        ok 3 exhaustive # SKIP not asked for (check-patch --exhaustive)\n"),
            std::string::npos) << k;
  EXPECT_NE(k.find("        ok 4 in_kernel # SKIP not asked for (check-patch --in-kernel)\n"),
            std::string::npos) << k;
  EXPECT_NE(k.find("        not ok 5 verdict\n"), std::string::npos) << k;
}

// A stage's finding fails its subtest and the check's verdict, though the
// check itself was equivalent; a stage that could not run is a SKIP with its
// reason and "not everything checked" (3), never a pass.
TEST(CheckPatchReport, StagesDecideTheVerdictAndSkipWithTheirReason) {
  Report r = series_with_a_finding();
  CheckRun& c = r.units[0].checks[0];
  CheckRun x = {.stage = Stage::kExhaustive, .skip = "fn --exhaustive: 10^9 inputs (--max-inputs)"};
  CheckRun k = c;
  k.stage = Stage::kInKernel;
  k.status = kExitFinding;
  k.signature = "cpudl:kernel-vs-shim:find.ret:find";
  k.replay = "diffsched kernel-check cpudl --candidate c.c --in-kernel --replay k.ops";
  c.stages = {x};
  EXPECT_EQ(check_status(c), kExitOutOfDomain);
  c.stages.push_back(k);
  EXPECT_EQ(check_status(c), kExitFinding);
  const std::string t = format_report(r, Format::kKtap);
  EXPECT_NE(t.find("        ok 3 exhaustive # SKIP could not run: fn --exhaustive: 10^9 inputs"),
            std::string::npos) << t;
  EXPECT_NE(t.find("        # reproduce: diffsched kernel-check cpudl --candidate c.c --in-kernel"),
            std::string::npos) << t;
  EXPECT_NE(t.find("        not ok 4 in_kernel\n        not ok 5 verdict\n    not ok 1 cpudl"),
            std::string::npos) << t;
  const std::string text = format_report(r, Format::kText);
  EXPECT_NE(text.find("    exhaustive: NOT RUN\n      not run: fn --exhaustive"), std::string::npos) << text;
  EXPECT_NE(text.find("    in-kernel: FINDING cpudl:kernel-vs-shim:find.ret:find\n"), std::string::npos) << text;
  const nlohmann::json j = nlohmann::json::parse(format_report(r, Format::kJson));
  const nlohmann::json& jc = j.at("units").at(0).at("checks").at(0);
  EXPECT_EQ(jc.at("status"), 0);
  EXPECT_EQ(jc.at("status_with_stages"), 1);
  EXPECT_EQ(jc.at("stages").at(1).at("stage"), "in-kernel");
}

TEST(CheckPatchReport, JsonAndB4CarryTheSameVerdicts) {
  const Report r = series_with_a_finding();
  const nlohmann::json j = nlohmann::json::parse(format_report(r, Format::kJson));
  EXPECT_EQ(j.at("status"), 1);
  EXPECT_EQ(j.at("units").at(1).at("checks").at(0).at("trace"), "subject cpudl\ncpus 2\nset 0 1\nclear 0\n");
  const nlohmann::json b4 = nlohmann::json::parse(format_b4(r));
  ASSERT_EQ(b4.size(), 3u);
  EXPECT_EQ(b4[0].at("status"), "pass");
  EXPECT_EQ(b4[1].at("status"), "fail");
  EXPECT_EQ(b4[2].at("status"), "fail");
}

}  // namespace
}  // namespace diffsched::patch

namespace diffsched::patch {
namespace {

// The route and the passthrough, without running kernel-check: `self`
// does not exist, so each run is an error (2, never a verdict), and the
// command it would have run is in the report. --exhaustive and --in-kernel
// add stages to the check: the pair at the subject's default bounds, and the
// patched file in the booted kernel against the same file in the shim
// (kernel-check --in-kernel takes no baseline and no fuzzing).
TEST(CheckPatch, CpudlRouteRunsKernelCheckWithBothStatesAndItsStages) {
  CheckPatchOptions o = options("cpudl-broken.diff");
  o.in_kernel = true;
  o.exhaustive = true;
  o.time = 3;
  o.nr_cpus = {4};
  const Report r = check_patch(o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.status, kExitBadInput);
  ASSERT_EQ(r.units.at(0).checks.size(), 1u);
  const CheckRun& c = r.units[0].checks[0];
  EXPECT_EQ(c.subject, "cpudl");
  EXPECT_EQ(c.stage, Stage::kCheck);
  EXPECT_EQ(c.functions, (std::vector<std::string>{"cpudl_clear"}));
  EXPECT_NE(c.detail.find("wrote no verdict"), std::string::npos) << c.detail;
  for (const char* word : {"kernel-check cpudl --candidate ", "/states/state-1/kernel/sched/cpudeadline.c",
                           "--baseline ", "/states/state-0/kernel/sched/cpudeadline.c",
                           "--time 3", "--nr-cpus 4", "--verdict-json "})
    EXPECT_NE(c.command.find(word), std::string::npos) << word << " not in " << c.command;
  for (const char* word : {"--in-kernel", "--exhaustive"})
    EXPECT_EQ(c.command.find(word), std::string::npos) << word << " in " << c.command;
  ASSERT_EQ(c.stages.size(), 2u);
  const CheckRun& x = c.stages[0];
  EXPECT_EQ(x.stage, Stage::kExhaustive);
  EXPECT_EQ(x.status, kExitBadInput);
  for (const char* word : {"--baseline ", "--exhaustive 3 3 3", "--time 0", "--verdict-json "})
    EXPECT_NE(x.command.find(word), std::string::npos) << word << " not in " << x.command;
  for (const char* word : {"--in-kernel", "--nr-cpus", "--runs"})
    EXPECT_EQ(x.command.find(word), std::string::npos) << word << " in " << x.command;
  const CheckRun& k = c.stages[1];
  EXPECT_EQ(k.stage, Stage::kInKernel);
  EXPECT_EQ(k.functions, c.functions);
  EXPECT_EQ(k.status, kExitBadInput);
  for (const char* word : {"kernel-check cpudl --candidate ", "/states/state-1/kernel/sched/cpudeadline.c",
                           "--in-kernel", "--nr-cpus 4", "--verdict-json "})
    EXPECT_NE(k.command.find(word), std::string::npos) << word << " not in " << k.command;
  for (const char* word : {"--baseline", "--time", "--runs", "--harness", "--exhaustive"})
    EXPECT_EQ(k.command.find(word), std::string::npos) << word << " in " << k.command;
  EXPECT_EQ(check_status(c), kExitBadInput);
  EXPECT_FALSE(r.work.empty()) << "an error keeps its work directory";
  std::error_code ec;
  std::filesystem::remove_all(r.work, ec);
}

}  // namespace
}  // namespace diffsched::patch
