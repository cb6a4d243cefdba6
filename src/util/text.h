// Small text helpers shared by the tools and the kernel-check harness, each
// written once (issue 13): trimming, reading a whole file, shell quoting,
// checked number parsing and the lines of a sanitizer report.
//
//   util::trim("  a b \n")                    -> "a b"
//   util::read_text("compile.log")            -> the whole file ("" if unreadable)
//   util::shell_quote("a b")                  -> "'a b'"  (plain words stay as they are)
//   util::shell_join({"x", "it's"})           -> "x 'it'\''s'"
//   util::shell_quote("a\nb")                 -> "$'a\\nb'"  (one line, bash/ksh/zsh)
//   util::shell_path("-x.ops")                -> "./-x.ops" (never read as an option)
//   util::c_string_literal("a\"b")            -> "\"a\\\"b\""  (for -DNAME=..., no shell)
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

// One quoting style for every printed command (issue 22), so that a pasted
// line runs exactly the words it shows and nothing else:
//   - a word of only safe characters ([A-Za-z0-9_@%+=:,./-]) as it is;
//   - a word of printable ASCII otherwise (or "") in single quotes, with a '
//     written as '\'';
//   - a word holding a control character (a newline, a tab, ESC, ...) or
//     any byte >= 0x80 (UTF-8 or not) as a bash ANSI-C string $'...': those
//     bytes as \xHH, \ and ' as \\ and \', so the command stays one line
//     of ASCII and no byte reaches the terminal raw.
std::string shell_quote(std::string_view word);
// The words quoted and joined with single spaces. The first word is the
// command: it is quoted also when it holds a '=' (else the shell would read
// "a=b/diffsched" as an assignment).
std::string shell_join(const std::vector<std::string>& words);
// A path as a printed command's argument: shell_quote, and "./" before a
// relative path that begins with '-' (so that no program reads it as an
// option).
std::string shell_path(const std::filesystem::path& path);
// The command word of a printed command: shell_path, also quoting '='.
std::string shell_command_word(std::string_view word);

// This binary's path (/proc/self/exe) relative to the cwd
// ("./build/diffsched"), or absolute when outside it; "diffsched" if unknown.
std::string self_path();
// self_path() as the first word of a printed command (shell_command_word).
std::string self_command();

// A C string literal of the bytes, for a generated compiler argument such as
// -DKCHECK_SOURCE=<literal> (passed through execve, no shell): "..." with
// \\, \" and \? escaped and every byte outside printable ASCII as a
// three-digit octal escape (\012 for a newline), so any file name compiles.
std::string c_string_literal(std::string_view bytes);

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
