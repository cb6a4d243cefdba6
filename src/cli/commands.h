// The diffsched subcommands: each registers itself on the CLI11 app and
// returns the process exit status when run.
//   0  equivalent / success
//   1  a finding
//   2  bad input: unreadable or invalid file, bad arguments (one-line message)
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

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
//   load_input: any input form (io::load_program) -> nullopt if unreadable.
bool resolve_target(const std::string& name, const FuzzTarget** out);
std::optional<io::AnyProgram> load_input(const std::string& path, const FuzzTarget* target);
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
