// `diffsched verify SUBJECT`: bounded exhaustive verification. The
// subcommand of each subject is its package's (src/subjects/<name>/cli_verify.cpp,
// the specialisation of add_verify_subject<S>); cmd_verify.cpp makes one per
// subject of ToolSubjects and shares what follows. Each prints what was
// explored and either "verified within bounds: ..." (exit 0) or the shortest
// counterexample, also written as an .ops file for `diffsched replay` (exit 1).
#pragma once

#include <cstdio>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/verdict.h"
#include "io/program.h"
#include "io/text.h"
#include "subject_tools.h"
#include "util/text.h"
#include "verify/progress.h"

namespace diffsched::cli {

// One subject's `diffsched verify NAME`: adds its subcommand to `verify` and
// returns it with what runs it once parsed. Each subject of ToolSubjects
// defines it (a missing one is a link error).
template <class S>
std::pair<CLI::App*, Runner> add_verify_subject(CLI::App& verify);

// The refusal limits: a run expected to take longer than this, or to need more
// than kMemoryShare of the available memory, needs --force.
constexpr double kMaxSeconds = 3600;
constexpr double kMemoryShare = 0.8;

void print_progress(const verify::Progress& p);
// Memory this process may use: MemAvailable, else physical memory; 0 if unknown.
double available_bytes();
std::string human_bytes(double b);
std::string human_seconds(double s);

// Writes the counterexample program with a comment header (a missing
// directory made); false with *error.
bool write_ops(const std::string& path, const std::string& header, const io::AnyProgram& p,
               std::string* error);

// Prints the shortest counterexample and writes it to `path`: kExitFinding.
template <class S>
int report_counterexample(const std::string& path, const std::string& command,
                          const io::Program<S>& program, const Verdict& replayed,
                          bool confirmed) {
  fmt::print("COUNTEREXAMPLE, {} op{} (shortest):\n", program.ops.size(),
             program.ops.size() == 1 ? "" : "s");
  {
    kernel::NrCpuIdsScope scope(program.config.nr_cpu_ids);
    for (const auto& op : program.ops) fmt::print("  {}\n", io::format_op(op));
  }
  if (replayed.finding) fmt::print("FINDING: {}\n", replayed.finding->describe());
  if (!confirmed) {
    fmt::print(
        "NOT CONFIRMED: the search saw this finding, but replaying the ops from the "
        "initial state did not reproduce it (a side depends on state the search's "
        "encoding drops)\n");
    return kExitFinding;
  }
  const std::string header = fmt::format(
      "# Shortest counterexample found by: {}\n# {}\n", command,
      replayed.finding ? replayed.finding->signature() : std::string("?"));
  // The counterexample is printed above: a failed write is said, and the
  // finding's status (1) wins (README: Exit statuses).
  if (std::string why; !write_ops(path, header, io::AnyProgram(program), &why)) {
    fmt::print(stderr, "diffsched: error: {} (the counterexample is printed above)\n", why);
    return kExitFinding;
  }
  fmt::print("written to {}; explain it with: {} replay {}\n", path, self_command(),
             util::shell_path(path));
  return kExitFinding;
}

}  // namespace diffsched::cli
