// patch::parse_patch (src/patch/patch.h): each input form, and hostile ones
// (each is one error line, never a crash or a partial patch).
#include <string>

#include <gtest/gtest.h>

#include "patch/patch.h"

namespace diffsched::patch {
namespace {

const std::string kDir = DIFFSCHED_PATCH_INPUTS;

std::string inputs(const std::string& name) { return kDir + "/" + name; }

const std::string kPlain =
    "--- a/kernel/x.c\n"
    "+++ b/kernel/x.c\n"
    "@@ -1,3 +1,3 @@ int f(void)\n"
    " a\n"
    "-b\n"
    "+c\n"
    " d\n";

TEST(PatchParse, PlainUnifiedDiffGivesPathsAndHunks) {
  const Parsed p = parse_patch(kPlain);
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.form, "diff");
  ASSERT_EQ(p.series.patches.size(), 1u);
  const FileDiff& f = p.series.patches[0].files.at(0);
  EXPECT_EQ(f.old_path, "kernel/x.c");
  EXPECT_EQ(f.new_path, "kernel/x.c");
  ASSERT_EQ(f.hunks.size(), 1u);
  EXPECT_EQ(f.hunks[0].old_start, 1u);
  EXPECT_EQ(f.hunks[0].new_count, 3u);
  EXPECT_EQ(f.hunks[0].context, "int f(void)");
  EXPECT_EQ(f.hunks[0].lines.size(), 4u);
}

TEST(PatchParse, GitMboxGivesSubjectAuthorAndFile) {
  const Parsed p = read_patch_file(inputs("cpudl-equivalent.mbox"));
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.form, "mbox");
  ASSERT_EQ(p.series.patches.size(), 1u);
  EXPECT_EQ(p.series.patches[0].subject, "[PATCH] sched/deadline: heapify by swapping (test patch)");
  EXPECT_EQ(p.series.patches[0].author, "Check Patch Tester <tester@example.org>");
  EXPECT_EQ(p.series.patches[0].files.at(0).path(), "kernel/sched/cpudeadline.c");
}

TEST(PatchParse, FormatPatchSeriesSkipsTheCoverLetter) {
  const Parsed p = read_patch_file(inputs("cpudl-series.mbox"));
  ASSERT_TRUE(p.ok()) << p.error;
  ASSERT_EQ(p.series.patches.size(), 2u);
  EXPECT_NE(p.series.patches[0].subject.find("[PATCH 1/2]"), std::string::npos);
  EXPECT_NE(p.series.patches[1].subject.find("[PATCH 2/2]"), std::string::npos);
}

// git format-patch --cover-letter --base: only the cover letter (no diff)
// has the line; it is the first patch's, so the series' base.
TEST(PatchParse, CoverLetterBaseCommitIsTheSeriesBase) {
  const Parsed p = parse_patch(
      "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 0/1] cover\n\ntext\n\nbase-commit: abc123\n"
      "From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/1] one\n\n---\n"
      "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n");
  ASSERT_TRUE(p.ok()) << p.error;
  ASSERT_EQ(p.series.patches.size(), 1u);
  EXPECT_EQ(p.series.patches[0].base_commit, "abc123");
}

TEST(PatchParse, BaseCommitLineIsRead) {
  const Parsed p = read_patch_file(inputs("base-missing.mbox"));
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.patches.at(0).base_commit, "0123456789abcdef0123456789abcdef01234567");
}

TEST(PatchParse, HtmlPageIsUnescaped) {
  const Parsed p = read_patch_file(inputs("cpudl-equivalent.html"));
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.form, "html");
  const Patch& one = p.series.patches.at(0);
  EXPECT_EQ(one.author, "Check Patch Tester <tester@example.org>");
  bool arrow = false;
  for (const Hunk& h : one.files.at(0).hunks)
    for (const std::string& l : h.lines) arrow = arrow || l.find("->") != std::string::npos;
  EXPECT_TRUE(arrow) << "&gt; not unescaped";
}

TEST(PatchParse, HtmlEntities) {
  EXPECT_EQ(html_to_text("a&lt;b&gt;&amp;&quot;&#39;&#x41;&#66;<br>x<script>&lt;</script>y"),
            "a<b>&\"'AB\nxy");
  EXPECT_EQ(html_to_text("&bogus; & <unclosed"), "&bogus; & ");
}

TEST(PatchParse, CrlfIsRead) {
  std::string crlf;
  for (char c : kPlain) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Parsed p = parse_patch(crlf);
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.patches[0].files[0].hunks[0].lines[1], "-b");
}

TEST(PatchParse, EmptyInputIsAnError) {
  EXPECT_EQ(parse_patch("").error, "the patch is empty");
}

TEST(PatchParse, BinaryJunkIsAnError) {
  const std::string junk("\x7f" "ELF\0\x01\x02\xff\xfe", 9);
  EXPECT_NE(parse_patch(junk).error.find("binary data"), std::string::npos);
}

TEST(PatchParse, NoFilesIsAnError) {
  EXPECT_NE(parse_patch("Subject: hello\n\njust text\n---\n").error.find("no file diff"),
            std::string::npos);
  EXPECT_FALSE(read_patch_file(inputs("no-files.mbox")).ok());
}

TEST(PatchParse, BadHunkCountsAreAnError) {
  const Parsed p = read_patch_file(inputs("bad-counts.diff"));
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error.find("short"), std::string::npos) << p.error;
  EXPECT_EQ(p.error.find('\n'), std::string::npos);
}

TEST(PatchParse, BadHunkHeaderIsAnError) {
  for (const char* header : {"@@ -x,1 +1,1 @@", "@@ -1,1 +1,1", "@@ -99999999999999999999 +1 @@",
                             "@@ -1,0 +1,0 @@"}) {
    const std::string text = std::string("--- a/x.c\n+++ b/x.c\n") + header + "\n-a\n+b\n";
    const Parsed p = parse_patch(text);
    EXPECT_FALSE(p.ok()) << header;
    EXPECT_EQ(p.error.find('\n'), std::string::npos);
  }
}

TEST(PatchParse, UnsafePathsAreRefused) {
  for (const char* path : {"a/../etc/passwd", "a//x", "/etc/passwd"}) {
    const std::string text = std::string("--- ") + path + "\n+++ " + path + "\n@@ -1 +1 @@\n-a\n+b\n";
    EXPECT_FALSE(parse_patch(text).ok()) << path;
  }
}

TEST(PatchParse, OneMegabyteLineIsOneLine) {
  const std::string big(1 << 20, 'x');
  const std::string text = "--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,2 @@\n " + big + "\n-a\n+b\n";
  const Parsed p = parse_patch(text);
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.series.patches[0].files[0].hunks[0].lines[0].size(), big.size() + 1);
  // A 1 MB line of junk alone: no diff, an error.
  EXPECT_FALSE(parse_patch(big).ok());
}

TEST(PatchParse, NewAndDeletedFiles) {
  const Parsed p = parse_patch(
      "diff --git a/n.c b/n.c\nnew file mode 100644\n--- /dev/null\n+++ b/n.c\n@@ -0,0 +1 @@\n+x\n"
      "diff --git a/d.c b/d.c\ndeleted file mode 100644\n--- a/d.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-y\n");
  ASSERT_TRUE(p.ok()) << p.error;
  const auto& files = p.series.patches[0].files;
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(files[0].is_new);
  EXPECT_EQ(files[0].path(), "n.c");
  EXPECT_TRUE(files[1].is_deleted);
  EXPECT_EQ(files[1].path(), "d.c");
}

// git's rename and copy headers; the hunks of a renamed file apply to its
// new path (staged first), so the regenerated diff names it on both sides.
TEST(PatchParse, RenamesAndCopies) {
  const Parsed p = parse_patch(
      "diff --git a/o.c b/n.c\nsimilarity index 90%\nrename from o.c\nrename to n.c\n"
      "--- a/o.c\n+++ b/n.c\n@@ -1 +1 @@\n-x\n+y\n"
      "diff --git a/p.c b/q.c\nsimilarity index 100%\ncopy from p.c\ncopy to q.c\n");
  ASSERT_TRUE(p.ok()) << p.error;
  const auto& files = p.series.patches[0].files;
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(files[0].is_rename);
  EXPECT_EQ(files[0].old_path, "o.c");
  EXPECT_EQ(files[0].path(), "n.c");
  EXPECT_TRUE(files[1].is_copy);
  EXPECT_TRUE(files[1].hunks.empty());
  EXPECT_EQ(files[1].old_path, "p.c");
  EXPECT_EQ(files[1].path(), "q.c");
  EXPECT_EQ(unified_diff(p.series.patches[0]), "--- a/n.c\n+++ b/n.c\n@@ -1 +1 @@\n-x\n+y\n");
}

TEST(PatchParse, UnifiedDiffRoundTrips) {
  const Parsed p = parse_patch(kPlain);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(unified_diff(p.series.patches[0]), kPlain);
  const Parsed again = parse_patch(unified_diff(p.series.patches[0]));
  ASSERT_TRUE(again.ok());
}

TEST(PatchFunctions, EnclosingFunctionsInKernelStyle) {
  const std::string c =
      "#include <x.h>\n"               // 1
      "static int a(int x)\n"          // 2
      "{\n"                            // 3
      "\treturn x;\n"                  // 4
      "}\n"                            // 5
      "\n"                             // 6
      "int b(const struct cpumask *m,\n"  // 7
      "      int y)\n"                 // 8
      "{\n"                            // 9
      "\tif (y)\n"                     // 10
      "\t\treturn 1;\n"                // 11
      "\treturn 0;\n"                  // 12
      "}\n";                           // 13
  const auto names = enclosing_functions(c, {1, 4, 6, 10, 12});
  EXPECT_EQ(names, (std::vector<std::string>{"", "a", "", "b", "b"}));
}

}  // namespace
}  // namespace diffsched::patch

namespace diffsched::patch {
namespace {

TEST(PatchFunctions, HunkAloneNamesItsFunctions) {
  // The context names a function that closed before the hunk; a removed
  // helper and a changed function follow; a blank removed line names none.
  Hunk h;
  h.context = "static int helper(int i)";
  h.lines = {" \treturn i;", " }", " ", "-static void gone(int a)", "-{", "-\ta++;", "-}", "-",
             " static void kept(int b)", " {", "-\tb--;", "+\tb -= 1;", " }"};
  EXPECT_EQ(hunk_functions(h), (std::vector<std::string>{"gone", "kept"}));
  Hunk in_context;
  in_context.context = "int can_migrate_task(struct task_struct *p, struct lb_env *env)";
  in_context.lines = {" \t\treturn 0;", "-\t\tfor_each_cpu(cpu, m) {", "+\t\tcpu = first(m);", " \t}"};
  EXPECT_EQ(hunk_functions(in_context), (std::vector<std::string>{"can_migrate_task"}));
}

}  // namespace
}  // namespace diffsched::patch

#include <fstream>
#include <iterator>

#include <rapidcheck/gtest.h>

namespace diffsched::patch {
namespace {

std::string read_input(const std::string& name) {
  std::ifstream f(std::string(DIFFSCHED_PATCH_INPUTS) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Any bytes: a patch or one error line, never a crash; a patch read back
// from its own unified diff reads the same.
RC_GTEST_PROP(PatchParse, AnyBytesGiveAPatchOrOneErrorLine, (const std::string& bytes)) {
  const Parsed p = parse_patch(bytes);
  RC_ASSERT(p.ok() || p.error.find('\n') == std::string::npos);
  RC_ASSERT(!p.ok() || !p.series.patches.empty());
}

// A real patch with bytes cut, flipped or inserted at one place: the same.
RC_GTEST_PROP(PatchParse, DamagedPatchesGiveAPatchOrOneErrorLine, ()) {
  const auto name = *rc::gen::element<std::string>("cpudl-series.mbox", "cpudl-equivalent.html",
                                                   "pick-and-topology.patch", "cpudl-broken.diff");
  std::string text = read_input(name);
  RC_PRE(!text.empty());
  const auto at = *rc::gen::inRange<std::size_t>(0, text.size());
  const auto len = *rc::gen::inRange<std::size_t>(0, 40);
  switch (*rc::gen::inRange(0, 3)) {
    case 0: text.erase(at, len); break;
    case 1: text.insert(at, *rc::gen::container<std::string>(len, rc::gen::arbitrary<char>())); break;
    default: text[at] = *rc::gen::arbitrary<char>(); break;
  }
  const Parsed p = parse_patch(text);
  RC_ASSERT(p.ok() || p.error.find('\n') == std::string::npos);
  if (p.ok())
    for (const Patch& one : p.series.patches) {
      bool all_hunks = true;
      for (const FileDiff& f : one.files) all_hunks = all_hunks && !f.hunks.empty();
      if (!all_hunks) continue;  // a mode change or rename has no text to round-trip
      const Parsed again = parse_patch(unified_diff(one));
      RC_ASSERT(again.ok());
      RC_ASSERT(again.series.patches.at(0).files.size() == one.files.size());
    }
}

}  // namespace
}  // namespace diffsched::patch
