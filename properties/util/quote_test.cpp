// util::shell_quote and its kin (issue 22): every printed command is safe
// to paste. Each quoted word, given to bash, is exactly the word: spaces,
// quotes, $(), backquotes, a newline, a leading '-', non-UTF-8 bytes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "util/text.h"

namespace diffsched::util {
namespace {

namespace fs = std::filesystem;

// The words bash sees for `printf '%s\0' LINE`, split at the NULs.
std::vector<std::string> bash_words(const std::string& line) {
  // One file per process: gtest_discover_tests runs each test as its own
  // process, in parallel under ctest -j, so a shared name raced.
  const fs::path script =
      fs::temp_directory_path() / ("diffsched-quote-test-" + std::to_string(::getpid()) + ".sh");
  { std::ofstream(script, std::ios::binary) << "printf '%s\\0' " << line << "\n"; }
  std::string out;
  if (std::FILE* p = ::popen(("bash --norc " + script.string()).c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
  }
  fs::remove(script);
  std::vector<std::string> words = split(out, '\0');
  if (!words.empty() && words.back().empty()) words.pop_back();
  return words;
}

const std::vector<std::string>& hostile_words() {
  static const std::vector<std::string> words = {
      "plain", "a b", "it's", "\"quoted\"", "$(touch INJECTED)", "`touch INJECTED`",
      "${HOME}", "a\nb", "line\n$(touch INJECTED)", "-o", "--help", "-rf /", "\t",
      "tab\there", "back\\slash", "semi;colon", "amp&er", "pipe|x", "star*", "q?", "[x]",
      "~user", "!bang", "#hash", "x=y", "", " ", "\x1b[31mred", "\xff\xfe", "caf\xe9",
      "caf\xc3\xa9", "'\\''", "$'x'", "\r\n"};
  return words;
}

TEST(ShellQuote, PlainWordsStayAsTheyAre) {
  EXPECT_EQ(shell_quote("build/diffsched"), "build/diffsched");
  EXPECT_EQ(shell_quote("--level=exact"), "--level=exact");
  EXPECT_EQ(shell_quote("id:000,sig:06"), "id:000,sig:06");
}

TEST(ShellQuote, PrintableWordsGoInSingleQuotes) {
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("$(touch INJECTED)"), "'$(touch INJECTED)'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(ShellQuote, ControlAndNonAsciiBytesAreEscapedOnOneLine) {
  EXPECT_EQ(shell_quote("a\nb"), "$'a\\x0ab'");
  EXPECT_EQ(shell_quote("caf\xe9"), "$'caf\\xe9'");
  EXPECT_EQ(shell_quote("it's\n"), "$'it\\'s\\x0a'");
  for (const auto& w : hostile_words()) {
    const std::string q = shell_quote(w);
    for (char c : q) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u < 0x7f) << "raw byte " << int(u) << " in " << q;
    }
  }
}

TEST(ShellQuote, BashReadsBackEveryHostileWordExactly) {
  std::string line;
  for (const auto& w : hostile_words()) line += " " + shell_quote(w);
  EXPECT_EQ(bash_words(line), hostile_words());
}

TEST(ShellQuote, BashReadsBackRandomBytesExactly) {
  std::mt19937 rng(22);
  std::vector<std::string> words;
  std::string line;
  for (int i = 0; i < 300; ++i) {
    std::string w(rng() % 12, ' ');
    for (char& c : w) c = static_cast<char>(1 + rng() % 255);  // no NUL: argv cannot hold one
    words.push_back(w);
    line += " " + shell_quote(w);
  }
  EXPECT_EQ(bash_words(line), words);
}

TEST(ShellQuote, PathsNeverLookLikeOptions) {
  EXPECT_EQ(shell_path("-x.ops"), "./-x.ops");
  EXPECT_EQ(shell_path("--help"), "./--help");
  EXPECT_EQ(shell_path("-a b"), "'./-a b'");
  EXPECT_EQ(shell_path("/abs/-x"), "/abs/-x");
  EXPECT_EQ(shell_path("out/m.ops"), "out/m.ops");
}

TEST(ShellQuote, TheCommandWordIsNeverAnAssignment) {
  EXPECT_EQ(shell_command_word("a=b/diffsched"), "'a=b/diffsched'");
  EXPECT_EQ(shell_command_word("./build/diffsched"), "./build/diffsched");
  EXPECT_EQ(shell_join({"x=1/bin", "--level=exact", "a b"}), "'x=1/bin' --level=exact 'a b'");
  EXPECT_EQ(bash_words(shell_join({"x=1/bin"})), std::vector<std::string>{"x=1/bin"});
}

TEST(ShellQuote, SelfCommandNamesThisBinary) {
  const std::string self = self_path();
  EXPECT_TRUE(fs::exists(self)) << self;
  EXPECT_EQ(bash_words(self_command()), std::vector<std::string>{self});
}

// A C literal of any bytes compiles back to the bytes (clang, as kernel-check
// builds a candidate: -DKCHECK_SOURCE=<literal> through execve, no shell).
TEST(CStringLiteral, AnyFileNameCompilesBackToItself) {
  EXPECT_EQ(c_string_literal("a.c"), "\"a.c\"");
  EXPECT_EQ(c_string_literal("a\"b\\c\n"), "\"a\\\"b\\\\c\\012\"");
  EXPECT_EQ(c_string_literal("??="), "\"\\?\\?=\"");
  const fs::path dir = fs::temp_directory_path() / "diffsched-c-literal";
  fs::create_directories(dir);
  std::string src = "#include <stdio.h>\nint main(void) {\n";
  for (const auto& w : hostile_words())
    src += "  fwrite(" + c_string_literal(w) + ", 1, sizeof " + c_string_literal(w) +
           " - 1, stdout); putchar(0);\n";
  src += "  return 0;\n}\n";
  { std::ofstream(dir / "t.c") << src; }
  const std::string build = "cc -o " + shell_path(dir / "t") + " " + shell_path(dir / "t.c");
  ASSERT_EQ(std::system(build.c_str()), 0) << src;
  std::string out;
  if (std::FILE* p = ::popen(shell_path(dir / "t").c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
  }
  std::vector<std::string> words = split(out, '\0');
  words.pop_back();
  EXPECT_EQ(words, hostile_words());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace diffsched::util
