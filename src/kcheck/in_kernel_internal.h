// kernel-check --in-kernel, its parts (the entry is kcheck/in_kernel.h):
//   in_kernel_programs.cpp  the program set: .ops files and random programs
//                           as driver lines; the driver's output parsed
//   in_kernel_module.cpp    the module staged and built with kbuild, the
//                           shim build and its twin; export --kmod
//   in_kernel_ktap.cpp      export --ktap-module's test module and the guest
//                           that loads such modules
//   in_kernel_boot.cpp      the kernel pieces found, the initramfs, one QEMU
//                           guest per nr_cpu_ids, the twin run
//   in_kernel_compare.cpp   the guest against the twin, op by op: findings
//   in_kernel_minimize.cpp  minimisation (twin rounds, guest rounds) and the
//                           reproducer's text
//   in_kernel.cpp           run_in_kernel: the steps and the report
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "subjects/cpudl/ops.h"
#include "engine/exit_status.h"
#include "io/program.h"
#include "subjects/pick/ops.h"
#include "kcheck/in_kernel.h"
#include "util/owned_dir.h"

namespace diffsched::tools::in_kernel_detail {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// "diffsched: error: MESSAGE" on stderr; returns kExitBadInput.
inline int fail(const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "diffsched: error: {}\n", message);
  return kExitBadInput;
}

bool write_text(const fs::path& file, const std::string& text);
inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
// Words of `s` split at `sep` (a trailing empty word dropped).
std::vector<std::string> split(const std::string& s, char sep);

// --- the programs (in_kernel_programs.cpp) ---------------------------------

struct HostProgram {
  std::string name;
  unsigned nr = 0;
  std::string capacity;            // cpudl: "1024,512" (Config::capacity), or ""
  std::vector<std::string> ops;    // .ops text of each op
  std::vector<std::string> lines;  // the driver's line of each op
};

// From any program of the subject; false (with a reason) for another subject.
bool to_host(const io::AnyProgram& any, const SubjectTool& subject, std::string name,
             HostProgram* out, std::string* error);
bool load_ops_file(const fs::path& file, const SubjectTool& subject, HostProgram* out,
                   std::string* error);
// The .ops files of `dir`, sorted (none if it is not a directory).
std::vector<fs::path> ops_files(const fs::path& dir);
// A random program of the total decoder for `subject` at nr_cpu_ids `nr`.
HostProgram random_program(const SubjectTool& subject, std::mt19937_64& rng, unsigned nr,
                           unsigned max_ops, std::string name);
// The driver's input for programs `ids` (kshim/kmod/kc_driver.h).
std::string programs_text(const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                          bool verbose);

// One program's output lines.
struct Trace {
  bool started = false;
  std::string error;                      // an X line
  std::vector<std::string> states;        // op k's state at [k-1]
  std::map<int, std::string> violations;  // op -> "invariant field what a b"
  std::map<int, std::string> warnings;    // op -> where
};

// The driver's result record (its D line, after the host's "Q TOKEN").
struct Record {
  unsigned long programs = 0, ops = 0;  // programs started, ops run
  std::string token;
};

struct RunResult {
  std::map<int, Trace> traces;
  bool done = false;      // the driver printed this run's result record, and it holds
  std::vector<Record> records;  // every D line (one the candidate printed has no token)
  std::size_t state_lines = 0;  // S lines parsed
  std::string crash;      // a BUG/oops/panic line of the guest
  int crash_id = -1, crash_op = 0;
  unsigned guest_nr = 0;  // the guest's nr_cpu_ids (H line)
  std::string failure;    // the run did not complete: why
  double seconds = 0;
};

// The lines of the twin's output or of the guest's console.
RunResult parse_output(const std::string& text, bool guest);

// A new token for one run's "Q TOKEN" line: random, so that no line a
// candidate prints can be taken for the driver's result record.
std::string new_record_token();
// The driver's input `text` with the request for its result record.
std::string with_record_request(const std::string& text, const std::string& token);
// Sets r->done if the run's result record (the D line with `token`) is there
// and counts what the parsed trace holds (programs started, ops); otherwise
// returns why not (one line; empty when done).
std::string check_record(RunResult* r, const std::string& token);

// --- the builds and the runs (in_kernel_module.cpp, in_kernel_boot.cpp) ----

struct Env {
  KernelPieces pieces;
  fs::path twin;     // the twin binary
  fs::path shim_so;  // the candidate against the shim
  fs::path module;   // kcheck.ko
  fs::path work;
  const SubjectTool* subject = &kCpudlTool;
  unsigned boots = 0;
  double boot_seconds = 0;
  double shim_seconds = 0, module_seconds = 0;  // build times
  bool module_cached = false;                    // the module from kcheck/build_cache.h
};

// Builds the candidate against the shim (with `shim_flags`), the twin and
// the module into env->work; kExitOk or the error printed.
int build_all(const CandidateSpec& spec, const std::vector<std::string>& shim_flags, Env* env);
// Copies the module's sources and the candidate into `dir` and writes its Kbuild.
// The files of a staged module (util::OwnedDir entries), and with
// `exported` those export --kmod adds.
std::vector<util::OwnedEntry> module_files(bool exported);
// The module's name and its front end: kc_module.c (/proc/kcheck) or
// kc_ktap.c (export --ktap-module's test module).
struct ModuleShape {
  std::string name = "kcheck";
  std::string main = "kc_module";
};
// Stages the module's sources in `dir`, each recorded in its manifest; an
// input already in place (the candidate as dir/candidate.c) is not copied.
bool stage_module(const CandidateSpec& spec, util::OwnedDir& dir, std::string* error,
                  const ModuleShape& shape = {});
// Builds the staged module `mod` with kbuild against `headers`, in the
// sandbox; true when it wrote NAME.ko, else why not (the log names it).
bool kbuild(const fs::path& headers, const fs::path& mod, const std::string& name,
            const fs::path& log, std::string* error);

// A guest's initramfs: busybox, `init`, files copied into its root and
// files written there; the console's loglevel.
struct GuestImage {
  fs::path init;
  std::vector<std::pair<fs::path, std::string>> files;     // source, name in the root
  std::vector<std::pair<std::string, std::string>> texts;  // name in the root, content
  std::string loglevel = "5";
};
constexpr int kGuestNotStaged = -4;  // not tools::kExitTimedOut (-2) nor kExitStopped (-3)
// Boots one QEMU guest (TCG) at nr_cpu_ids `nr` from `image`, its console
// in KcheckWork{work}.guest_log(tag); QEMU's status (tools::kExitTimedOut
// after `limit` seconds), or kGuestNotStaged with *error.
int boot_guest(const KernelPieces& pieces, const fs::path& work, const std::string& tag, unsigned nr,
               const GuestImage& image, double limit, std::string* error);
unsigned guest_memory_mb(unsigned nr);

RunResult run_twin(Env& env, const std::string& text, const std::string& tag);
// One guest at nr_cpu_ids `nr` runs `text` (`ops` ops, for its time limit).
RunResult run_guest(Env& env, unsigned nr, const std::string& text, std::size_t ops,
                    const std::string& tag);

// --- comparison (in_kernel_compare.cpp) -------------------------------------

struct Finding {
  int id = -1;
  int op = 0;  // 1-based
  std::string signature;
  std::string kind;  // "kernel-vs-shim", "in the guest"
  std::vector<std::string> details;
};

// The op's name ("set"), "end" past the program.
std::string op_name(const HostProgram& p, int op);
// "model-mismatch" for the model's check, else "invariant".
std::string kind_of_invariant(const std::string& inv);
// The first finding of program `id` (nullopt: the kernel and the shim agree
// and no check failed); *not_run says why the program did not run.
std::optional<Finding> judge(const SubjectTool& subject, const HostProgram& p, int id,
                             const RunResult& guest, const RunResult& shim, std::string* not_run);

struct Outcome {
  std::optional<Finding> finding;
  std::size_t programs = 0, ops = 0;
  std::vector<std::string> not_run;  // "program: why"
};

// Runs `ids` of `programs` in the twin and in one guest per nr_cpu_ids.
Outcome run_all(Env& env, const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                bool verbose, const std::string& tag, bool print_boots);

// --- minimisation (in_kernel_minimize.cpp) ----------------------------------

struct Minimized {
  HostProgram program;
  std::optional<Finding> finding;  // of the reproducer as last run (verbose states)
  unsigned rounds = 0;
  std::size_t variants = 0;
  bool minimal = false;
  // False when the first guest round ran the program and its parts again and
  // the finding came back in none (a crash that depends on the boot):
  // nothing was dropped, and the report says so.
  bool reproduced = true;
};

Minimized minimize(Env& env, const HostProgram& start, const Finding& finding, unsigned max_rounds);
std::string reproducer_text(const SubjectTool& subject, const HostProgram& p, const Finding& f,
                            bool minimal, const CandidateSpec& spec);

}  // namespace diffsched::tools::in_kernel_detail
