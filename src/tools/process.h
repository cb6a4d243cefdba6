// Running other programs: the compilers, cmake, fuzz engines, llvm-cov.
// Used by the subcommands that build or drive binaries (campaign, coverage,
// kernel-check, bench).
//
//   auto cmake = tools::find_program("cmake");           // "" if not on PATH
//   int rc = tools::run({cmake, "--version"}, "/tmp/log");
//   if (!tools::build_preset("fuzz", &log)) ...           // cmake --preset + build
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
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

// One child process: what runs, where, with what, and until when. Every
// program diffsched starts (compilers, cmake, the harness, fuzz engines,
// QEMU, kernel-check per mutant) goes through it, with run() or spawn().
//
//   tools::run({.argv = {cc, "-c", f}, .log = log, .deadline = 120})
//   tools::run({.argv = argv, .deadline = limit, .stop = [] { return stopping; }})
struct Command {
  std::vector<std::string> argv;  // argv[0] a path, or a name looked up on PATH
  fs::path log;                   // stdout+stderr go here (truncated); empty: inherit
  fs::path cwd;                   // empty: inherit
  std::vector<std::pair<std::string, std::string>> env;  // added/overridden
  bool new_process_group = false;  // so a signal to us is forwarded, not shared
  // run(): after this many seconds (> 0) the child's whole process group is
  // killed (SIGKILL) and kExitTimedOut returned. Implies its own group.
  double deadline = 0;
  // run(): asked while the child runs (every few ms); true: its whole
  // process group is killed and kExitStopped returned (a signal to us, a
  // second SIGINT during a merge). Implies its own group.
  std::function<bool()> stop = nullptr;
  bool stdin_null = false;  // stdin from /dev/null (a compiler never reads ours)
};

// Starts the command. Returns the pid, or -1 if it could not fork (or argv
// is empty). A child in its own group is remembered until wait_exit() reaps
// it, so that stop_children_on_signal() can stop it. The deadline and stop
// are run()'s: a spawned child is the caller's to wait for.
pid_t spawn(const Command& command);

// The status of a child that could not be executed (as sh's 127).
inline constexpr int kExitNotExecuted = 127;
// run(): the deadline passed; the child's process group was killed.
inline constexpr int kExitTimedOut = -2;
// run(): Command::stop said so; the child's process group was killed.
inline constexpr int kExitStopped = -3;

// Waits for pid: its exit status; 128+signal (kExitSignalBase) if it died of
// a signal; -1 on error; kExitNotExecuted if it could not be executed.
int wait_exit(pid_t pid);

// Polls pid without blocking: std::nullopt while it runs; once it has
// exited, the exit status as wait_exit(). A child spawn() started in its own
// group has what is left of its group killed first (while its zombie still
// holds the group id) and its group forgotten, as run() does. -1 if it cannot
// be waited for (its group killed all the same).
//
//   while (!(rc = tools::try_wait(pid))) sleep ...;
std::optional<int> try_wait(pid_t pid);

// How many children spawn() started in their own group are not yet reaped
// (what stop_children_on_signal() would stop; at most 256 are remembered).
std::size_t remembered_groups();

// spawn + wait: the exit status as wait_exit (-1: could not start), or
// kExitTimedOut when the deadline ran out, or kExitStopped when stop() said
// so (either way the whole group is killed, then reaped).
int run(const Command& command);

// A function run in a forked copy of this process (no exec): a child all
// the same, so it is here, with its deadline. For work that may crash or hang
// the process (libclang on a hostile file). stdin is /dev/null; after
// `deadline` seconds the child dies of SIGALRM (set in the child: no thread
// of ours waits); what `work` returned comes back through a pipe. The child
// never returns into the caller's code.
//
//   CallResult r = tools::call_in_child([&] { return serialize(parse(t)); }, 120);
struct CallResult {
  std::string data;   // what work() returned (status 0)
  int status = 0;     // as wait_exit(); kExitTimedOut when the deadline ran out;
                      // -1 when it could not start (error says why)
  std::string error;  // the failed pipe() or fork()
};
CallResult call_in_child(const std::function<std::string()>& work, unsigned deadline);

// From now on SIGINT and SIGTERM kill the process group of every child
// spawn() started in its own group and not yet reaped (the harness and
// everything it started, a compiler), then end this process with the signal.
void stop_children_on_signal();

// The sandbox that user code (a kernel-check candidate, its compile, the
// --in-kernel twin) runs in: bubblewrap (bwrap), the whole file system
// read-only, `writable` directories bound read-write (TMPDIR the first), a
// fresh /dev and /proc, no network (its own empty network namespace), its own PID
// namespace and session, killed with its parent. Returns argv wrapped in
// bwrap, or an empty vector with *error set (bwrap missing: one line naming
// the package).
std::vector<std::string> sandboxed(const std::vector<std::string>& argv,
                                   const std::vector<fs::path>& writable, std::string* error);

// The SHA-256 of a file as hex (sha256sum, under a deadline), "" on error.
std::string sha256_file(const fs::path& file);

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
