// The fuzz engines a campaign drives, behind one interface. Each engine owns
// its command lines, how it reports progress (libFuzzer's log, AFL++'s
// fuzzer_stats), where its crash files go and its queue of new inputs:
//
//   auto engine = make_engine("afl", settings);             // or "libfuzzer"
//   auto pids = start_processes(engine->commands(paths, 60), engine->environment());
//   EngineStatus st = engine->status(paths);                // while it runs and after
//   fs::path queue = engine->collect(paths);                // new inputs, for the merge;
//                                                           // crash files into paths.crashes
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "campaign/layout.h"
#include "campaign/supervise.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

// What an engine's log or stats say so far.
struct EngineStatus {
  std::uint64_t execs = 0;
  std::uint64_t coverage = 0;
  std::uint64_t features = 0;
  bool started = false;  // libFuzzer printed its seed line; afl-fuzz wrote fuzzer_stats
  bool finished = false; // libFuzzer said it was done (fork mode then exits with the
                         // status of the last crash it ignored: not a failure)
};

// What both engines are given.
struct EngineSettings {
  fs::path fuzz_dir;   // libFuzzer binaries and their <target>.options (dicts)
  fs::path afl_dir;    // AFL++ binaries (afl only)
  fs::path afl_fuzz;   // the afl-fuzz program (afl only)
  unsigned jobs = 1;   // libFuzzer -fork=N; afl: N instances
  std::optional<unsigned> seed;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string_view name() const = 0;  // "libfuzzer", "afl"
  // The processes that fuzz target t for `seconds` (each its own group).
  virtual std::vector<Command> commands(const TargetLayout& t, long seconds) const = 0;
  virtual std::vector<std::pair<std::string, std::string>> environment() const = 0;
  virtual EngineStatus status(const TargetLayout& t) const = 0;
  // The crash files written so far, wherever the engine puts them.
  virtual std::vector<fs::path> crash_files(const TargetLayout& t) const = 0;
  // After the run: the directory of new inputs to merge into the corpus;
  // crash files the engine kept elsewhere are copied into t.crashes.
  virtual fs::path collect(const TargetLayout& t) const = 0;
};

std::unique_ptr<Engine> make_libfuzzer_engine(EngineSettings settings);
std::unique_ptr<Engine> make_afl_engine(EngineSettings settings);
// "libfuzzer" or "afl"; nullptr for any other name.
std::unique_ptr<Engine> make_engine(std::string_view name, EngineSettings settings);

// ---- shared by the engines, and tested on their own --------------------------

// libFuzzer's or AFL++'s crash file names (crash-, timeout-, oom-, leak-, id:, afl-).
bool is_crash_file(const fs::path& file);
// The crash files in t.crashes (after collect(): all of them).
std::vector<fs::path> collected_crash_files(const TargetLayout& t);

// The [libfuzzer] section of a <target>.options file as -key=value flags
// (dict paths relative to `dir`, as in OSS-Fuzz).
std::vector<std::string> options_file_args(const fs::path& options, const fs::path& dir);

// What libFuzzer's log (either mode) says so far.
EngineStatus parse_libfuzzer_log(const fs::path& log);
// What the fuzzer_stats files under afl-fuzz's -o say (instances add up).
EngineStatus afl_status(const fs::path& afl_out);

// The line of an engine's log that says why it failed (one line, no colours).
std::string engine_error_line(const fs::path& log);

// The reason the engine failed ("" if it did not): it could not start,
// exited abnormally before it was stopped, or ran no input.
std::string engine_failure(const Supervised& s, const EngineStatus& st);

}  // namespace diffsched::campaign
