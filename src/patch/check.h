// `diffsched check-patch`: a patch (or a series) against a tree, each file
// it touches routed to the check that fits it, one report (issue 25).
//
//   patch::CheckPatchOptions o{.patch = "fix.mbox", .tree = "~/linux"};
//   patch::Report r = patch::check_patch(o);
//   std::cout << patch::format_report(r, patch::Format::kKtap);
//   return r.status;
//
// Routing (kRoutes in check.cpp, one table):
//   kernel/sched/cpudeadline.c  -> `diffsched kernel-check cpudl`, the base
//       file as --baseline, the patched file as --candidate: every function
//       of the file is checked by that run;
//   kernel/sched/fair.c         -> `diffsched kernel-check pick --function F`
//       for a changed function F of the destination pick's signature
//       int F(const struct cpumask *, const struct cpumask *, const struct cpumask *);
//   any other changed function  -> `diffsched fn` (FnCheck below; the CLI
//       passes fn_child), or "not checked" with the reason when fn cannot.
// kernel-check runs as a child diffsched (tools::Command, a deadline), and
// its verdict is read from its --verdict-json file, never from its output.
//
// A series is checked patch by patch (each on the state the ones before it
// left) and as a whole (base against the last state).
//
// Status (engine/exit_status.h), the worst over every check of every unit:
// 0 every touched function was checked and found equivalent; 1 a finding;
// 2 the patch or the tree is bad, or a check could not build or run; 3 no
// verdict for something the patch touches (a function no check takes, an
// out-of-domain stop), and nothing worse. A patch nothing can check is 3,
// never 0.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace diffsched::patch {

namespace fs = std::filesystem;

struct CheckPatchOptions {
  std::string patch;            // a file, or "-" for standard input
  fs::path tree;                // the user's tree, never written
  std::string base;             // --base REV
  bool in_kernel = false;       // each kernel-check check also runs --in-kernel (a stage)
  bool exhaustive = false;      // each check also runs its bounded exhaustive form (a stage)
  double time = 10;             // kernel-check --time (fuzzing seconds)
  unsigned runs = 2000;         // kernel-check --runs
  std::vector<unsigned> nr_cpus;  // kernel-check --nr-cpus (empty: its default)
  std::string harness;          // kernel-check --harness ("" : its own)
  bool no_build = false;        // kernel-check --no-build
  fs::path work_dir;            // "": a new temporary directory
  fs::path self;                // the diffsched binary that runs kernel-check
  std::string self_command;     // how the user ran it, for printed commands
  std::string version;          // the version line of the report
  // `diffsched fn --patch`/`--git`: every changed function goes to fn (no
  // kernel-check route), with these extra fn arguments (--seed, --level).
  bool fn_only = false;
  std::vector<std::string> fn_args;
  std::uint64_t fn_fuzz_seconds = 0;  // fn --fuzz S among fn_args: S more seconds of deadline
};

// A run beside a check of the same file and function: the bounded
// exhaustive form (check-patch --exhaustive), the patched file in a booted
// kernel against the same file in the shim (--in-kernel).
enum class Stage { kCheck, kExhaustive, kInKernel };
// "", "exhaustive", "in-kernel": the report's and the JSON's word.
std::string_view stage_name(Stage s);

// One check run (a kernel-check, or a diffsched fn): what ran and its
// verdict, from its --verdict-json.
struct CheckRun {
  std::string tool = "kernel-check";  // or "fn"
  std::string subject;    // the kernel-check subject: cpudl, pick; "fn" for fn
  std::string file;       // the path in the tree
  std::vector<std::string> functions;  // the touched functions it covers
  std::string function;   // pick: --function
  int status = 2;         // kernel-check's exit status as its record says
  std::string verdict;    // equivalent | finding | out-of-domain | error
  std::string kind, signature, detail, reproducer, forms;
  std::string found_in;   // a finding's stage: properties, fuzzing, in-kernel, ...
  std::string trace;      // the minimised reproducer (.ops text), "" if none
  std::string replay;     // the command that replays the finding
  std::string command;    // the kernel-check command that ran
  std::string log;        // its output
  double seconds = 0, time = 0;
  unsigned runs = 0;
  std::vector<unsigned> nr_cpus;
  std::string level;      // the comparison level (kernel-check's default for the subject)
  Stage stage = Stage::kCheck;
  std::string skip;       // a stage asked for that could not run: why (status 3)
  std::vector<CheckRun> stages;  // the check's stages, in the order they ran
  std::uint64_t programs = 0, ops = 0, executions = 0;
  std::uint64_t inputs = 0, compared = 0;  // fn: generated inputs, and those compared
  std::uint64_t fuzzed = 0;                // fn --fuzz: the inputs libFuzzer ran (0: none, or not counted)
  std::string era;                         // fn: the shim's era the sides were built at ("": the default)
};

struct Unchecked {
  std::string file, function, reason;  // function "" : the file as a whole
};

// One patch of the series, or the series as a whole.
struct Unit {
  std::string name;      // "patch-1", "series"
  std::string subject;   // the patch's subject ("" for a plain diff)
  std::string author;
  std::vector<std::string> files;  // the paths it touches
  std::vector<CheckRun> checks;
  std::vector<Unchecked> unchecked;
  int status = 3;
};

struct Report {
  std::string patch, form, tree, base, version;
  std::vector<std::string> notes;
  std::vector<Unit> units;
  std::string error;  // the one-line error when nothing could be checked (status 2)
  int status = 2;
  std::string work;   // where the states and the checks' files are ("" if removed)
};

// The seam for `diffsched fn` (issue 24): a changed function no kernel-check
// route takes, its base and patched file (`file` its path in the tree) and a
// new directory for the check's files. True: a check ran (`out`, its verdict
// or its error); false: it cannot be checked, `why` says why (listed as not
// checked). Without one, every such function is listed as not checked.
struct FnCall {
  fs::path base, patched;
  std::string file, function;
  fs::path work;
  bool exhaustive = false;  // fn --exhaustive (its default bounds) instead of random inputs
};
using FnCheck = std::function<bool(const FnCall& call, CheckRun* out, std::string* why)>;
// `diffsched fn --old BASE --new PATCHED --function F` as a child (o.self,
// tools::Command with a deadline), its verdict read from its --verdict-json
// file. fn's exit 2 without a verdict (a type it cannot generate, a unit that
// does not build) is "cannot be checked" with fn's last line as the reason
// (shown, not judged); a verdict file whose status disagrees with the exit
// is an error of that check.
FnCheck fn_child(const CheckPatchOptions& o);

Report check_patch(const CheckPatchOptions& o, const FnCheck& fn = nullptr);

// A check's status with its stages': the worst of them (a stage that could
// not run counts as "not everything checked").
int check_status(const CheckRun& c);

enum class Format { kText, kKtap, kMail, kJson };
std::string format_report(const Report& r, Format f);
// `--list`: what a patch touches, read from the patch alone (no tree, no
// check): per patch its subject, author, base-commit, and per file the
// functions its hunks change (patch::hunk_functions).
struct Series;
std::string format_listing(const Series& s, const std::string& name);

// `diffsched fn --patch`/`--git` (fn_patch.cpp): every function the patch
// changes, `checked: VERDICT` or `not checkable: REASON`, and its exit
// status: 2 for a bad patch or tree, a hunk that does not apply, a check
// that could not run, or nothing checkable at all (never 0 for "nothing
// ran"); else the worst of 1 (a finding), 3 (something not checkable), 0
// (every changed function checked and equivalent or intended).
std::string format_fn_patch(const Report& r);
int fn_patch_status(const Report& r);

// The b4 check-hook answer: one JSON array of {tool, status, summary, details}.
std::string format_b4(const Report& r);

}  // namespace diffsched::patch
