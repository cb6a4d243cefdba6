// campaign/findings.h end to end on a real crash input (a tie at the exact
// level) with a fake fuzz binary for the re-runs: real, flaky, accepted,
// the reproducer files and the command that reproduces them.
#include <gtest/gtest.h>

#include "campaign/fake_programs.h"
#include "campaign/findings.h"
#include "subjects/cpudl/lockstep.h"
#include "io/binary.h"

namespace diffsched::campaign {
namespace {

using testing::TempDir;
using testing::write_script;
using testing::write_text;

struct FindingsFixture {
  TempDir dir{"findings"};
  FindingOptions options{.layout = {.out = dir / "out", .corpus = dir / "corpus"},
                         .fuzz_dir = dir / "fuzz", .reruns = 3, .self = "my diffsched"};
  const FuzzTarget* target = find_target("cpudl_exact");
  std::vector<Crash> crashes;
  std::string sig;
  FindingsFixture() {
    io::Program<cpudl::Subject> p;
    p.config = {3};
    p.ops = {cpudl::Set{1, 0}, cpudl::Set{0, 0}, cpudl::Set{2, 0}};  // a tie, and one op too many
    const auto body = io::encode_body(io::AnyProgram(p));
    for (const char* name : {"crash-a", "crash-b"}) {
      write_text(dir / "crashes" / name, std::string(body.begin(), body.end()));
      crashes.push_back({target, dir / "crashes" / name, body.size()});
    }
    sig = replay_signature(*target, crashes[0].file);
    std::string error;
    EXPECT_TRUE(prepare_out(options.layout, false, &error)) << error;  // findings/, work/
  }
  void fuzzer(const std::string& body) { write_script(options.fuzz_dir / "cpudl_exact", body); }
};

TEST(CampaignFindings, ARealFindingIsMinimisedAndWritten) {
  FindingsFixture f;
  ASSERT_FALSE(f.sig.empty());
  f.fuzzer("echo '  signature " + f.sig + "'; exit 1");
  const auto findings = make_findings(f.options, f.crashes, {});
  ASSERT_EQ(findings.size(), 1u);
  const UniqueFinding& u = findings[0];
  EXPECT_EQ(u.status, FindingStatus::kNew);
  EXPECT_EQ(u.signature, f.sig);
  EXPECT_EQ(u.duplicates, 2u);
  EXPECT_EQ(u.reruns, 3u);
  EXPECT_EQ(u.rerun_failures, 3u);
  EXPECT_EQ(u.original_ops, 3u);
  EXPECT_EQ(u.minimized_ops, 2u);
  EXPECT_TRUE(fs::exists(f.options.layout.reproducer("cpudl_exact", 1, ".ops")));
  EXPECT_TRUE(fs::exists(f.options.layout.reproducer("cpudl_exact", 1, ".bin")));
  EXPECT_TRUE(u.reproduce.starts_with("my diffsched replay ")) << u.reproduce;
  EXPECT_NE(u.reproduce.find("cpudl_exact-1.ops"), std::string::npos) << u.reproduce;
  EXPECT_GT(u.check_line, 0u);
}

TEST(CampaignFindings, FlakyAndNoRepro) {
  FindingsFixture f;
  write_text(f.dir / "count", "0");
  f.fuzzer("n=$(cat " + (f.dir / "count").string() + "); echo $((n+1)) >" +
           (f.dir / "count").string() + "\nif [ $n = 0 ]; then echo '  signature " + f.sig +
           "'; exit 1; fi");
  auto findings = make_findings(f.options, f.crashes, {});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].status, FindingStatus::kFlaky);
  f.fuzzer("exit 0");
  findings = make_findings(f.options, f.crashes, {});
  EXPECT_EQ(findings[0].status, FindingStatus::kNoRepro);
}

TEST(CampaignFindings, TheAcceptedListAppliesAndAcceptedComeLast) {
  FindingsFixture f;
  f.fuzzer("echo '  signature " + f.sig + "'; exit 1");
  const std::vector<AcceptedEntry> accepted = {{"cpudl_exact", "cpudl:divergence:exact:*", true,
                                                "ties", 1}};
  auto findings = make_findings(f.options, f.crashes, accepted);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].status, FindingStatus::kAccepted);
  EXPECT_EQ(findings[0].accepted_reason, "ties");
  EXPECT_TRUE(make_findings(f.options, {}, accepted).empty());
}

}  // namespace
}  // namespace diffsched::campaign
