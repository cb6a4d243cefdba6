#include "campaign/afl_stats.h"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "campaign/util.h"

namespace diffsched::campaign {

namespace {

template <class T>
bool to_number(std::string_view s, T* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::optional<AflStats> parse_afl_stats(std::string_view text, std::string* error) {
  std::map<std::string, std::string, std::less<>> kv;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    kv.emplace(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  AflStats s;
  auto get = [&](std::initializer_list<std::string_view> keys, auto* out, bool required) {
    for (const auto key : keys)
      if (auto it = kv.find(key); it != kv.end()) {
        if (to_number(it->second, out)) return true;
        *error = "fuzzer_stats: " + std::string(key) + " is not a number: '" + it->second + "'";
        return false;
      }
    if (required) *error = "fuzzer_stats: no " + std::string(*keys.begin()) + " line";
    return !required;
  };
  if (!get({"execs_done"}, &s.execs_done, true) ||
      !get({"execs_per_sec"}, &s.execs_per_sec, true) ||
      !get({"edges_found"}, &s.edges_found, true) ||
      !get({"saved_crashes", "unique_crashes"}, &s.saved_crashes, true) ||
      !get({"corpus_count", "paths_total"}, &s.corpus_count, true) ||
      !get({"total_edges"}, &s.total_edges, false) ||
      !get({"saved_hangs", "unique_hangs"}, &s.saved_hangs, false) ||
      !get({"run_time"}, &s.run_time, false) || !get({"fuzzer_pid"}, &s.fuzzer_pid, false))
    return std::nullopt;
  return s;
}

std::optional<AflStats> read_afl_stats(const std::filesystem::path& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = "cannot read " + file.string();
    return std::nullopt;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  auto s = parse_afl_stats(buf.str(), error);
  if (!s) *error += " (" + file.string() + ")";
  return s;
}

}  // namespace diffsched::campaign
