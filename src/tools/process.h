// Running other programs: the compilers, cmake, fuzz engines, llvm-cov.
// Used by the subcommands that build or drive binaries (campaign, coverage,
// kernel-check, bench).
//
//   auto cmake = tools::find_program("cmake");           // "" if not on PATH
//   int rc = tools::run({cmake, "--version"}, "/tmp/log");
//   if (!tools::build_preset("fuzz", &log)) ...           // cmake --preset + build
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "util/text.h"

namespace diffsched::tools {

namespace fs = std::filesystem;

// The source tree this binary was built from (CMake's PROJECT_SOURCE_DIR).
fs::path source_dir();

// The first executable `name` on PATH (or `name` itself if it has a '/'), or
// an empty path.
fs::path find_program(const std::string& name);

struct RunOptions {
  fs::path log;                 // stdout+stderr go here (truncated); empty: inherit
  fs::path cwd;                 // empty: inherit
  std::vector<std::pair<std::string, std::string>> env;  // added/overridden
  bool new_process_group = false;  // so a signal to us is forwarded, not shared
};

// Starts argv (argv[0] a path, or a name looked up on PATH). Returns the pid,
// or -1 if it could not fork.
pid_t spawn(const std::vector<std::string>& argv, const RunOptions& options = {});

// The status of a child that could not be executed (as sh's 127).
inline constexpr int kExitNotExecuted = 127;

// Waits for pid: its exit status; 128+signal (kExitSignalBase) if it died of
// a signal; -1 on error; kExitNotExecuted if it could not be executed.
int wait_exit(pid_t pid);

// spawn + wait_exit.
int run(const std::vector<std::string>& argv, const RunOptions& options = {});

// Configures (if needed) and builds a CMake preset of source_dir(), output
// into `log`. True on success; on failure *error names the step and the log.
bool build_preset(const std::string& preset, const fs::path& log, std::string* error,
                  const std::vector<std::string>& targets = {});

// The preset's binary directory: source_dir()/build-<preset> ("build" for default).
fs::path preset_dir(const std::string& preset);

// A whole file as text ("" if unreadable): util::read_text (util/text.h).
using util::read_text;

// The last `lines` lines of a text file.
std::string tail_file(const fs::path& file, std::size_t lines);

}  // namespace diffsched::tools
