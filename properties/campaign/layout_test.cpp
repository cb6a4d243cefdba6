// campaign/layout.h: the paths of --out and the corpus, and making --out
// ready (a campaign's own is reused, anything else needs --force).
#include <gtest/gtest.h>

#include "campaign/fake_programs.h"
#include "campaign/layout.h"

namespace diffsched::campaign {
namespace {

using testing::TempDir;
using testing::write_text;

TEST(CampaignLayout, NamesEveryPath) {
  const Layout l{.out = "o", .corpus = "c"};
  EXPECT_EQ(l.summary_md(), "o/summary.md");
  EXPECT_EQ(l.junit_xml(), "o/junit.xml");
  EXPECT_EQ(l.results_sarif(), "o/results.sarif");
  EXPECT_EQ(l.marker(), "o/.diffsched-campaign");
  EXPECT_EQ(l.build_log("afl"), "o/build-afl.log");
  EXPECT_EQ(l.classify_log(), "o/work/classify.log");
  EXPECT_EQ(l.rerun_log(), "o/work/rerun.log");
  EXPECT_EQ(l.reproducer("cpudl", 3, ".ops"), "o/findings/cpudl-3.ops");
  const TargetLayout t = l.target("pick");
  EXPECT_EQ(t.dir, "o/work/pick");
  EXPECT_EQ(t.found, "o/work/pick/found");
  EXPECT_EQ(t.crashes, "o/work/pick/crashes");
  EXPECT_EQ(t.log, "o/work/pick/engine.log");
  EXPECT_EQ(t.engine_log(0), t.log);
  EXPECT_EQ(t.engine_log(2), "o/work/pick/engine-2.log");
  EXPECT_EQ(t.afl_out, "o/work/pick/afl");
  EXPECT_EQ(t.afl_queue, "o/work/pick/afl-queue");
  EXPECT_EQ(t.merge_log, "o/work/pick/merge.log");
  EXPECT_EQ(t.corpus, "c/pick");
  EXPECT_EQ(t.staging(42), "c/.pick.merge-42");
}

TEST(CampaignLayout, EverythingAReportNamesIsOwned) {
  const Layout l{.out = "o", .corpus = "c"};
  for (const fs::path& p : {l.summary_md(), l.junit_xml(), l.results_sarif(), l.findings(),
                            l.work(), l.marker(), l.build_log("fuzz"), l.build_log("afl")})
    EXPECT_TRUE(Layout::owned(p.filename().string())) << p;
  EXPECT_FALSE(Layout::owned("notes.txt"));
}

TEST(CampaignLayout, ANewOutIsCreatedAndMarked) {
  TempDir dir("layout");
  const Layout l{.out = dir / "new" / "out", .corpus = dir / "corpus"};
  std::string error;
  ASSERT_TRUE(prepare_out(l, false, &error)) << error;
  EXPECT_TRUE(fs::is_regular_file(l.marker()));
  EXPECT_TRUE(fs::is_directory(l.findings()));
  EXPECT_TRUE(fs::is_directory(l.work()));
  EXPECT_TRUE(fs::is_directory(l.corpus));
}

TEST(CampaignLayout, ACampaignsOutLosesOnlyItsOwnFiles) {
  TempDir dir("layout");
  const Layout l{.out = dir / "out", .corpus = dir / "corpus"};
  write_text(l.marker(), "");
  write_text(l.summary_md(), "old");
  write_text(l.reproducer("cpudl", 1, ".ops"), "old");
  write_text(l.out / "mine.txt", "keep");
  std::string error;
  ASSERT_TRUE(prepare_out(l, false, &error)) << error;
  EXPECT_FALSE(fs::exists(l.summary_md()));
  EXPECT_FALSE(fs::exists(l.reproducer("cpudl", 1, ".ops")));
  EXPECT_TRUE(fs::exists(l.out / "mine.txt"));
}

// Issue 22: names like a campaign's do not make a directory a campaign's;
// only its marker does. Without it: refused, nothing removed; --force
// replaces only the campaign's names, never an input among them.
TEST(CampaignLayout, AnUnmarkedOutWithOnlyCampaignNamesIsRefused) {
  TempDir dir("layout");
  const Layout l{.out = dir / "out", .corpus = dir / "corpus"};
  write_text(l.junit_xml(), "old");
  write_text(l.work() / "notes.txt", "someone's");
  write_text(l.findings() / "input.ops", "an input");
  std::string error;
  EXPECT_FALSE(prepare_out(l, false, &error));
  EXPECT_NE(error.find("not a campaign's output directory"), std::string::npos) << error;
  EXPECT_TRUE(fs::exists(l.junit_xml()));
  EXPECT_TRUE(fs::exists(l.work() / "notes.txt"));
  ASSERT_TRUE(prepare_out(l, true, &error, {l.findings() / "input.ops"})) << error;
  EXPECT_FALSE(fs::exists(l.junit_xml()));
  EXPECT_FALSE(fs::exists(l.work() / "notes.txt"));
  EXPECT_TRUE(fs::exists(l.findings() / "input.ops"));  // an input, even under --force
}

// The marker is a manifest: a second campaign takes the directory without
// --force and removes what the first recorded, keeping the corpus and the
// accepted file even when they lie inside it.
TEST(CampaignLayout, ASecondCampaignKeepsInputsInsideOut) {
  TempDir dir("layout");
  const Layout l{.out = dir / "out", .corpus = dir / "out" / "work" / "corpus"};
  std::string error;
  ASSERT_TRUE(prepare_out(l, false, &error)) << error;
  write_text(l.summary_md(), "old");
  write_text(l.corpus / "seed", "1");
  write_text(l.work() / "accepted.txt", "# accepted\n");
  write_text(l.out / "mine.txt", "keep");
  ASSERT_TRUE(prepare_out(l, false, &error, {l.work() / "accepted.txt"})) << error;
  EXPECT_FALSE(fs::exists(l.summary_md()));
  EXPECT_TRUE(fs::exists(l.corpus / "seed"));
  EXPECT_TRUE(fs::exists(l.work() / "accepted.txt"));
  EXPECT_TRUE(fs::exists(l.out / "mine.txt"));
}

TEST(CampaignLayout, AForeignOutIsRefusedWithoutForce) {
  TempDir dir("layout");
  const Layout l{.out = dir / "out", .corpus = dir / "corpus"};
  write_text(l.out / "notes.txt", "keep");
  write_text(l.summary_md(), "someone's");
  std::string error;
  EXPECT_FALSE(prepare_out(l, false, &error));
  EXPECT_NE(error.find("not empty and not a campaign's output directory (it holds 'notes.txt')"),
            std::string::npos)
      << error;
  EXPECT_TRUE(fs::exists(l.summary_md()));  // nothing removed
  EXPECT_FALSE(fs::exists(l.corpus));       // nothing created
  ASSERT_TRUE(prepare_out(l, true, &error)) << error;
  EXPECT_TRUE(fs::exists(l.out / "notes.txt"));
  EXPECT_FALSE(fs::exists(l.summary_md()));
}

TEST(CampaignLayout, PrepareTargetSeedsOnceAndClearsStaleStaging) {
  TempDir dir("layout");
  const Layout l{.out = dir / "out", .corpus = dir / "corpus"};
  const TargetLayout t = l.target("cpudl");
  write_text(dir / "seeds" / "s1", "1");
  write_text(dir / "seeds" / ".hidden", "h");
  write_text(t.staging(99) / "half-merged", "x");
  write_text(t.found / "old", "x");
  prepare_target(t, dir / "seeds");
  EXPECT_TRUE(fs::exists(t.corpus / "s1"));
  EXPECT_FALSE(fs::exists(t.corpus / ".hidden"));
  EXPECT_FALSE(fs::exists(t.staging(99)));
  EXPECT_FALSE(fs::exists(t.found / "old"));
  EXPECT_TRUE(fs::is_directory(t.crashes));
  // An existing corpus is not re-seeded.
  fs::remove(t.corpus / "s1");
  write_text(dir / "seeds" / "s2", "2");
  prepare_target(t, dir / "seeds");
  EXPECT_FALSE(fs::exists(t.corpus / "s1"));
  EXPECT_FALSE(fs::exists(t.corpus / "s2"));
}

}  // namespace
}  // namespace diffsched::campaign
