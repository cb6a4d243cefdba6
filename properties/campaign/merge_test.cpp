// campaign/merge.h with fake libFuzzer -merge=1 programs (shell scripts):
// new files are added whole, existing ones kept, and a merge that fails or
// runs out of time leaves the corpus as it was.
#include <gtest/gtest.h>

#include "campaign/fake_programs.h"
#include "campaign/merge.h"
#include "campaign/util.h"

namespace diffsched::campaign {
namespace {

using testing::TempDir;
using testing::write_script;
using testing::write_text;

// argv: -merge=1 -rss_limit_mb=4096 STAGING FOUND
constexpr const char* kCopyAll = "cp \"$4\"/* \"$3\"/";

struct MergeFixture {
  TempDir dir{"merge"};
  MergeRequest request{.fuzzer = dir / "fuzzer", .corpus = dir / "corpus" / "cpudl",
                       .found = dir / "found", .staging = dir / "corpus" / ".cpudl.merge-1",
                       .log = dir / "merge.log"};
  MergeFixture() {
    write_text(request.corpus / "seed-1", "seed one");
    write_text(request.corpus / "seed-2", "seed two");
  }
  std::vector<std::string> corpus() const {
    std::vector<std::string> names;
    for (const auto& f : regular_files(request.corpus)) names.push_back(f.filename().string());
    return names;
  }
};

TEST(CampaignMerge, NewFilesAreAddedAndTheStagingGoes) {
  MergeFixture m;
  write_script(m.request.fuzzer, kCopyAll);
  write_text(m.request.found / "new-1", "one");
  write_text(m.request.found / "new-2", "two");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), 2) << error;
  EXPECT_EQ(m.corpus(), (std::vector<std::string>{"new-1", "new-2", "seed-1", "seed-2"}));
  EXPECT_EQ(testing::read_all(m.request.corpus / "new-2"), "two");
  EXPECT_FALSE(fs::exists(m.request.staging));
}

TEST(CampaignMerge, TheStagingStartsAsTheCorpusAndExistingFilesAreKept) {
  MergeFixture m;
  // The fake merge fails unless the staging holds the corpus, and rewrites seed-1.
  write_script(m.request.fuzzer,
               "test -f \"$3\"/seed-1 && test -f \"$3\"/seed-2 || exit 9\n"
               "echo changed >\"$3\"/seed-1.tmp && mv \"$3\"/seed-1.tmp \"$3\"/seed-1\n" +
                   std::string(kCopyAll));
  write_text(m.request.found / "new-1", "one");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), 1) << error;
  EXPECT_EQ(testing::read_all(m.request.corpus / "seed-1"), "seed one");
}

TEST(CampaignMerge, NothingFoundRunsNothing) {
  MergeFixture m;
  write_script(m.request.fuzzer, "exit 1");  // would fail
  fs::create_directories(m.request.found);
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), 0);
  m.request.found = m.dir / "missing";
  EXPECT_EQ(merge_into_corpus(m.request, &error), 0);
  EXPECT_EQ(m.corpus().size(), 2u);
}

TEST(CampaignMerge, AFailedMergeLeavesTheCorpusAsItWas) {
  MergeFixture m;
  write_script(m.request.fuzzer, std::string(kCopyAll) + "\nexit 1");
  write_text(m.request.found / "new-1", "one");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), -1);
  EXPECT_NE(error.find("merge failed, see"), std::string::npos) << error;
  EXPECT_EQ(m.corpus().size(), 2u);
  EXPECT_FALSE(fs::exists(m.request.staging));
}

TEST(CampaignMerge, AMergeKilledBySignalFails) {
  MergeFixture m;
  write_script(m.request.fuzzer, std::string(kCopyAll) + "\nkill -9 $$");
  write_text(m.request.found / "new-1", "one");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), -1);
  EXPECT_EQ(m.corpus().size(), 2u);
}

TEST(CampaignMerge, OutOfTimeIsAbandoned) {
  MergeFixture m;
  write_script(m.request.fuzzer, std::string(kCopyAll) + "\nexec sleep 1000");
  m.request.max_seconds = 0.05;  // the fake never ends by itself: the limit ends it
  write_text(m.request.found / "new-1", "one");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), -1);
  EXPECT_EQ(error, "merge abandoned out of time");
  EXPECT_EQ(m.corpus().size(), 2u);
  EXPECT_FALSE(fs::exists(m.request.staging));
}

TEST(CampaignMerge, AMissingFuzzerFails) {
  MergeFixture m;
  write_text(m.request.found / "new-1", "one");
  std::string error;
  EXPECT_EQ(merge_into_corpus(m.request, &error), -1);
  EXPECT_EQ(m.corpus().size(), 2u);
}

// After an interrupt: no engine runs (the fuzzer would fail), every found
// input not in the corpus goes in whole, named by the SHA-1 of its content.
TEST(CampaignMerge, UnmergedAddsEveryNewInputByItsSha1) {
  MergeFixture m;
  write_script(m.request.fuzzer, "exit 1");
  write_text(m.request.found / "crash-x", "one");
  write_text(m.request.found / "whatever", "two");
  write_text(m.request.found / "dup", "two");
  std::string error;
  EXPECT_EQ(add_unmerged(m.request, &error), 2) << error;
  // sha1("two"), sha1("one") as sha1sum prints them
  EXPECT_EQ(m.corpus(), (std::vector<std::string>{"ad782ecdac770fc6eb9a62e44f90873fb97fb26b",
                                                  "fe05bcdcdc4928012781a5f1a2a77cbb5398e106",
                                                  "seed-1", "seed-2"}));
  EXPECT_EQ(testing::read_all(m.request.corpus / "fe05bcdcdc4928012781a5f1a2a77cbb5398e106"),
            "one");
  EXPECT_FALSE(fs::exists(m.request.staging));
  EXPECT_EQ(add_unmerged(m.request, &error), 0);  // already there: nothing twice
  EXPECT_EQ(m.corpus().size(), 4u);
}

}  // namespace
}  // namespace diffsched::campaign
