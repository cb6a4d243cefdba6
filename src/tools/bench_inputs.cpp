#include "tools/bench_inputs.h"

#include <charconv>

#include <nlohmann/json.hpp>

namespace diffsched::tools {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (s.starts_with(p)) return true;
  return false;
}

}  // namespace

std::string run_base_name(std::string_view name) {
  std::string out;
  while (!name.empty()) {
    const size_t slash = name.find('/');
    const std::string_view part = name.substr(0, slash);
    if (!starts_with_any(part, {"iterations:", "repeats:", "min_time:", "threads:"}) &&
        part != "real_time" && part != "manual_time" && part != "process_time") {
      if (!out.empty()) out += '/';
      out += part;
    }
    if (slash == std::string_view::npos) break;
    name.remove_prefix(slash + 1);
  }
  return out;
}

std::optional<GbenchRuns> parse_gbench_json(std::string_view text, std::string* error) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("benchmarks") ||
      !doc["benchmarks"].is_array()) {
    *error = "not Google Benchmark JSON output (no \"benchmarks\" array)";
    return std::nullopt;
  }
  GbenchRuns runs;
  for (const nlohmann::json& b : doc["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) continue;
    const std::string raw_name = b["name"].get<std::string>();
    const auto run_name = b.find("run_name");
    const std::string name =
        run_base_name(run_name != b.end() && run_name->is_string() ? run_name->get<std::string>()
                                                                     : raw_name);
    if (b.contains("error_occurred") && b["error_occurred"].is_boolean() &&
        b["error_occurred"].get<bool>()) {
      const auto msg = b.find("error_message");
      *error = "benchmark " + name + " failed: " +
               (msg != b.end() && msg->is_string() ? msg->get<std::string>() : "?");
      return std::nullopt;
    }
    const auto type = b.find("run_type");
    if (type != b.end() && type->is_string() && type->get<std::string>() != "iteration") continue;
    CounterMap counters;
    for (const auto& [key, value] : b.items())
      if (value.is_number()) counters[key] = value.get<double>();
    auto [it, added] = runs.reps.try_emplace(name);
    if (added) runs.order.push_back(name);
    it->second.push_back(std::move(counters));
  }
  return runs;
}

std::optional<CallgrindPart> parse_callgrind_part(std::string_view text) {
  constexpr std::string_view kTrigger = "desc: Trigger: Client Request: ";
  constexpr std::string_view kTotals = "totals:";
  std::optional<CallgrindPart> part;
  std::optional<std::uint64_t> ir;
  for (std::string_view line : lines_of(text)) {
    if (line.starts_with(kTrigger)) {
      std::string_view label = line.substr(kTrigger.size());
      const size_t sp = label.rfind(" calls=");
      if (sp == std::string_view::npos) return std::nullopt;
      const auto calls = to_u64(label.substr(sp + 7));
      if (!calls || *calls == 0) return std::nullopt;
      part = CallgrindPart{std::string(label.substr(0, sp)), *calls, 0};
    } else if (line.starts_with(kTotals)) {
      std::string_view v = line.substr(kTotals.size());
      while (v.starts_with(' ')) v.remove_prefix(1);
      const size_t sp = v.find(' ');  // only the first event (Ir)
      ir = to_u64(v.substr(0, sp));
    }
  }
  if (!part || !ir) return std::nullopt;
  part->ir = *ir;
  return part;
}

std::map<std::string, std::uint64_t> parse_stack_usage(std::string_view text) {
  std::map<std::string, std::uint64_t> out;
  for (std::string_view line : lines_of(text)) {
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) continue;
    const std::string_view where = line.substr(0, tab);
    std::string_view rest = line.substr(tab + 1);
    const auto bytes = to_u64(rest.substr(0, rest.find('\t')));
    if (!bytes) continue;
    std::string_view fn = where.substr(0, where.find('('));  // C++ names carry their parameters
    // The name is the identifier before '(': after the last "::", ':' or ' '.
    const size_t start = fn.find_last_of(": ");
    if (start != std::string_view::npos) fn.remove_prefix(start + 1);
    if (!fn.empty()) out[std::string(fn)] = *bytes;
  }
  return out;
}

}  // namespace diffsched::tools
