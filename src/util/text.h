// Small text helpers shared by the tools and the kernel-check harness, each
// written once (issue 13): trimming, reading a whole file, shell quoting,
// checked number parsing and the lines of a sanitizer report.
//
//   util::trim("  a b \n")                    -> "a b"
//   util::read_text("compile.log")            -> the whole file ("" if unreadable)
//   util::shell_quote("a b")                  -> "'a b'"  (plain words stay as they are)
//   util::shell_join({"x", "it's"})           -> "x 'it'\''s'"
//   util::parse_number<unsigned>("12")        -> 12; "12x", "", "-1" -> nullopt
//   util::sanitizer_summary(log)              -> "SUMMARY: AddressSanitizer: ..." or ""
#pragma once

#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace diffsched::util {

// `s` without leading and trailing blanks (space, tab, CR, LF, FF, VT).
std::string_view trim(std::string_view s);

// A whole file as text ("" if it cannot be read).
std::string read_text(const std::filesystem::path& file);

// One quoting style for every printed command: a word of only safe characters
// ([A-Za-z0-9_@%+=:,./-]) as it is, anything else (or "") in single quotes,
// with a ' written as '\''. Good for sh, bash and copy-paste.
std::string shell_quote(std::string_view word);
// The words quoted and joined with single spaces.
std::string shell_join(const std::vector<std::string>& words);

// `text` split at `sep` (an empty text gives one empty item).
std::vector<std::string> split(std::string_view text, char sep);

// A whole decimal number of type T (integral or floating point), or nullopt:
// no sign for unsigned types, no blanks, nothing after it, within T's range.
template <class T>
std::optional<T> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if constexpr (std::is_unsigned_v<T>)
    if (text.front() == '-' || text.front() == '+') return std::nullopt;
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The "SUMMARY: ..." line that ASan, UBSan and LeakSanitizer end their report
// with, from a log; "" if there is none.
std::string sanitizer_summary(std::string_view log);
// Where the first sanitizer report in `log` begins (the start of its
// "ERROR: AddressSanitizer" or "runtime error:" line), or npos.
std::size_t sanitizer_report_start(std::string_view log);
// A sanitizer's "SUMMARY: Tool: kind where in fn" line as a signature,
// "sanitizer:Tool:kind:fn" (where if there is no function); nullopt if `line`
// is not a SUMMARY line.
std::optional<std::string> sanitizer_summary_signature(std::string_view line);

}  // namespace diffsched::util
