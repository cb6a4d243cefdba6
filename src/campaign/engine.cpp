#include "campaign/engine.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "campaign/util.h"
#include "tools/process.h"

namespace diffsched::campaign {

std::unique_ptr<Engine> make_engine(std::string_view name, EngineSettings settings) {
  if (name == "libfuzzer") return make_libfuzzer_engine(std::move(settings));
  if (name == "afl") return make_afl_engine(std::move(settings));
  return nullptr;
}

bool is_crash_file(const fs::path& f) {
  const std::string name = f.filename().string();
  return name.starts_with("crash-") || name.starts_with("timeout-") || name.starts_with("oom-") ||
         name.starts_with("leak-") || name.starts_with("id:") || name.starts_with("afl-");
}

std::vector<fs::path> collected_crash_files(const TargetLayout& t) {
  std::vector<fs::path> out;
  for (const auto& f : regular_files(t.crashes))
    if (is_crash_file(f)) out.push_back(f);
  return out;
}

std::vector<std::string> options_file_args(const fs::path& options, const fs::path& dir) {
  std::vector<std::string> args;
  std::ifstream in(options);
  std::string line;
  bool section = false;
  while (std::getline(in, line)) {
    const std::string t(trim(line));
    if (t.empty() || t[0] == '#') continue;
    if (t[0] == '[') {
      section = t == "[libfuzzer]";
      continue;
    }
    const auto eq = t.find('=');
    if (!section || eq == std::string::npos) continue;
    const std::string key(trim(std::string_view(t).substr(0, eq)));
    std::string value(trim(std::string_view(t).substr(eq + 1)));
    if (key == "dict") value = (dir / value).string();
    args.push_back(fmt::format("-{}={}", key, value));
  }
  return args;
}

std::string engine_error_line(const fs::path& log) {
  static constexpr std::string_view kMarks[] = {
      "PROGRAM ABORT", "SYSTEM ERROR", "ERROR", "Error", "error:", "Not a directory",
      "No such file", "Permission denied", "not found", "cannot", "Cannot", "failed"};
  std::istringstream in(tools::read_text(log));
  std::string line, last;
  while (std::getline(in, line)) {
    std::string clean;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\033') {  // ESC [ ... letter
        while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
        continue;
      }
      if (line[i] != '\r') clean += line[i];
    }
    clean = std::string(trim(clean));
    if (clean.empty()) continue;
    last = clean;
    for (const auto mark : kMarks)
      if (clean.find(mark) != std::string::npos) return clean.substr(0, 300);
  }
  return last.empty() ? "the log is empty" : last.substr(0, 300);
}

std::string engine_failure(const Supervised& s, const EngineStatus& st) {
  if (s.rc == 127 || s.rc < 0) return fmt::format("could not start (exit {})", s.rc);
  if (s.failed_early && !st.finished) return fmt::format("exited with status {}", s.rc);
  if (!st.started) return fmt::format("did not start (exit {})", s.rc);
  if (st.execs == 0) return fmt::format("ran 0 inputs (exit {})", s.rc);
  return {};
}

}  // namespace diffsched::campaign
