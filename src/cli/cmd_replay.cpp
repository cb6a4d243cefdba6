// `diffsched replay FILE...`: runs .ops files through the lockstep runner and
// prints the op trace with every side's state, then the verdict.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/runner.h"
#include "io/program.h"
#include "io/trace.h"

namespace diffsched::cli {

namespace {

struct ReplayOptions {
  std::vector<std::string> files;
  std::string level;
  std::string expect;  // "ok" or a finding signature; empty: no expectation
  bool quiet = false;
};

template <class S>
int replay_program(const std::string& file, const io::Program<S>& p, std::optional<Level> forced,
                   bool quiet, const std::string& expect) {
  const Level level = forced.value_or(p.level.value_or(S::kDefaultLevel));
  typename S::Lockstep lockstep;
  io::TextTrace<S> trace(stdout);
  fmt::print("== {}: subject {}, cpus {}, level {}, {} ops\n", file, S::kName,
             p.config.nr_cpu_ids, level_name(level), p.ops.size());
  Verdict v = run_lockstep<S>(lockstep, p.config, std::span<const typename S::Op>(p.ops), level,
                              quiet ? nullptr : &trace);
  io::print_notes(stdout, v);
  if (v.finding)
    fmt::print("FINDING: {}\n", v.finding->describe());
  else
    fmt::print("equivalent at level {} after {} ops\n", level_name(level), v.ops_run);
  if (!expect.empty()) {
    const std::string got = v.finding ? v.finding->signature() : "ok";
    const bool as_expected = got == expect;
    fmt::print("{}: expected {}, got {}\n", as_expected ? "as expected" : "UNEXPECTED", expect,
               got);
    return as_expected ? kExitOk : kExitFinding;
  }
  return v.finding ? kExitFinding : kExitOk;
}

int run_replay(const ReplayOptions& o) {
  std::optional<Level> forced;
  if (!o.level.empty()) {
    forced = parse_level(o.level);
    if (!forced) {
      fmt::print(stderr, "diffsched: error: unknown level '{}' (known: exact, deadline)\n",
                 o.level);
      return kExitBadInput;
    }
  }
  int status = kExitOk;
  for (const auto& file : o.files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      fmt::print(stderr, "diffsched: error: cannot read {}\n", file);
      return kExitBadInput;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    std::string error;
    auto program = io::parse_program(buf.str(), &error);
    if (!program) {
      fmt::print(stderr, "diffsched: error: {}: {}\n", file, error);
      return kExitBadInput;
    }
    int s = std::visit(
        [&](const auto& p) {
          using S = typename std::decay_t<decltype(p)>::Subject;
          return replay_program<S>(file, p, forced, o.quiet, o.expect);
        },
        *program);
    status = std::max(status, s);
  }
  return status;
}

}  // namespace

Runner add_replay(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  auto* sub = app.add_subcommand(
      "replay", "Run .ops files op by op, print both sides' states and the verdict "
                "(exit 0 equivalent, 1 finding, 2 bad input)");
  sub->add_option("files", opts->files, ".ops files")->required()->check(CLI::ExistingFile);
  sub->add_option("--level", opts->level,
                  "exact or deadline (default: the file's level, else deadline for cpudl, exact for pick)");
  sub->add_flag("-q,--quiet", opts->quiet, "print only the verdict, not the trace");
  sub->add_option("--expect", opts->expect,
                  "expected verdict: 'ok' or a finding signature such as "
                  "cpudl:divergence:exact:slot.cpu:set; exit 0 iff every file matches");
  return [opts] { return run_replay(*opts); };
}

}  // namespace diffsched::cli
