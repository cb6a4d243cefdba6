// `diffsched race SUBJECT`: what a lockless reader can see between the stores
// of an update (issue 26). The subject's subcommand is its package's
// (src/subjects/cpudl/cli_race.cpp); only cpudl has one.
#include "cli/commands.h"

namespace diffsched::cli {

Runner add_race(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "race", "Lockless-reader analysis: every answer cpudl_find() can give while an update "
              "stores, classified per side; a class only the optimized side reaches is a "
              "finding (exit 0 none, 1 finding, 2 bad input)");
  sub->require_subcommand(1);
  auto [cmd, run] = add_race_cpudl(*sub);
  return [cmd = cmd, run = run] { return cmd->parsed() ? run() : kExitBadInput; };
}

}  // namespace diffsched::cli
