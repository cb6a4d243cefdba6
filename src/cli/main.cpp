// diffsched: differential checking of kernel scheduler optimisations.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"

namespace {

// Every option of every (sub)command, once registered: a value given twice
// is an error, not silently the last one (flags default to taking the last),
// and --help shows each default.
void make_strict(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeLast)
      opt->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    if (opt->get_type_size() != 0 && opt->get_default_str().empty()) {
      opt->capture_default_str();
      if (opt->get_default_str() == "[]") opt->default_str("");  // an empty list: no default
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) make_strict(*sub);
}

std::string subcommand_names(const CLI::App& app) {
  std::string known;
  for (const CLI::App* sub : app.get_subcommands({}))
    known += (known.empty() ? "" : ", ") + sub->get_name();
  return known;
}

// The deepest subcommand parsed ("diffsched verify cpudl" -> cpudl's App).
const CLI::App* deepest(const CLI::App& app) {
  const CLI::App* where = &app;
  while (!where->get_subcommands().empty()) where = where->get_subcommands().front();
  return where;
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (; app && app->get_parent(); app = app->get_parent()) path = " " + app->get_name() + path;
  return "diffsched" + path;
}

// One line for a parse error. What CLI11 left over is named first, as the
// unknown option, argument or subcommand it is (CLI11 would otherwise report
// a missing subcommand for `diffsched --frob`).
std::string explain(const CLI::App& app, const CLI::ParseError& e) {
  const CLI::App* where = deepest(app);
  std::vector<std::string> left = where->remaining(true);
  if (left.empty()) left = app.remaining(true);
  const std::string cmd = command_path(where);
  if (!left.empty()) {
    const std::string& first = left.front();
    const char* kind = first.starts_with('-')                      ? "option"
                       : !where->get_subcommands({}).empty() &&
                               where->get_subcommands().empty()
                           ? "subcommand"
                           : "argument";
    std::string known;
    if (std::string_view(kind) == "subcommand")
      known = fmt::format(" (known: {})", subcommand_names(*where));
    return fmt::format("unknown {} '{}' for {}{} (see {} --help)", kind, first, cmd, known, cmd);
  }
  std::string what = e.what();
  // "--quick: At Most 1 required but received 2" for a repeated flag or option.
  if (const auto at = what.find(": At Most 1 required but received "); at != std::string::npos)
    what = fmt::format("{} given {} times: give it once",
                       what.substr(0, at), what.substr(at + 34));
  return fmt::format("{} (see {} --help)", what, cmd);
}

// Every write to standard output is checked (issue 22): once a subcommand is
// done, stdout is flushed; if any write to it failed (a full device, a
// closed pipe), one error line, and exit 2 where the subcommand said 0. A
// finding (1) or out-of-domain stop (3) keeps its status: a lost report
// never turns a found bug into "could not run".
int finish_stdout(int status) {
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return status;
  const int err = errno;
  fmt::print(stderr, "diffsched: error: cannot write standard output: {}\n",
             err != 0 ? std::strerror(err) : "write error");
  return status == diffsched::kExitOk ? diffsched::kExitBadInput : status;
}

int run_subcommand(const CLI::App& app,
                   const std::map<const CLI::App*, diffsched::cli::Runner>& runners) {
  for (const CLI::App* sub : app.get_subcommands())
    if (auto it = runners.find(sub); it != runners.end()) return it->second();
  return diffsched::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace diffsched::cli;
  CLI::App app{"diffsched: runs a reference and an optimized kernel implementation side by "
               "side and checks invariants, equivalence and a simple model after every op. "
               "Exit status: 0 ok, 1 finding, 2 bad input or could not run, 3 out of domain "
               "(no verdict), 130/143 interrupted (README: Exit statuses)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_string(), "print the version and exit");
  std::map<const CLI::App*, Runner> runners;
  for (auto add : {add_replay, add_minimize, add_encode, add_decode, add_verify, add_bench,
                   add_campaign, add_coverage, add_kernel_check, add_ops, add_targets, add_export,
                   add_perf, add_mutate, add_fn, add_check_patch, add_race}) {
    // Each adder registers one subcommand; the newest one is the last added.
    Runner r = add(app);
    runners.emplace(app.get_subcommands({}).back(), std::move(r));
  }
  make_strict(app);
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands({})) known |= argc > 1 && sub->check_name(argv[1]);
  if (argc > 1 && argv[1][0] != '-' && !known) {
    fmt::print(stderr, "diffsched: error: unknown subcommand '{}' (known: {})\n", argv[1],
               subcommand_names(app));
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return finish_stdout(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return finish_stdout(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return finish_stdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "diffsched: error: {}\n", explain(app, e));
    return kExitBadInput;
  }
  // Allocation failure anywhere (a huge input under a memory limit) is a
  // one-line error and exit 2, never an abort; so is a file system error
  // that a subcommand did not report itself (a symlink loop, a path that
  // cannot be read): the last net under every std::filesystem call.
  try {
    return finish_stdout(run_subcommand(app, runners));
  } catch (const std::bad_alloc&) {
    std::fputs("diffsched: error: out of memory (see --max-input-bytes and the memory notes "
               "in diffsched replay --help)\n", stderr);
    std::fflush(stdout);
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "diffsched: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::system_error& e) {
    // fmt::print throws when a write to stdout fails midway (a full device):
    // the subcommand stopped before its verdict, so it could not run (2).
    fmt::print(stderr, "diffsched: error: cannot write standard output: {}\n",
               e.code().message());
    return kExitBadInput;
  }
}
