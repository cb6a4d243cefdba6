#include "util/text.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace diffsched::util {

std::string_view trim(std::string_view s) {
  constexpr std::string_view kBlank = " \t\r\n\f\v";
  const std::size_t b = s.find_first_not_of(kBlank);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kBlank) - b + 1);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

namespace {

bool shell_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}

// A byte a terminal shows as itself: printable ASCII.
bool printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f;
}

}  // namespace

std::string shell_quote(std::string_view word) {
  if (!word.empty() && std::all_of(word.begin(), word.end(), shell_safe)) return std::string(word);
  std::string out;
  if (std::all_of(word.begin(), word.end(), printable)) {
    out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }
  out = "$'";
  for (char c : word) {
    if (c == '\\' || c == '\'') out += {'\\', c};
    else if (printable(c)) out += c;
    else out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
  }
  return out + "'";
}

std::string shell_command_word(std::string_view word) {
  std::string quoted = shell_path(std::filesystem::path(word));
  if (word.find('=') != std::string_view::npos && quoted.front() != '\'' && quoted.front() != '$')
    quoted = "'" + quoted + "'";  // only safe characters: no ' inside
  return quoted;
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words)
    out += out.empty() ? shell_command_word(w) : " " + shell_quote(w);
  return out;
}

std::string shell_path(const std::filesystem::path& path) {
  const std::string& s = path.native();
  return shell_quote(s.starts_with('-') ? "./" + s : s);
}

std::string self_path() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "diffsched";
  const auto rel = std::filesystem::relative(self, std::filesystem::current_path(), ec);
  if (!ec && !rel.empty() && !rel.string().starts_with(".."))
    return rel.string().find('/') == std::string::npos ? "./" + rel.string() : rel.string();
  return self.string();
}

std::string self_command() { return shell_command_word(self_path()); }

std::string c_string_literal(std::string_view bytes) {
  std::string out = "\"";
  for (char c : bytes) {
    if (c == '\\' || c == '"' || c == '?') out += {'\\', c};
    else if (printable(c)) out += c;
    else out += fmt::format("\\{:03o}", static_cast<unsigned char>(c));
  }
  return out + "\"";
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  for (std::size_t pos = 0;;) {
    const std::size_t at = text.find(sep, pos);
    out.emplace_back(text.substr(pos, at == std::string_view::npos ? text.npos : at - pos));
    if (at == std::string_view::npos) return out;
    pos = at + 1;
  }
}

std::string sanitizer_summary(std::string_view log) {
  std::size_t at = log.find("SUMMARY: ");
  // Only at the start of a line: the report's own summary, not a quote of it.
  while (at != std::string_view::npos && at > 0 && log[at - 1] != '\n')
    at = log.find("SUMMARY: ", at + 1);
  if (at == std::string_view::npos) return {};
  return std::string(log.substr(at, log.find('\n', at) - at));
}

std::size_t sanitizer_report_start(std::string_view log) {
  const std::size_t at = std::min(log.find("ERROR: AddressSanitizer"), log.find("runtime error:"));
  if (at == std::string_view::npos) return at;
  const std::size_t line = log.rfind('\n', at);
  return line == std::string_view::npos ? 0 : line + 1;
}

std::optional<std::string> sanitizer_summary_signature(std::string_view line) {
  // "SUMMARY: AddressSanitizer: heap-buffer-overflow file:line in fn"
  if (!line.starts_with("SUMMARY: ")) return std::nullopt;
  std::istringstream words{std::string(line.substr(9))};
  std::string tool, kind, where, in_word, fn;
  words >> tool >> kind >> where >> in_word >> fn;
  if (!tool.empty() && tool.back() == ':') tool.pop_back();
  return fmt::format("sanitizer:{}:{}:{}", tool, kind, fn.empty() ? where : fn);
}

}  // namespace diffsched::util
