// The shared helpers of src/util: trim, shell quoting, checked numbers, the
// sanitizer SUMMARY line, and the one ddmin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "util/ddmin.h"
#include "util/text.h"

namespace diffsched::util {
namespace {

TEST(UtilText, Trim) {
  EXPECT_EQ(trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(trim(" \n "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
}

TEST(UtilText, ReadText) {
  const auto path = std::filesystem::temp_directory_path() / "diffsched-util-read-text.txt";
  const std::string bytes("a\nb\0c\n", 6);
  { std::ofstream(path, std::ios::binary) << bytes; }
  EXPECT_EQ(read_text(path), bytes);
  std::filesystem::remove(path);
  EXPECT_EQ(read_text("/nonexistent/diffsched"), "");
}

TEST(UtilText, ShellQuoteHasOneStyle) {
  EXPECT_EQ(shell_quote("build/diffsched"), "build/diffsched");
  EXPECT_EQ(shell_quote("--level=exact"), "--level=exact");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$HOME;rm"), "'$HOME;rm'");
  EXPECT_EQ(shell_join({"x", "a b", ""}), "x 'a b' ''");
}

TEST(UtilText, ParseNumberIsWholeAndChecked) {
  EXPECT_EQ(parse_number<unsigned>("12"), 12u);
  EXPECT_EQ(parse_number<unsigned>("12x"), std::nullopt);
  EXPECT_EQ(parse_number<unsigned>("-1"), std::nullopt);
  EXPECT_EQ(parse_number<unsigned>("+1"), std::nullopt);
  EXPECT_EQ(parse_number<unsigned>(" 1"), std::nullopt);
  EXPECT_EQ(parse_number<unsigned>(""), std::nullopt);
  EXPECT_EQ(parse_number<unsigned>("4294967296"), std::nullopt);
  EXPECT_EQ(parse_number<int>("-3"), -3);
  EXPECT_EQ(parse_number<double>("2.5"), 2.5);
  EXPECT_EQ(parse_number<double>("2.5s"), std::nullopt);
}

TEST(UtilText, Split) {
  EXPECT_EQ(split("a,b,,c", ','), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(split("", ','), (std::vector<std::string>{""}));
}

TEST(UtilText, SanitizerSummary) {
  const std::string log =
      "INFO: x\n==1==ERROR: AddressSanitizer: heap-buffer-overflow on address\n"
      "    #0 0x1 in f\nSUMMARY: AddressSanitizer: heap-buffer-overflow a.c:3 in f\n==1==ABORTING\n";
  EXPECT_EQ(sanitizer_summary(log), "SUMMARY: AddressSanitizer: heap-buffer-overflow a.c:3 in f");
  EXPECT_EQ(sanitizer_report_start(log), std::string("INFO: x\n").size());
  EXPECT_EQ(sanitizer_summary("no report\n"), "");
  EXPECT_EQ(sanitizer_report_start("no report\n"), std::string::npos);
  // A quote of a summary inside a line is not the report's own.
  EXPECT_EQ(sanitizer_summary("echo 'SUMMARY: x'\n"), "");
  const std::string ubsan = "a.c:4:5: runtime error: shift exponent 70\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior a.c:4:5\n";
  EXPECT_EQ(sanitizer_report_start(ubsan), 0u);
  EXPECT_EQ(sanitizer_summary(ubsan), "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior a.c:4:5");
}

TEST(UtilDdmin, FindsTheOneMinimalSubsetAndCountsTries) {
  std::vector<int> items(40);
  for (int i = 0; i < 40; ++i) items[static_cast<std::size_t>(i)] = i;
  std::size_t tries = 0;
  auto fails = [&](const std::vector<int>& v) {
    ++tries;
    return std::count(v.begin(), v.end(), 7) && std::count(v.begin(), v.end(), 31);
  };
  EXPECT_TRUE(ddmin(items, fails, [] { return false; }));
  EXPECT_EQ(items, (std::vector<int>{7, 31}));
  EXPECT_LT(tries, 200u);  // a count, not a time
}

TEST(UtilDdmin, StopsWhenTheBudgetIsSpentAndKeepsAFailingList) {
  std::vector<int> items(64, 1);
  items[50] = 2;
  std::size_t tries = 0;
  auto fails = [&](const std::vector<int>& v) {
    if (tries >= 3) return false;
    ++tries;
    return std::count(v.begin(), v.end(), 2) > 0;
  };
  ddmin(items, fails, [&] { return tries >= 3; });
  EXPECT_EQ(tries, 3u);
  EXPECT_EQ(std::count(items.begin(), items.end(), 2), 1);
  EXPECT_LT(items.size(), 64u);
}

TEST(UtilDdmin, NeverTriesAnEmptyList) {
  std::vector<int> items = {1, 2, 3};
  ddmin(items, [](const std::vector<int>& v) { EXPECT_FALSE(v.empty()); return true; },
        [] { return false; });
  EXPECT_EQ(items.size(), 1u);
}

}  // namespace
}  // namespace diffsched::util
