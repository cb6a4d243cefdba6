// The diffsched subcommands: each registers itself on the CLI11 app and
// returns the process exit status when run (engine/exit_status.h: 0 ok,
// 1 finding, 2 bad input or could not run, 3 out of domain, 130/143
// interrupted).
#pragma once

#include <functional>
#include <utility>
#include <initializer_list>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/exit_status.h"
#include "io/load.h"
#include "io/program.h"
#include "kcheck/options.h"
#include "targets.h"

namespace diffsched::cli {

using diffsched::kExitBadInput;
using diffsched::kExitFinding;
using diffsched::kExitOk;
using diffsched::kExitOutOfDomain;

using Runner = std::function<int()>;

// Shared by the subcommands that read inputs. Each prints its one-line
// "diffsched: error: ..." itself on failure.
//   resolve_target: --target NAME (empty: none) -> false if unknown;
//   open_input: any input form, streamed (io::Input) -> nullptr if unreadable;
//   load_input: the same, held whole (io::load_program) -> nullopt;
//   check_level: --level L must mean something for the input's subject;
//   add_max_input_bytes: the --max-input-bytes option (io::LoadOptions).
bool resolve_target(const std::string& name, const FuzzTarget** out);
std::unique_ptr<io::Input> open_input(const std::string& path, const io::LoadOptions& options);
std::optional<io::AnyProgram> load_input(const std::string& path, const io::LoadOptions& options);
bool check_level(const std::string& name, std::string_view subject, Level level);
void add_max_input_bytes(CLI::App* sub, std::size_t* max_bytes);
// How the user ran us, for printed reproduce commands: this binary's path
// relative to the cwd ("./build/diffsched"), or absolute when outside it,
// already quoted as a command word (util::self_command).
std::string self_command();
// Prints the one line "diffsched: error: MESSAGE" to stderr; returns
// kExitBadInput, for `return bad_input(...)`.
int bad_input(const std::string& message);

// Option checks shared by the subcommands (outputs.cpp). Errors thrown from
// these are CLI::ParseErrors, so main() prints them as one line, exit 2.
//   output_file: a validator for an output file name: not empty, not a
//     directory; "-" only if stdout_ok (standard output).
//   check_outputs: throws CLI::ValidationError if an output is the same file
//     as an input (same inode: via symlinks and hard links too) or as another
//     output. "-" and empty names are skipped.
//   level_names, target_choice: CLI::IsMember over the fixed lists.
CLI::Validator output_file(bool stdout_ok = false);
void check_outputs(const std::vector<std::string>& outputs,
                   const std::vector<std::string>& inputs);
CLI::Validator level_names();   // exact, deadline
// A number > 0 (positive) or >= 0 (non_negative), with a one-line message
// ("must be greater than 0, got '0'") instead of CLI11's range of doubles.
CLI::Validator positive();
CLI::Validator non_negative();
CLI::Validator target_choice();  // cpudl, cpudl_exact, pick, cpumask

// kernel-check's options on its subject's subcommand `sub` (CLI11), every
// kCli option of the one table (kcheck/options.h) with the checks of its
// spec; o.subject and o.tool must be set (kernel_check_options.cpp).
void add_kernel_check_options(CLI::App* sub, tools::KernelCheckOptions& o);
// The version line of --version: "diffsched 0.1.0 (git v0.1.0-12-gabcdef)".
std::string version_string();

Runner add_replay(CLI::App& app);
Runner add_ops(CLI::App& app);
Runner add_targets(CLI::App& app);
Runner add_encode(CLI::App& app);
Runner add_decode(CLI::App& app);
Runner add_minimize(CLI::App& app);
Runner add_verify(CLI::App& app);
Runner add_bench(CLI::App& app);
Runner add_campaign(CLI::App& app);
Runner add_coverage(CLI::App& app);  // cmd_coverage.cpp
Runner add_kernel_check(CLI::App& app);  // cmd_kernel_check.cpp
Runner add_export(CLI::App& app);        // cmd_export.cpp (export --kmod)
Runner add_perf(CLI::App& app);  // cmd_perf.cpp
Runner add_mutate(CLI::App& app);  // cmd_mutate.cpp
Runner add_fn(CLI::App& app);      // cmd_fn.cpp (diffsched fn, src/fn/)
// `diffsched perf fn` under perf: fn with its worst-input search on by default.
Runner add_perf_fn(CLI::App& perf);  // cmd_fn.cpp
Runner add_check_patch(CLI::App& app);  // cmd_check_patch.cpp (src/patch/)
Runner add_race(CLI::App& app);  // cmd_race.cpp (issue 26)
// `race cpudl`, the cpudl package's (src/subjects/cpudl/cli_race.cpp).
std::pair<CLI::App*, Runner> add_race_cpudl(CLI::App& race);

}  // namespace diffsched::cli
