// libFuzzer: one process, -fork=JOBS, crashes ignored and written to
// t.crashes, new inputs into t.found (its first corpus directory), progress
// read from its log.
#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "campaign/engine.h"

namespace diffsched::campaign {

namespace {

std::uint64_t number_after(const std::string& line, std::string_view key) {
  const auto at = line.find(key);
  return at == std::string::npos ? 0 : std::strtoull(line.c_str() + at + key.size(), nullptr, 10);
}

class LibFuzzer final : public Engine {
 public:
  explicit LibFuzzer(EngineSettings s) : s_(std::move(s)) {}
  std::string_view name() const override { return "libfuzzer"; }

  std::vector<Command> commands(const TargetLayout& t, long seconds) const override {
    const fs::path fuzzer = s_.fuzz_dir / t.target;
    std::vector<std::string> argv = {fuzzer.string(), fmt::format("-fork={}", s_.jobs),
                                     "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
                                     fmt::format("-max_total_time={}", seconds),
                                     "-artifact_prefix=" + t.artifact_prefix(),
                                     "-print_final_stats=1"};
    if (s_.seed) argv.push_back(fmt::format("-seed={}", *s_.seed));
    for (auto& a : options_file_args(s_.fuzz_dir / (t.target + ".options"), s_.fuzz_dir))
      argv.push_back(std::move(a));
    argv.push_back(t.found.string());
    argv.push_back(t.corpus.string());
    return {{std::move(argv), t.engine_log(0)}};
  }

  // A self-check target (cpudl_exact) records its accepted class (the tie)
  // and keeps fuzzing instead of ending a fork job per tie (targets.h).
  std::vector<std::pair<std::string, std::string>> environment() const override {
    return {{"DIFFSCHED_RECORD_ACCEPTED", "1"}};
  }

  EngineStatus status(const TargetLayout& t) const override { return parse_libfuzzer_log(t.log); }

  std::vector<fs::path> crash_files(const TargetLayout& t) const override {
    return collected_crash_files(t);
  }

  fs::path collect(const TargetLayout& t) const override { return t.found; }

 private:
  EngineSettings s_;
};

}  // namespace

// libFuzzer (fork mode) prints "#N: cov: C ft: F corp: ..." lines; non-fork
// mode "#N\tNEW cov: C ft: F ...", "#N\tINITED ..." and "#N\tDONE ...";
// -print_final_stats=1 adds "stat::number_of_executed_units: N"; fork mode
// first runs the seeds ("INFO: -fork=2: N seed inputs, starting to fuzz").
// The largest count and the last coverage line win.
EngineStatus parse_libfuzzer_log(const fs::path& log) {
  EngineStatus st;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("INFO: Seed:")) st.started = true;
    if (line.starts_with("INFO: exiting:") || line.starts_with("Done ") ||
        line.find("\tDONE ") != std::string::npos)
      st.finished = st.started;
    if (const auto seeds = line.find(" seed inputs, starting to fuzz"); seeds != std::string::npos)
      if (const auto colon = line.rfind(": ", seeds); colon != std::string::npos)
        st.execs = std::max<std::uint64_t>(st.execs, std::strtoull(line.c_str() + colon + 2, nullptr, 10));
    if (line.starts_with("stat::number_of_executed_units:"))
      st.execs = std::max(st.execs, number_after(line, "stat::number_of_executed_units:"));
    if (line.size() < 2 || line[0] != '#') continue;
    st.execs = std::max<std::uint64_t>(st.execs, std::strtoull(line.c_str() + 1, nullptr, 10));
    if (line.find("cov: ") == std::string::npos) continue;
    st.coverage = number_after(line, "cov: ");
    st.features = number_after(line, "ft: ");
  }
  return st;
}

std::unique_ptr<Engine> make_libfuzzer_engine(EngineSettings settings) {
  return std::make_unique<LibFuzzer>(std::move(settings));
}

}  // namespace diffsched::campaign
