// util::OwnedDir (issue 22): a mode deletes only what its manifest says it
// wrote, never an input, never what it does not own.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/owned_dir.h"
#include "util/text.h"

namespace diffsched::util {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "diffsched-owned-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& text = "x") {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

OwnedDirOptions opts(std::vector<fs::path> inputs = {}, bool force = false) {
  return {.mode = "test", .option = "-o", .inputs = std::move(inputs),
          .claim = {{OwnedEntry::kFile, "README"}}, .force = force};
}

TEST(OwnedDir, AMissingDirectoryIsCreatedAndRecordsWhatItWrites) {
  TempDir t;
  OwnedDir d;
  std::string error;
  ASSERT_TRUE(d.open(t.path / "a" / "out", opts(), &error)) << error;
  ASSERT_TRUE(d.clean(&error)) << error;
  write(d.file("README"));
  write(d.file("sub/x.c"));
  write(d.tree("work") / "anything");
  ASSERT_TRUE(d.ok(&error)) << error;
  std::string mode;
  const auto entries = parse_manifest(read_text(t.path / "a" / "out" / ".diffsched-owned"), &mode);
  EXPECT_EQ(mode, "test");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].rel, "sub/x.c");
  EXPECT_EQ(entries[2].kind, OwnedEntry::kTree);
}

TEST(OwnedDir, ASecondRunRemovesOnlyTheFirstRunsFiles) {
  TempDir t;
  std::string error;
  {
    OwnedDir d;
    ASSERT_TRUE(d.open(t.path, opts(), &error) && d.clean(&error)) << error;
    write(d.file("README"));
    write(d.file("sub/x.c"));
    write(d.tree("work") / "deep" / "f");
  }
  write(t.path / "unrelated.txt");       // the user's, added later
  write(t.path / "sub" / "mine.c");      // beside one of ours
  OwnedDir d;
  ASSERT_TRUE(d.open(t.path, opts(), &error)) << error;
  EXPECT_EQ(d.last_run().size(), 3u);
  ASSERT_TRUE(d.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "README"));
  EXPECT_FALSE(fs::exists(t.path / "sub" / "x.c"));
  EXPECT_FALSE(fs::exists(t.path / "work"));
  EXPECT_TRUE(fs::exists(t.path / "unrelated.txt"));
  EXPECT_TRUE(fs::exists(t.path / "sub" / "mine.c"));
}

TEST(OwnedDir, AForeignDirectoryIsRefusedAndLeftAlone) {
  TempDir t;
  write(t.path / "README", "the user's");
  OwnedDir d;
  std::string error;
  EXPECT_FALSE(d.open(t.path, opts(), &error));
  EXPECT_NE(error.find("not empty and not written by diffsched test (it holds 'README')"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("--force to replace only README"), std::string::npos) << error;
  EXPECT_EQ(read_text(t.path / "README"), "the user's");
  EXPECT_FALSE(fs::exists(t.path / ".diffsched-owned"));
}

TEST(OwnedDir, AnotherModesDirectoryIsForeign) {
  TempDir t;
  std::string error;
  {
    OwnedDir d;
    OwnedDirOptions o = opts();
    o.mode = "other";
    ASSERT_TRUE(d.open(t.path, o, &error) && d.clean(&error)) << error;
    write(d.file("README"));
  }
  OwnedDir d;
  EXPECT_FALSE(d.open(t.path, opts(), &error));
  EXPECT_TRUE(fs::exists(t.path / "README"));
}

TEST(OwnedDir, ForceReplacesOnlyTheClaimAndNeverAnInput) {
  TempDir t;
  write(t.path / "README", "old");
  write(t.path / "notes.txt");
  OwnedDir d;
  std::string error;
  ASSERT_TRUE(d.open(t.path, opts({}, true), &error) && d.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "README"));
  EXPECT_TRUE(fs::exists(t.path / "notes.txt"));
  write(t.path / "README", "an input now");
  OwnedDir again;
  ASSERT_TRUE(again.open(t.path, opts({t.path / "README"}, true), &error)) << error;
  ASSERT_TRUE(again.clean(&error)) << error;
  EXPECT_EQ(read_text(t.path / "README"), "an input now");
}

TEST(OwnedDir, InputsInsideAnOwnedTreeSurvive) {
  TempDir t;
  std::string error;
  {
    OwnedDir d;
    ASSERT_TRUE(d.open(t.path / "o", opts(), &error) && d.clean(&error)) << error;
    write(d.tree("candidate") / "staged.c");
  }
  write(t.path / "o" / "candidate" / "user.c", "the candidate");
  write(t.path / "o" / "candidate" / "inc" / "h.h", "its header");
  write(t.path / "elsewhere.c", "linked");
  fs::create_symlink(t.path / "elsewhere.c", t.path / "o" / "candidate" / "link.c");
  fs::create_hard_link(t.path / "elsewhere.c", t.path / "o" / "candidate" / "hard.c");
  OwnedDir d;
  ASSERT_TRUE(d.open(t.path / "o",
                     opts({t.path / "o" / "candidate" / "user.c",
                           t.path / "o" / "candidate" / "inc" / "h.h", t.path / "elsewhere.c"}),
                     &error))
      << error;
  ASSERT_TRUE(d.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "o" / "candidate" / "staged.c"));
  EXPECT_EQ(read_text(t.path / "o" / "candidate" / "user.c"), "the candidate");
  EXPECT_EQ(read_text(t.path / "o" / "candidate" / "inc" / "h.h"), "its header");
  EXPECT_TRUE(fs::exists(t.path / "o" / "candidate" / "hard.c"));  // the input's inode
  EXPECT_TRUE(fs::exists(t.path / "elsewhere.c"));
}

TEST(OwnedDir, AnInputDirectoryKeepsEverythingInIt) {
  TempDir t;
  std::string error;
  {
    OwnedDir d;
    ASSERT_TRUE(d.open(t.path / "o", opts(), &error) && d.clean(&error)) << error;
    write(d.tree("work") / "scratch");
  }
  write(t.path / "o" / "work" / "corpus" / "seed-1");
  write(t.path / "o" / "work" / "corpus" / "sub" / "seed-2");
  OwnedDir d;
  ASSERT_TRUE(d.open(t.path / "o", opts({t.path / "o" / "work" / "corpus"}), &error)) << error;
  ASSERT_TRUE(d.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "o" / "work" / "scratch"));
  EXPECT_TRUE(fs::exists(t.path / "o" / "work" / "corpus" / "seed-1"));
  EXPECT_TRUE(fs::exists(t.path / "o" / "work" / "corpus" / "sub" / "seed-2"));
  // An input directory around the output directory protects nothing in it.
  {
    OwnedDir again;
    ASSERT_TRUE(again.open(t.path / "o", opts({t.path}), &error) && again.clean(&error)) << error;
    write(again.file("report.md"));
  }
  OwnedDir third;
  ASSERT_TRUE(third.open(t.path / "o", opts({t.path}), &error) && third.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "o" / "report.md"));
}

TEST(OwnedDir, TheInputGivenThroughASymlinkKeepsTheLink) {
  TempDir t;
  std::string error;
  {
    OwnedDir d;
    ASSERT_TRUE(d.open(t.path / "o", opts(), &error) && d.clean(&error)) << error;
    (void)d.tree("work");
  }
  write(t.path / "real.ops");
  fs::create_symlink(t.path / "real.ops", t.path / "o" / "work" / "in.ops");
  OwnedDir d;
  ASSERT_TRUE(d.open(t.path / "o", opts({t.path / "o" / "work" / "in.ops"}), &error)) << error;
  ASSERT_TRUE(d.clean(&error)) << error;
  EXPECT_TRUE(fs::is_symlink(t.path / "o" / "work" / "in.ops"));
}

TEST(OwnedDir, AManifestCannotReachOutside) {
  TempDir t;
  write(t.path / "victim");
  write(t.path / "o" / ".diffsched-owned",
        "# diffsched-owned v1 test\nfile ../victim\nfile /etc/hostname\ntree ./\ntree .\njunk\n");
  OwnedDir d;
  std::string error;
  ASSERT_TRUE(d.open(t.path / "o", opts(), &error)) << error;
  EXPECT_TRUE(d.last_run().empty());
  ASSERT_TRUE(d.clean(&error)) << error;
  EXPECT_TRUE(fs::exists(t.path / "victim"));
}

TEST(OwnedDir, NamesWithNewlinesAndPercentsRoundTrip) {
  const OwnedEntry e{OwnedEntry::kFile, "a\nb%0A\r.ops"};
  std::string mode;
  const auto back = parse_manifest("# diffsched-owned v1 m\n" + manifest_line(e), &mode);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].rel, e.rel);
}

TEST(OwnedDir, SymlinkLoopsAndFilesGetTrueMessages) {
  TempDir t;
  fs::create_symlink(t.path / "loop", t.path / "loop");
  write(t.path / "file");
  OwnedDir d;
  std::string error;
  EXPECT_FALSE(d.open(t.path / "loop", opts(), &error));
  EXPECT_NE(error.find("Too many levels of symbolic links"), std::string::npos) << error;
  EXPECT_FALSE(d.open(t.path / "file", opts(), &error));
  EXPECT_NE(error.find("exists and is not a directory"), std::string::npos) << error;
}

TEST(OwnedDir, AdoptNewRecordsWhatChildrenWrote) {
  TempDir t;
  std::string error;
  OwnedDir d;
  ASSERT_TRUE(d.open(t.path, opts(), &error) && d.clean(&error)) << error;
  const auto before = d.entries();
  write(t.path / "fuzz.log");
  write(t.path / "crash-1234" / "x");
  d.adopt_new(before);
  OwnedDir again;
  ASSERT_TRUE(again.open(t.path, opts(), &error) && again.clean(&error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "fuzz.log"));
  EXPECT_FALSE(fs::exists(t.path / "crash-1234"));
}

TEST(OwnedDir, RemoveExceptKeepsInputs) {
  TempDir t;
  write(t.path / "stage" / "cand.c");
  write(t.path / "stage" / "compile.log");
  std::string error;
  ASSERT_TRUE(remove_except(t.path / "stage", {t.path / "stage" / "cand.c"}, &error)) << error;
  EXPECT_TRUE(fs::exists(t.path / "stage" / "cand.c"));
  EXPECT_FALSE(fs::exists(t.path / "stage" / "compile.log"));
  ASSERT_TRUE(remove_except(t.path / "stage", {}, &error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "stage"));
  EXPECT_FALSE(fs::exists(t.path / "missing" / "x"));
  ASSERT_TRUE(remove_except(t.path / "missing" / "x", {}, &error)) << error;
  EXPECT_FALSE(fs::exists(t.path / "missing"));  // nothing made
}

}  // namespace
}  // namespace diffsched::util
