// One `diffsched kernel-check` run, in parts (src/kcheck/; the CLI only parses
// the flags: src/cli/cmd_kernel_check.cpp and kernel_check_options.cpp):
//   session.cpp  the replay command, the verdict file's note, error()
//   prepare.cpp  checks and classifies the files, the work directory, the
//                harness, builds and loads the candidate (and a baseline file)
//   harness_run.cpp  runs the harness in its sandbox under a watchdog and
//                reads its result record; finds libFuzzer's artifacts
//   crash.cpp    minimises a sanitizer finding outside the harness (util::ddmin)
//   run.cpp      the steps: replay, allocation failure, properties, fuzzing,
//                and how each verdict is reported
//   in_kernel_check.cpp  --in-kernel: what it refuses, then kcheck/in_kernel
// docs/kernel-check.md describes the whole.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kcheck/options.h"
#include "kcheck/status.h"
#include "kcheck/kernel_check.h"
#include "util/owned_dir.h"
#include "kcheck/record.h"

namespace diffsched::kcheck {

namespace fs = std::filesystem;
using tools::KernelCheckOptions;

// The printed replay command: this binary, then tools::replay_args, quoted.
std::string replay_command(const KernelCheckOptions& o, const fs::path& input, bool raw = false);

// "diffsched: error: MESSAGE" on stderr; returns kExitBadInput. The first
// message (and its kind: "build" for a file that cannot be checked as
// written, "timeout", else "error") goes into the --verdict-json file.
int error(const std::string& message);
int error(const std::string& kind, const std::string& message);

// What --verdict-json writes (run.cpp): set by the verdicts and error().
struct VerdictNote {
  std::string verdict;   // equivalent | finding | out-of-domain | error
  std::string kind;      // finding: its check (invariant, divergence, model, WARN_ON,
                         // sanitizer, hang, alloc, exit); error: build, timeout, init, error
  std::string signature, detail, reproducer, input;
  double seconds = 0;    // until the verdict
  // A finding: seconds from the start of the checks (after the build) to the
  // finding, its minimisation left out, and the stage (properties, fuzzing):
  // the time to bug scripts/ttb.sh reports.
  double found_seconds = -1;
  std::string found_in;
  std::uint64_t programs = 0, ops = 0, executions = 0;
  // The fuzzing stage that ran to its end: its seconds (the harness's clock)
  // and executions / fuzz_seconds (0 when it did not run or found something).
  double fuzz_seconds = 0, inputs_per_second = 0;
  // --race: the programs the lockless-reader analysis ran to their end, and
  // the fuzzing stage's inputs it ran on (each input's lockstep, then its
  // reader analysis; a finding's count is the harness's up to that input).
  std::uint64_t race_seed_programs = 0, race_random_programs = 0, race_fuzz_inputs = 0,
                race_fuzz_cut = 0;
};
VerdictNote& verdict_note();
double since(std::chrono::steady_clock::time_point t);

// One run of the harness: how its process ended, and its result record,
// the only thing a verdict rests on.
struct HarnessRun {
  int status = kcheck::kHarnessNotRun;  // exit status, 128+signal, or kHarnessTimedOut
  std::optional<tools::HarnessRecord> record;  // nullopt: its checks did not complete
  std::string why;                       // why there is no record
  fs::path stopped_input;  // no record: the input it was inside when it ended, or ""
  bool stopped_raw = false;
  bool timed_out() const { return status == kcheck::kHarnessTimedOut; }
  bool is(std::string_view outcome) const { return record && record->outcome == outcome; }
};

// The kcheck harness of one kernel-check run.
struct Harness {
  fs::path binary;
  fs::path work;  // the only directory its runs may write (the sandbox)
  KernelCheckOptions base;  // the harness's options common to every run
  std::vector<std::pair<std::string, std::string>> env;  // the sanitizers' options
  std::string identity;     // of the binary when its hash was checked (prepare.cpp)

  // Runs the harness in its sandbox (tools::sandboxed) with `run` (base plus
  // that run's mode, input, ...) and `fuzzer_args` (libFuzzer's); after
  // `limit` seconds (> 0) its process group is killed and the status is
  // kcheck::kHarnessTimedOut, so that no harness run (a hang in the
  // candidate, a slow minimisation) can keep the verdict from coming.
  HarnessRun run(const KernelCheckOptions& run, const std::vector<std::string>& fuzzer_args = {},
                 const fs::path& log = {}, double limit = 0,
                 const std::vector<std::pair<std::string, std::string>>& extra_env = {}) const;
  // base with the mode set, for the caller to add that run's options.
  KernelCheckOptions with_mode(const std::string& mode) const;
};

// A libFuzzer artifact (crash-, leak-, timeout-, oom-) in dir, or "".
fs::path find_crash(const fs::path& dir);

// The identity (device, inode, size, mtime) of a file, to see that the
// harness checked by its hash is the one about to run.
std::string file_identity(const fs::path& file);

// One kernel-check run: the user's options and what was set up for them.
struct Session {
  KernelCheckOptions o;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point checks_start = start;  // after the build
  fs::path work;
  fs::path artifacts;          // libFuzzer's -artifact_prefix: work/artifacts/, this run's only
  util::OwnedDir owned;        // a given --work-dir (prepare.cpp); records this run's files
  std::vector<fs::path> owned_before;  // its entries when the run began
  std::string level;   // resolved: exact | deadline
  std::string target;  // the fuzz target: cpudl, cpudl_exact, pick
  bool builtin_base = true;
  tools::CandidateSpec cand, base;
  fs::path cand_so, base_so;
  fs::path min_ops;  // where the minimised reproducer goes (-o, or in the work directory)
  fs::path reproducer;  // where the harness writes it (in the work directory)
  Harness h;
  std::string forms;  // the detected form of each file (cpudl), named in the verdict
  // The candidate's cpudl_find() convention as a --find-returns word ("0/1",
  // "cpu"), "" until detected: the verdict file's "find_returns" (data for mutate).
  std::string find_returns;
  std::vector<std::string> find_return_errors;  // files whose cpudl_find() form is unknown
  // How the kernel-file sides' incremental checks learnt an op's changes, as
  // it ran (prepare.cpp, check_arguments()): "hook" or "copy".
  std::string changes_used;

  void print_forms() const;
  // A given --work-dir records what the run added (util::OwnedDir::adopt_new).
  ~Session() {
    if (!o.work_dir.empty() && !owned.dir().empty()) owned.adopt_new(owned_before);
  }
};

// prepare.cpp: everything up to a loaded harness; kExitOk or the status to
// exit with (the reason printed).
int prepare(Session& s);
// Its first part: the files checked and classified, the work directory.
int prepare_files(Session& s);

// in_kernel.cpp: --in-kernel (kcheck/in_kernel.h) after prepare_files().
int run_in_kernel_check(Session& s);

// crash.cpp: minimises `input` (raw bytes if `raw`), on which a sanitizer
// stops the harness, into `out`; the op counts before and after, or nullopt
// if it could not (the caller then reports the input itself).
std::optional<std::pair<std::size_t, std::size_t>> minimize_crash(const Session& s,
                                                                  const fs::path& input, bool raw,
                                                                  const fs::path& out);

// run.cpp
int run_kernel_check(KernelCheckOptions o);

// The first line of a reproducer whose minimisation ran out of budget (the
// harness writes it too).
inline constexpr std::string_view kNotMinimal = "# not minimal:";

// Watchdogs: a harness run is killed this many seconds after its own bound
// (the fuzzer's --time, the minimisation's budget, the property run's size)
// ran out; with --minimize-seconds 0 (no time budget) the minimisation's
// watchdog allows kUnboundedMinimize.
inline constexpr double kWatchdogSlack = 30;
inline constexpr double kUnboundedMinimize = 3600;
// A replay (one program) is a hang after --hang-seconds plus this for the start.
inline constexpr double kReplayStartSlack = 10;

}  // namespace diffsched::kcheck
