// `diffsched replay FILE...`: runs inputs (.ops text, binary files, or raw
// fuzzer inputs with --target) through the lockstep runner and prints the op
// trace with every side's state (or JSON, or heap trees), then the verdict.
#include <chrono>

#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/runner.h"
#include "io/json.h"
#include "io/load.h"
#include "io/trace.h"

namespace diffsched::cli {

namespace {

struct ReplayOptions {
  std::vector<std::string> files;
  std::string level;
  std::string target;
  std::string expect;  // "ok" or a finding signature; empty: no expectation
  bool quiet = false;
  bool json = false;
  bool tree = false;
  bool stats = false;
  bool check_expect = false;
};

// --check-expect: every '# expect:' line of the file must hold.
template <class S>
int check_expectations(const std::string& file, const io::Program<S>& p) {
  if (p.expectations.empty()) {
    fmt::print(stderr, "diffsched: error: {} has no '# expect: LEVEL VERDICT' line\n", file);
    return kExitBadInput;
  }
  int status = kExitOk;
  typename S::Lockstep lockstep;
  for (const auto& e : p.expectations) {
    const Verdict v =
        run_lockstep<S>(lockstep, p.config, std::span<const typename S::Op>(p.ops), e.level);
    const std::string got = v.finding ? v.finding->signature() : "equivalent";
    const bool ok = got == e.verdict;
    fmt::print("{} {} at level {}: expected {}, got {}\n", ok ? "ok        " : "CHANGED   ", file,
               level_name(e.level), e.verdict, got);
    if (!ok) status = kExitFinding;
  }
  return status;
}

// Runs the program repeatedly without an observer for at least 0.3 s and
// prints the checked ops per second (for cpudl, with incremental and with
// full per-op checks).
template <class S>
void print_stats(const io::Program<S>& p, Level level) {
  auto measure = [&](typename S::Lockstep& lockstep, std::string_view label) {
    const auto ops = std::span<const typename S::Op>(p.ops);
    std::size_t checked = 0, runs = 0;
    const auto start = std::chrono::steady_clock::now();
    std::chrono::duration<double> elapsed{};
    do {
      checked += run_lockstep<S>(lockstep, p.config, ops, level).ops_run;
      ++runs;
      elapsed = std::chrono::steady_clock::now() - start;
    } while (elapsed.count() < 0.3);
    fmt::print("stats{}: {} runs, {} ops checked in {:.3f} s: {:.0f} checked ops/s\n", label,
               runs, checked, elapsed.count(), static_cast<double>(checked) / elapsed.count());
  };
  auto lockstep = std::make_unique<typename S::Lockstep>();
  if constexpr (std::is_same_v<S, cpudl::Subject>) {
    measure(*lockstep, " (incremental checks)");
    lockstep->set_check_mode(cpudl::CheckMode::kFull);
    measure(*lockstep, " (full checks)");
  } else {
    measure(*lockstep, "");
  }
}

template <class S>
int replay_program(const std::string& file, const io::Program<S>& p, const ReplayOptions& o,
                   std::optional<Level> forced) {
  const Level level = forced.value_or(p.level.value_or(S::kDefaultLevel));
  typename S::Lockstep lockstep;
  const auto ops = std::span<const typename S::Op>(p.ops);
  Verdict v;
  if (o.json) {
    io::JsonTrace<S> trace;
    v = run_lockstep<S>(lockstep, p.config, ops, level, &trace);
    nlohmann::json doc = {{"file", file},
                          {"subject", S::kName},
                          {"cpus", p.config.nr_cpu_ids},
                          {"level", level_name(level)},
                          {"ops", trace.ops()},
                          {"verdict", io::verdict_json(v)}};
    fmt::print("{}\n", doc.dump(2));
  } else {
    fmt::print("== {}: subject {}, cpus {}, level {}, {} ops\n", file, S::kName,
               p.config.nr_cpu_ids, level_name(level), p.ops.size());
    io::TextTrace<S> trace(stdout, o.tree);
    v = run_lockstep<S>(lockstep, p.config, ops, level, o.quiet ? nullptr : &trace);
    io::print_notes(stdout, v);
    if (status_of(v) == kExitOutOfDomain)
      fmt::print("OUT OF DOMAIN (no verdict, exit {}): {}\n", kExitOutOfDomain,
                 v.finding->describe());
    else if (v.finding)
      fmt::print("FINDING: {}\n", v.finding->describe());
    else
      fmt::print("equivalent at level {} after {} ops\n", level_name(level), v.ops_run);
  }
  if (o.stats) print_stats(p, level);
  if (!o.expect.empty()) {
    const std::string got = v.finding ? v.finding->signature() : "equivalent";
    const bool as_expected = got == o.expect || (o.expect == "ok" && !v.finding);
    fmt::print(o.json ? stderr : stdout, "{}: expected {}, got {}\n",
               as_expected ? "as expected" : "UNEXPECTED", o.expect, got);
    return as_expected ? kExitOk : kExitFinding;
  }
  return status_of(v);
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
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  if (o.json && o.tree) {
    fmt::print(stderr, "diffsched: error: --json and --tree do not combine\n");
    return kExitBadInput;
  }
  // Load everything first: a bad file fails the command before any output.
  std::vector<io::AnyProgram> programs;
  for (const auto& file : o.files) {
    auto program = load_input(file, target);
    if (!program) return kExitBadInput;
    if (o.tree && io::subject_name(*program) != cpudl::Subject::kName) {
      fmt::print(stderr, "diffsched: error: --tree draws cpudl heaps; {} is subject {}\n", file,
                 io::subject_name(*program));
      return kExitBadInput;
    }
    programs.push_back(std::move(*program));
  }
  int status = kExitOk;
  for (std::size_t i = 0; i < programs.size(); ++i)
    status = worse_status(status, std::visit(
                                  [&](const auto& p) {
                                    return o.check_expect ? check_expectations(o.files[i], p)
                                                          : replay_program(o.files[i], p, o, forced);
                                  },
                                  programs[i]));
  return status;
}

}  // namespace

Runner add_replay(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  auto* sub = app.add_subcommand(
      "replay",
      "Run inputs op by op, print every side's state and the verdict "
      "(exit 0 equivalent, 1 finding, 2 bad input, 3 out of domain: no verdict)");
  sub->add_option("files", opts->files, ".ops files, binary files, or raw fuzzer inputs")
      ->required();
  sub->add_option("--level", opts->level,
                  "exact or deadline (default: the file's level, else the subject's: "
                  "deadline for cpudl, exact for pick and cpumask)")
      ->check(level_names());
  sub->add_option("--target", opts->target,
                  "read files without a DSCH header as this fuzz target's raw input")
      ->check(target_choice());
  auto* quiet = sub->add_flag("-q,--quiet", opts->quiet, "print only the verdict, not the trace");
  auto* json = sub->add_flag("--json", opts->json,
                             "print the trace and verdict of one file as one JSON document, "
                             "one object per op");
  auto* tree = sub->add_flag("--tree", opts->tree, "draw both heaps as trees after each op (cpudl)");
  auto* stats = sub->add_flag("--stats", opts->stats,
                              "also measure checked ops per second (no trace)");
  auto* check_expect = sub->add_flag(
      "--check-expect", opts->check_expect,
      "check each file's '# expect: LEVEL VERDICT' lines instead of printing a "
      "trace (exit 1 if a verdict changed)");
  auto* expect = sub->add_option("--expect", opts->expect,
                                 "expected verdict: 'ok' or a finding signature such as "
                                 "cpudl:divergence:exact:slot.cpu:set; exit 0 iff every file "
                                 "matches");
  // What each mode prints excludes the others: --json is one document, --stats
  // text; --check-expect prints only its lines; --tree draws the trace -q hides.
  json->excludes(stats)->excludes(tree)->excludes(quiet);
  check_expect->excludes(json)->excludes(expect)->excludes(tree)->excludes(quiet)->excludes(stats);
  tree->excludes(quiet);
  sub->parse_complete_callback([opts] {
    if (opts->json && opts->files.size() > 1)
      throw CLI::ValidationError(fmt::format(
          "--json: prints one JSON document for one file, got {} files (run replay --json "
          "once per file)",
          opts->files.size()));
  });
  return [opts] { return run_replay(*opts); };
}

}  // namespace diffsched::cli
