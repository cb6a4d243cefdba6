// The options of `diffsched kernel-check` and of the kcheck harness it runs,
// defined once: KernelCheckOptions holds them and for_each_option() lists
// each with its spec (name, help, who reads it, its checks). From that one
// list come
//   - the CLI11 options of kernel-check cpudl|pick (src/cli/kernel_check_options.cpp),
//   - the harness's arguments, --NAME=VALUE (harness_args), and their
//     checked parsing in the harness (parse_harness_args: an unknown name or
//     a malformed value is an error, never a default),
//   - the printed replay command (replay_args),
//   - kernel-check's command line when another mode runs it (cli_args: mutate).
//
// To add an option: add the field to KernelCheckOptions and one line to
// for_each_option() (name, help, uses, and shape/choices/range/check as
// needed). Its type must be one of std::string, bool, unsigned, std::size_t,
// double or std::vector<unsigned> (text forms in kcheck_options.cpp). Then
// use the field where it matters: nothing else is written twice. A field
// with kHarness reaches the harness; one with kReplay is repeated in the
// replay command when it differs from its default.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "subject_tools.h"
#include "engine/minimize.h"

namespace diffsched::tools {

// Who reads an option (a bit set).
enum OptionUse : unsigned {
  kCli = 1,           // a `diffsched kernel-check` option
  kHarness = 2,       // passed to the harness as --NAME=VALUE
  kReplay = 4,        // repeated in the replay command (when not its default)
  kReplayRawOnly = 8  // ... only when the replayed input is raw bytes
};

// What a value is, for the checks beyond its type.
enum class OptionRole { kValue, kInputPath, kOutputPath };

struct OptionSpec {
  std::string_view name;  // "task-util": --task-util
  std::string_view help;
  unsigned uses = kCli;
  // The subjects that have it, by their candidate shape (subject_tools.h); all if none.
  std::optional<CandidateShape> shape = std::nullopt;
  std::string_view short_name = {};             // "o": -o
  std::vector<std::string_view> choices = {};   // the only values allowed, if any
  double min = -std::numeric_limits<double>::infinity();  // numbers (each item of a list)
  double max = std::numeric_limits<double>::infinity();
  // A check of the value's text beyond the above: "" if fine, else why not.
  std::string (*check)(std::string_view text) = nullptr;
  OptionRole role = OptionRole::kValue;
  bool required = false;
  std::string_view needs = {};     // another option it makes sense only with
  std::string_view excludes = {};  // options it excludes, space-separated
};

inline bool applies_to(const OptionSpec& spec, const SubjectTool& tool) {
  return !spec.shape || *spec.shape == tool.shape;
}

// "" or why `text` is not a list of capacities ("1024,512": each 1..1024).
std::string check_capacities(std::string_view text);
// MAJOR.MINOR of a version ("6.14") or of a kernel release ("6.1.0-57-amd64").
std::optional<std::pair<unsigned, unsigned>> kernel_version_of(std::string_view text);
// "" or why `text` is not a --kernel-version (MAJOR.MINOR, 3.0 to 6.19).
std::string check_kernel_version(std::string_view text);
// The same with another newest major version (fn's eras reach 7.x): the
// error names `example` and `range`.
std::string check_kernel_version_up_to(std::string_view text, unsigned max_major,
                                       std::string_view example, std::string_view range);
// The compile flag that makes the shim follow that kernel's contracts
// (kshim/include/kshim/kshim.h), "" for a text that is not a version.
std::string kernel_version_flag(std::string_view version);
// The same without the -D (NAME=VALUE), for a list of defines (fn's sides).
std::string kernel_version_define(std::string_view version);

struct KernelCheckOptions {
  // The subject, resolved at the edge: the subcommand (cli/cmd_kernel_check.cpp)
  // or the harness's --subject (parse_option() below). Every step reads this
  // descriptor; its name appears only in the text form of the option.
  const SubjectTool* tool = &kCpudlTool;
  std::string candidate;          // CLI: the C file; harness: its shared object
  std::string baseline = "builtin-reference";  // or a C file (harness: its .so)
  std::string api = "auto";
  std::string find_returns = "auto";  // auto | 0/1 | cpu
  std::string function = "select_dst_cpu";
  std::string header;
  std::string level;  // "" : deadline for cpudl, exact for pick
  std::string replay;
  std::string output;
  std::string work_dir;
  std::string verdict_json;  // CLI: also write the verdict as JSON there
  std::string harness;
  std::string capacity;
  std::string kernel_version;  // "": the shim's default contracts (v6.19)
  unsigned task_util = 0;  // 0: each find's own task (the harness draws it per find)
  std::vector<unsigned> nr_cpus;
  std::vector<unsigned> exhaustive;  // cpudl: N D K; pick: N (the bounded exhaustive check)
  double time = 10;
  unsigned hang_seconds = 10;    // one program (input) longer than this is a hang
  double build_seconds = 120;    // the deadline of each compile of a candidate
  double minimize_seconds = 10;  // the budget of each minimisation
  std::size_t minimize_tries = MinimizeBudget::kDefaultTries;
  unsigned runs = 2000;
  unsigned seed = 1;
  bool no_build = false;
  bool no_properties = false;
  bool raw = false;
  bool fail_alloc = false;
  bool race = false;  // the lockless-reader analysis (subjects/cpudl/race.h), trace-stores
  // --race: random programs analysed after the seeds (default none: against
  // the built-in baseline every pre-v6.19 file reaches stale at clear_online,
  // its era's two-call offline; docs/findings.md).
  unsigned race_programs = 0;
  // How the incremental checks learn what an op changed in a kernel file's
  // heap: copy (diff its elements against a copy after every op) or hook
  // (trace-stores: the harness logs the op's stores, kcheck_harness.cpp).
  std::string changes = "copy";
  // --in-kernel (kcheck/in_kernel.h): the candidate in a booted kernel vs the shim.
  bool in_kernel = false;
  std::string kernel;
  unsigned minimize_boots = 4;
  bool runs_given = false;  // not an option: --runs was given (--in-kernel's default is 200)
  // The harness's own (kernel-check sets them per run).
  std::string mode = "fuzz";
  std::string input;
  std::string seeds;
  unsigned fail_alloc_at = 0;
  bool decode_only = false;
  bool quiet = false;
};

// Calls f(spec, field) for every option of `o`, in the order of --help.
// It is the table of options, one entry each, so it is longer than the
// project's ~120-line limit for functions by design: splitting it would
// split the one definition.
template <class Options, class F>
void for_each_option(Options& o, F&& f) {
  constexpr unsigned kAll = kCli | kHarness | kReplay;
  using S = CandidateShape;
  f(OptionSpec{.name = "candidate", .help = "the kernel C file to check", .uses = kAll,
               .role = OptionRole::kInputPath, .required = true},
    o.candidate);
  f(OptionSpec{.name = "baseline",
               .help = "what to compare with: builtin-reference (default), builtin-optimized"
                       "[, builtin-fused for pick], or another kernel C file (e.g. the "
                       "unpatched one)",
               .uses = kAll, .role = OptionRole::kInputPath},
    o.baseline);
  f(OptionSpec{.name = "time", .help = "seconds of fuzzing (default 10; 0 skips it)", .min = 0},
    o.time);
  f(OptionSpec{.name = "runs", .help = "random programs in the property run (default 2000)",
               .uses = kCli | kHarness},
    o.runs);
  f(OptionSpec{.name = "seed", .help = "seed of the property run and the fuzzer (default 1)",
               .uses = kCli | kHarness},
    o.seed);
  f(OptionSpec{.name = "level",
               .help = "exact or deadline (default: deadline for cpudl, exact for pick)",
               .uses = kAll, .choices = {"exact", "deadline"}},
    o.level);
  f(OptionSpec{.name = "replay",
               .help = "only replay this .ops file against the candidate (trace)",
               .role = OptionRole::kInputPath,
               .excludes = "time runs seed no-properties output"},
    o.replay);
  f(OptionSpec{.name = "raw", .help = "with --replay: the file is a raw fuzzer input (crash-...)",
               .uses = kCli | kHarness, .needs = "replay"},
    o.raw);
  f(OptionSpec{.name = "output", .help = "where to write the minimised reproducer (.ops)",
               .uses = kCli | kHarness, .short_name = "o", .role = OptionRole::kOutputPath},
    o.output);
  f(OptionSpec{.name = "work-dir",
               .help = "staging and build directory (default: a new one under build-fuzz/kcheck)"},
    o.work_dir);
  f(OptionSpec{.name = "verdict-json",
               .help = "also write the verdict as JSON to this file (verdict, kind, signature, "
                       "counts; what diffsched mutate reads)",
               .role = OptionRole::kOutputPath},
    o.verdict_json);
  f(OptionSpec{.name = "harness", .help = "use this kcheck_harness binary instead of build-fuzz's",
               .uses = kCli | kReplay},
    o.harness);
  f(OptionSpec{.name = "nr-cpus",
               .help = "run every program at one of these nr_cpu_ids (default: each input picks "
                       "one, 1..8192; e.g. 4 64)",
               .uses = kCli | kHarness | kReplayRawOnly, .min = 1, .max = 8192},
    o.nr_cpus);
  f(OptionSpec{.name = "exhaustive",
               .help = "the property run checks every program instead of the checked-in seeds "
                       "and random ones: cpudl N D K (every program of exactly K ops of set, "
                       "clear, set_freecpu, clear_freecpu and find over N CPUs and the first D "
                       "deadlines of 0, 1, 2^64-1, 2, 2^63; 1 <= N, D, K <= 8); pick N (every "
                       "triple of masks over N CPUs, one pick each)",
               .uses = kCli | kHarness, .min = 1, .max = 8,
               .excludes = "replay no-properties in-kernel"},
    o.exhaustive);
  f(OptionSpec{.name = "no-properties",
               .help = "skip the property run (seeds and random programs): fuzzing only"},
    o.no_properties);
  f(OptionSpec{.name = "no-build", .help = "do not (re)build the harness; use the one in build-fuzz",
               .uses = kCli | kReplay},
    o.no_build);
  f(OptionSpec{.name = "hang-seconds",
               .help = "one program (input) that runs longer than this is a hang: a finding "
                       "(the property run's alarm, libFuzzer's -timeout, the replay's watchdog)",
               .uses = kAll, .min = 1, .max = 3600},
    o.hang_seconds);
  f(OptionSpec{.name = "build-seconds",
               .help = "deadline of each compile of a candidate (default 120; the compile is "
                       "killed after it: an #include of a FIFO or a device)",
               .min = 1, .max = 3600},
    o.build_seconds);
  f(OptionSpec{.name = "minimize-seconds",
               .help = "wall-clock budget of the minimisation of a finding (0: none); when it "
                       "runs out, the smallest reproducer so far is reported, marked NOT MINIMAL",
               .uses = kCli | kHarness, .min = 0},
    o.minimize_seconds);
  f(OptionSpec{.name = "minimize-tries",
               .help = "budget of tries (lockstep runs) of that minimisation (0: none)",
               .uses = kCli | kHarness, .min = 0},
    o.minimize_tries);
  f(OptionSpec{.name = "api", .help = "auto (default), v3.14, v4.8, v4.9 or v6.19",
               .uses = kCli | kReplay, .shape = S::kHeapApi,
               .choices = {"auto", "v3.14", "v4.8", "v4.9", "v6.19"}},
    o.api);
  f(OptionSpec{.name = "find-returns",
               .help = "what cpudl_find() returns: auto (default: from its return statements), "
                       "0/1, or cpu (a CPU or -1)",
               .uses = kCli | kReplay, .shape = S::kHeapApi, .choices = {"auto", "0/1", "cpu"}},
    o.find_returns);
  f(OptionSpec{.name = "header",
               .help = "the cpudeadline.h to compile with (default: the one next to the file, "
                       "else the shim's for the API form)",
               .uses = kCli | kReplay, .shape = S::kHeapApi, .role = OptionRole::kInputPath},
    o.header);
  f(OptionSpec{.name = "capacity",
               .help = "turn asymmetric CPU capacity on, with these capacities per CPU "
                       "(e.g. 1024,512; repeated); needs a baseline FILE",
               .uses = kAll, .shape = S::kHeapApi, .check = check_capacities},
    o.capacity);
  f(OptionSpec{.name = "fail-alloc",
               .help = "also make each allocation of cpudl_init() fail in turn: it must return "
                       "-ENOMEM without a warning, a sanitizer error or a leak",
               .shape = S::kHeapApi, .excludes = "replay"},
    o.fail_alloc);
  f(OptionSpec{.name = "race",
               .help = "also compile candidate and baseline with -fsanitize-coverage=trace-stores "
                       "and run the lockless-reader analysis (diffsched race) on both: a reader "
                       "class only the candidate reaches is a finding cpudl:reader:CLASS:OP",
               .uses = kCli | kHarness, .shape = S::kHeapApi,
               .excludes = "replay in-kernel capacity exhaustive"},
    o.race);
  f(OptionSpec{.name = "race-programs",
               .help = "with --race: after the seed programs, analyse this many random programs "
                       "(the property run's first N, from --seed; default 0: seeds only; a pre-v6.19 file "
                       "against the built-in baseline reaches stale at clear_online, its era's "
                       "two-call offline: give it a same-era --baseline)",
               .uses = kCli | kHarness, .shape = S::kHeapApi, .min = 0, .max = 1000000,
               .needs = "race"},
    o.race_programs);
  f(OptionSpec{.name = "changes",
               .help = "how the incremental checks learn what an op changed in a kernel file's "
                       "heap: copy (default: diff its element array against a copy after every "
                       "op) or hook (compile with -fsanitize-coverage=trace-stores and read the "
                       "op's stores from the harness's log; a v3.14 file keeps copy); the full "
                       "check still closes every run",
               .uses = kAll, .shape = S::kHeapApi, .choices = {"copy", "hook"},
               .excludes = "in-kernel"},
    o.changes);
  f(OptionSpec{.name = "task-util",
               .help = "the task's runtime/deadline in 1024ths, for the capacity check "
                       "(default 0: each find's own task, from 1 to 1024, on one CPU of its "
                       "affinity)",
               .uses = kAll, .shape = S::kHeapApi, .min = 0, .max = 1024, .needs = "capacity"},
    o.task_util);
  f(OptionSpec{.name = "kernel-version",
               .help = "the kernel whose contract the shim follows where kernels differ "
                       "(cpumask_next_wrap() of 4 arguments up to 6.14, bitmap_fill(); "
                       "docs/kernel-check.md): MAJOR.MINOR, 3.0 to 6.19 (default 6.19; with "
                       "--in-kernel, the booted kernel's)",
               .uses = kCli | kReplay, .check = check_kernel_version, .excludes = "in-kernel"},
    o.kernel_version);
  f(OptionSpec{.name = "function", .help = "the function's name (default select_dst_cpu)",
               .uses = kCli | kReplay, .shape = S::kFunction},
    o.function);
  f(OptionSpec{.name = "in-kernel",
               .help = "run the candidate in a booted Linux kernel (QEMU) and compare it op by op "
                       "with the shim (docs/kernel-check.md; --runs defaults to 200)",
               .excludes = "time no-properties harness no-build"},
    o.in_kernel);
  f(OptionSpec{.name = "kernel",
               .help = "with --in-kernel: the vmlinuz to boot (default: the cache of "
                       "scripts/fetch-kernel.sh)",
               .role = OptionRole::kInputPath, .needs = "in-kernel"},
    o.kernel);
  f(OptionSpec{.name = "minimize-boots",
               .help = "with --in-kernel: rounds (guest boots) of the minimisation (default 4)",
               .min = 0, .max = 100, .needs = "in-kernel"},
    o.minimize_boots);
  // The harness's own.
  f(OptionSpec{.name = "subject", .help = "the subject (subject_tools.h)", .uses = kHarness,
               .choices = subject_tool_words()},
    o.tool);
  f(OptionSpec{.name = "mode", .help = "what the harness does", .uses = kHarness,
               .choices = {"fuzz", "load", "replay", "minimize", "check", "alloc", "race"}},
    o.mode);
  f(OptionSpec{.name = "input", .help = "the input to replay or minimise", .uses = kHarness},
    o.input);
  f(OptionSpec{.name = "seeds", .help = "the property run's seed directory", .uses = kHarness},
    o.seeds);
  f(OptionSpec{.name = "fail-alloc-at", .help = "allocation n of cpudl_init() fails",
               .uses = kHarness, .min = 1, .max = 1000},
    o.fail_alloc_at);
  f(OptionSpec{.name = "decode-only", .help = "replay: write the input as .ops to --output",
               .uses = kHarness},
    o.decode_only);
  f(OptionSpec{.name = "quiet", .help = "replay without the trace", .uses = kHarness}, o.quiet);
}

// The text form of a value (lists comma-separated; flags "1"/"0").
std::string option_text(const std::string& v);
std::string option_text(bool v);
std::string option_text(unsigned v);
std::string option_text(std::size_t v);
std::string option_text(double v);
std::string option_text(const std::vector<unsigned>& v);
std::string option_text(const SubjectTool* v);  // its name

// Parses `text` into `field` and checks it against `spec`; "" if fine, else
// a one-line reason ("--hang-seconds 'x': not a number").
std::string parse_option(const OptionSpec& spec, std::string_view text, std::string& field);
std::string parse_option(const OptionSpec& spec, std::string_view text, bool& field);
std::string parse_option(const OptionSpec& spec, std::string_view text, unsigned& field);
std::string parse_option(const OptionSpec& spec, std::string_view text, std::size_t& field);
std::string parse_option(const OptionSpec& spec, std::string_view text, double& field);
std::string parse_option(const OptionSpec& spec, std::string_view text,
                         std::vector<unsigned>& field);
// A subject's name, resolved to its descriptor (the one place it is).
std::string parse_option(const OptionSpec& spec, std::string_view text, const SubjectTool*& field);

// The harness's arguments for `o`: --NAME=VALUE for every kHarness option
// that differs from its default (flags as --NAME).
std::vector<std::string> harness_args(const KernelCheckOptions& o);

// Parses the harness's arguments into *o (starting from its values).
// Arguments starting with a single '-' are libFuzzer's and others its
// corpus directories: they are returned in *rest. An unknown --NAME, a
// missing or malformed value, or one out of range: false with *error.
bool parse_harness_args(const std::vector<std::string>& args, KernelCheckOptions* o,
                        std::vector<std::string>* rest, std::string* error);

// The words after the program's name that replay `input` against the
// candidate with the options of `o`: "kernel-check SUBJECT --candidate F ...
// [--raw] --replay INPUT".
std::vector<std::string> replay_args(const KernelCheckOptions& o, const std::string& input,
                                     bool raw);

// The words after the program's name of a `diffsched kernel-check` that runs
// with the options of `o`: "kernel-check SUBJECT --candidate F ...", every
// CLI option that applies to the subject and differs from its default. How
// another mode (mutate) runs kernel-check: from the table, never by hand.
std::vector<std::string> cli_args(const KernelCheckOptions& o);

}  // namespace diffsched::tools
