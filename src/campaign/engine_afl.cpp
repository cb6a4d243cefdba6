// AFL++: JOBS afl-fuzz instances (-M main, -S s1, ...) over one -o directory
// (t.afl_out), the corpus as -i, the dictionary of the libFuzzer .options
// file; progress from each instance's fuzzer_stats (campaign/afl_stats.h);
// crashes in t.afl_out/<instance>/crashes, copied into t.crashes at the end,
// and the queues copied into t.afl_queue for the merge.
#include <fmt/format.h>

#include "campaign/afl_stats.h"
#include "campaign/engine.h"
#include "campaign/util.h"

namespace diffsched::campaign {

namespace {

class Afl final : public Engine {
 public:
  explicit Afl(EngineSettings s) : s_(std::move(s)) {}
  std::string_view name() const override { return "afl"; }

  std::vector<Command> commands(const TargetLayout& t, long seconds) const override {
    std::string dict;
    for (const auto& a : options_file_args(s_.fuzz_dir / (t.target + ".options"), s_.fuzz_dir))
      if (a.starts_with("-dict=")) dict = a.substr(6);
    std::vector<Command> commands;
    for (unsigned k = 0; k < s_.jobs; ++k) {
      std::vector<std::string> argv = {s_.afl_fuzz.string(), "-i", t.corpus.string(), "-o",
                                       t.afl_out.string(), "-V", std::to_string(seconds)};
      if (s_.jobs > 1) {
        argv.push_back(k == 0 ? "-M" : "-S");
        argv.push_back(k == 0 ? std::string("main") : fmt::format("s{}", k));
      }
      if (!dict.empty()) argv.insert(argv.end(), {"-x", dict});
      if (s_.seed) argv.insert(argv.end(), {"-s", std::to_string(*s_.seed + k)});
      argv.push_back("--");
      argv.push_back((s_.afl_dir / t.target).string());
      commands.push_back({std::move(argv), t.engine_log(k)});
    }
    return commands;
  }

  std::vector<std::pair<std::string, std::string>> environment() const override {
    return {{"AFL_NO_UI", "1"},        {"AFL_SKIP_CPUFREQ", "1"},
            {"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"}, {"AFL_NO_AFFINITY", "1"},
            {"AFL_SKIP_CRASHES", "1"}, {"AFL_FAST_CAL", "1"}};
  }

  EngineStatus status(const TargetLayout& t) const override { return afl_status(t.afl_out); }

  std::vector<fs::path> crash_files(const TargetLayout& t) const override {
    std::vector<fs::path> out = collected_crash_files(t);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(t.afl_out, ec))
      for (const auto& f : regular_files(AflInstance{entry.path()}.crashes()))
        if (is_crash_file(f)) out.push_back(f);
    return out;
  }

  fs::path collect(const TargetLayout& t) const override {
    std::error_code ec;
    fs::create_directories(t.afl_queue, ec);
    for (const auto& entry : fs::directory_iterator(t.afl_out, ec)) {
      const AflInstance inst{entry.path()};
      for (const auto& f : regular_files(inst.queue())) fs::copy_file(f, t.afl_queue_copy(inst, f), ec);
      for (const auto& f : regular_files(inst.crashes()))
        if (f.filename().string().starts_with("id:")) fs::copy_file(f, t.afl_crash_copy(inst, f), ec);
    }
    return t.afl_queue;
  }

 private:
  EngineSettings s_;
};

}  // namespace

EngineStatus afl_status(const fs::path& afl_out) {
  EngineStatus st;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(afl_out, ec)) {
    std::string error;
    const auto s = read_afl_stats(AflInstance{entry.path()}.fuzzer_stats(), &error);
    if (!s) continue;
    st.started = true;
    st.execs += s->execs_done;
    st.coverage = std::max(st.coverage, s->edges_found);
  }
  return st;
}

std::unique_ptr<Engine> make_afl_engine(EngineSettings settings) {
  return std::make_unique<Afl>(std::move(settings));
}

}  // namespace diffsched::campaign
