#include "io/text.h"


namespace diffsched::io {

using kernel::u64;

std::string excerpt(std::string_view s, std::size_t n) {
  if (s.size() <= n) return std::string(s);
  return std::string(s.substr(0, n)) + "...";
}

std::string format_value(int v) { return FieldTraits<Cpu>::print(v); }
std::string format_value(u64 v) { return print_u64(v); }
std::string format_value(bool v) { return FieldTraits<bool>::print(v); }
std::string format_value(const kernel::Cpumask& v) { return FieldTraits<kernel::Cpumask>::print(v); }

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
