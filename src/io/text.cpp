#include "io/text.h"

#include <charconv>

namespace diffsched::io {

using kernel::u64;

std::string excerpt(std::string_view s, std::size_t n) {
  if (s.size() <= n) return std::string(s);
  return std::string(s.substr(0, n)) + "...";
}

std::string format_value(int v) { return fmt::format("{}", v); }

std::string format_value(u64 v) {
  if (v <= 0xffffffffULL) return fmt::format("{}", v);
  return fmt::format("{:#x}", v);
}

std::string format_value(bool v) { return v ? "1" : "0"; }

std::string format_value(const kernel::Cpumask& v) {
  std::string s = kernel::cpumask_to_cpulist(v);
  return s.empty() ? std::string("none") : s;
}

std::string format_value(cpumask::Reg v) { return fmt::format("r{}", v.r); }

namespace {

template <class T>
bool parse_integer(std::string_view s, T* out, std::string* error) {
  int base = 10;
  std::string_view digits = s;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *out, base);
  if (digits.empty() || ec != std::errc{} || p != digits.data() + digits.size()) {
    *error = ec == std::errc::result_out_of_range
                 ? fmt::format("'{}' is out of range", excerpt(s))
                 : fmt::format("'{}' is not a number", excerpt(s));
    return false;
  }
  return true;
}

}  // namespace

bool parse_value(std::string_view s, int* out, std::string* error) {
  if (!parse_integer(s, out, error)) return false;
  if (*out < 0 || static_cast<unsigned>(*out) >= kernel::nr_cpu_ids) {
    *error = fmt::format("CPU {} is out of range (nr_cpu_ids is {})", *out,
                         kernel::nr_cpu_ids);
    return false;
  }
  return true;
}

bool parse_value(std::string_view s, u64* out, std::string* error) {
  return parse_integer(s, out, error);
}

bool parse_value(std::string_view s, bool* out, std::string* error) {
  if (s == "1" || s == "true") {
    *out = true;
    return true;
  }
  if (s == "0" || s == "false") {
    *out = false;
    return true;
  }
  *error = fmt::format("'{}' is not 0 or 1", excerpt(s));
  return false;
}

bool parse_value(std::string_view s, kernel::Cpumask* out, std::string* error) {
  if (s == "none") {
    *out = kernel::Cpumask{};
    return true;
  }
  return kernel::cpulist_parse(s, out, error);
}

bool parse_value(std::string_view s, cpumask::Reg* out, std::string* error) {
  if (s.size() == 2 && s[0] == 'r' && s[1] >= '0' && s[1] < '0' + int(cpumask::kRegisters)) {
    out->r = static_cast<unsigned>(s[1] - '0');
    return true;
  }
  *error = fmt::format("'{}' is not a register (r0..r{})", excerpt(s), cpumask::kRegisters - 1);
  return false;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

}  // namespace diffsched::io
