// The diffsched subcommands: each registers itself on the CLI11 app and
// returns the process exit status when run.
//   0  equivalent / success
//   1  a finding
//   2  bad input: unreadable or invalid file, bad arguments (one-line message)
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

#include "io/load.h"
#include "io/program.h"
#include "targets.h"

namespace diffsched::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitBadInput = 2;

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
// relative to the cwd ("./build/diffsched"), or absolute when outside it.
std::string self_command();

Runner add_replay(CLI::App& app);
Runner add_ops(CLI::App& app);
Runner add_encode(CLI::App& app);
Runner add_decode(CLI::App& app);
Runner add_minimize(CLI::App& app);
Runner add_verify(CLI::App& app);
Runner add_bench(CLI::App& app);
Runner add_campaign(CLI::App& app);
Runner add_coverage(CLI::App& app);  // cmd_coverage.cpp
Runner add_kernel_check(CLI::App& app);  // cmd_kernel_check.cpp

}  // namespace diffsched::cli
