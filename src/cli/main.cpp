// diffsched: differential checking of kernel scheduler optimisations.
#include <cstdio>
#include <map>
#include <new>
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"

int main(int argc, char** argv) {
  using namespace diffsched::cli;
  CLI::App app{"diffsched: runs a reference and an optimized kernel implementation side by "
               "side and checks invariants, equivalence and a simple model after every op"};
  app.require_subcommand(1);
  std::map<const CLI::App*, Runner> runners;
  for (auto add : {add_replay, add_minimize, add_encode, add_decode, add_verify, add_bench,
                   add_campaign, add_coverage, add_kernel_check, add_ops}) {
    // Each adder registers one subcommand; the newest one is the last added.
    Runner r = add(app);
    runners.emplace(app.get_subcommands({}).back(), std::move(r));
  }
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      found |= sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) {
      fmt::print(stderr, "diffsched: error: unknown subcommand '{}' (known: {})\n", argv[1], known);
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "diffsched: error: {} (see diffsched --help)\n", e.what());
    return kExitBadInput;
  }
  // Allocation failure anywhere (a huge input under a memory limit) is a
  // one-line error and exit 2, never an abort.
  try {
    for (const CLI::App* sub : app.get_subcommands())
      if (auto it = runners.find(sub); it != runners.end()) return it->second();
  } catch (const std::bad_alloc&) {
    std::fputs("diffsched: error: out of memory (see --max-input-bytes and the memory notes "
               "in diffsched replay --help)\n", stderr);
    std::fflush(stdout);
    return kExitBadInput;
  }
  return kExitBadInput;
}
