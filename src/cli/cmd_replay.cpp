// `diffsched replay FILE...`: runs inputs (.ops text, binary files, or raw
// fuzzer inputs with --target) through the lockstep runner and prints the op
// trace with every side's state (or JSON, or heap trees), then the verdict.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/json.h"
#include "io/load.h"
#include "io/trace.h"
#include "subjects.h"
#include "targets.h"
#include "util/json.h"

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
  std::size_t max_input_bytes = io::kDefaultMaxInputBytes;
};

// --expect: 'ok' (no finding) or the finding's exact signature. Prints one
// line and returns 0 when the verdict is the expected one, 1 otherwise.
int judge_expect(const Verdict& v, const std::string& expect, std::FILE* out) {
  const std::string got = v.finding ? v.finding->signature() : "equivalent";
  const bool as_expected = got == expect || (expect == "ok" && !v.finding);
  fmt::print(out, "{}: expected {}, got {}\n", as_expected ? "as expected" : "UNEXPECTED", expect,
             got);
  return as_expected ? kExitOk : kExitFinding;
}

// --check-expect: every '# expect:' line of the file must hold. The ops are
// streamed once through one run per level named (at most two), so memory
// does not grow with the number of ops.
template <class S>
int check_expectations(io::Input& in) {
  const auto& expectations = in.header().expectations;
  if (expectations.empty()) {
    fmt::print(stderr, "diffsched: error: {} has no '# expect: LEVEL VERDICT' line\n",
               in.name());
    return kExitBadInput;
  }
  const typename S::Config config = io::config_of<S>(in.header());
  std::vector<Level> levels;
  for (const auto& e : expectations)
    if (std::find(levels.begin(), levels.end(), e.level) == levels.end())
      levels.push_back(e.level);
  std::vector<std::unique_ptr<typename S::Lockstep>> locksteps;
  std::vector<std::unique_ptr<LockstepRun<S>>> runs;
  for (Level l : levels) {
    locksteps.push_back(std::make_unique<typename S::Lockstep>());
    runs.push_back(std::make_unique<LockstepRun<S>>(*locksteps.back(), config, l));
  }
  typename S::Op op{};
  while (in.template next<S>(&op))
    for (auto& run : runs) run->feed(op);
  if (in.failed()) {
    fmt::print(stderr, "diffsched: error: {}\n", in.error());
    return kExitBadInput;
  }
  for (auto& run : runs) run->finish();
  int status = kExitOk;
  for (const auto& e : expectations) {
    const auto i = static_cast<std::size_t>(
        std::find(levels.begin(), levels.end(), e.level) - levels.begin());
    const Verdict& v = runs[i]->verdict();
    const std::string got = v.finding ? v.finding->signature() : "equivalent";
    const bool ok = got == e.verdict;
    fmt::print("{} {} at level {}: expected {}, got {}\n", ok ? "ok        " : "CHANGED   ",
               in.name(), level_name(e.level), e.verdict, got);
    if (!ok) status = kExitFinding;
  }
  return status;
}

// Records the ops a checked run applied (not skipped by the contract), for
// the bare runs of --stats.
template <class S>
class AppliedOps final : public Observer<S> {
 public:
  void on_op(std::size_t, const typename S::Op& op, const typename S::Lockstep& lockstep,
             const Verdict&) override {
    if (!lockstep.last_skipped()) ops.push_back(op);
  }
  std::vector<typename S::Op> ops;
};

// --stats: runs the program again and again without an observer, alternating
// a checked run (every check, as replay does) with a bare run (the same ops
// the checked run applied, on the sides only: no contract check, no model, no
// checks), for at least 0.3 s of each, and prints both rates and their ratio,
// the check overhead. For cpudl also the rate with full checks after every op.
// Timing only: the figures vary with the machine and its load; the ratio,
// measured in one run, less so.
template <class S>
void print_stats(const io::Program<S>& p, Level level) {
  using Clock = std::chrono::steady_clock;
  constexpr bool kHasBare = requires(typename S::Lockstep & l, const typename S::Op& op) {
    l.apply_bare(op);
  };
  const auto ops = std::span<const typename S::Op>(p.ops);
  auto lockstep = std::make_unique<typename S::Lockstep>();
  AppliedOps<S> applied;
  const std::size_t checked_per_run =
      run_lockstep<S>(*lockstep, p.config, ops, level, &applied).ops_run;
  const auto bare_ops = std::span<const typename S::Op>(applied.ops);
  std::chrono::duration<double> checked_time{}, bare_time{};
  std::size_t runs = 0;
  do {
    const auto t0 = Clock::now();
    run_lockstep<S>(*lockstep, p.config, ops, level);
    const auto t1 = Clock::now();
    if constexpr (kHasBare) {
      kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
      lockstep->reset(p.config);
      for_each_prefetched(bare_ops, [&](const typename S::Op& op) {
        lockstep->apply_bare(op);
        return true;
      });
    }
    const auto t2 = Clock::now();
    checked_time += t1 - t0;
    bare_time += t2 - t1;
    ++runs;
  } while (checked_time.count() < 0.3 || (kHasBare && bare_time.count() < 0.3));
  // The bare rate counts the ops the checked run ran (skipped ones included),
  // so both rates are per input op.
  const double total = static_cast<double>(checked_per_run * runs);
  const double checked_rate = total / checked_time.count();
  const double bare_rate = total / bare_time.count();
  std::string_view mode = "";
  if constexpr (std::is_same_v<S, cpudl::Subject>) mode = " (incremental checks)";
  if constexpr (!kHasBare) {
    // A subject without a bare mode (cpumask): the checked rate only.
    fmt::print("stats: {} runs of {} ops, checked {:.0f} ops/s ({:.3f} s)\n", runs,
               checked_per_run, checked_rate, checked_time.count());
    return;
  }
  fmt::print("stats: {} runs of {} ops ({} applied to the sides, {} skipped by the contract)\n",
             runs, checked_per_run, bare_ops.size(), checked_per_run - bare_ops.size());
  fmt::print("stats: bare {:.0f} ops/s (sides only, {:.3f} s), checked {:.0f} ops/s{} ({:.3f} s)\n",
             bare_rate, bare_time.count(), checked_rate, mode, checked_time.count());
  fmt::print("stats: check overhead {:.1f}x\n", bare_rate / checked_rate);
  if constexpr (std::is_same_v<S, cpudl::Subject>) {
    lockstep->set_check_mode(cpudl::CheckMode::kFull);
    std::size_t checked = 0, full_runs = 0;
    const auto start = Clock::now();
    std::chrono::duration<double> elapsed{};
    do {
      checked += run_lockstep<S>(*lockstep, p.config, ops, level).ops_run;
      ++full_runs;
      elapsed = Clock::now() - start;
    } while (elapsed.count() < 0.3);
    const double full_rate = static_cast<double>(checked) / elapsed.count();
    fmt::print("stats (full checks): {} runs, {:.0f} checked ops/s, check overhead {:.1f}x\n",
               full_runs, full_rate, bare_rate / full_rate);
  }
}

// Feeds the input op by op (after a finding, the rest is still read, so a
// bad line anywhere is reported). Returns false on a bad line (printed).
template <class S>
bool feed_all(io::Input& in, LockstepRun<S>& run) {
  typename S::Op op{};
  bool running = true;
  while (in.template next<S>(&op))
    if (running) running = run.feed(op);
  if (in.failed()) {
    fmt::print(stderr, "diffsched: error: {}\n", in.error());
    return false;
  }
  run.finish();
  return true;
}

template <class S>
int replay_input(io::Input& in, const ReplayOptions& o, std::optional<Level> forced) {
  const Level level = forced.value_or(in.header().level.value_or(S::kDefaultLevel));
  const typename S::Config config = io::config_of<S>(in.header());
  auto lockstep = std::make_unique<typename S::Lockstep>();
  std::optional<io::Program<S>> held;  // --stats runs the program again and again
  if (o.stats) {
    std::string error;
    auto any = io::read_program(in, o.max_input_bytes, &error);
    if (!any) {
      fmt::print(stderr, "diffsched: error: {}\n", error);
      return kExitBadInput;
    }
    held = std::move(std::get<io::Program<S>>(*any));
  }
  auto feed = [&](LockstepRun<S>& run) {
    if (!held) return feed_all<S>(in, run);
    for (const auto& op : held->ops)
      if (!run.feed(op)) break;
    run.finish();
    return true;
  };
  Verdict v;
  if (o.json) {
    io::JsonTrace<S> trace;
    LockstepRun<S> run(*lockstep, config, level, &trace);
    if (!feed(run)) return kExitBadInput;
    v = run.verdict();
    nlohmann::json doc = {{"file", in.name()},
                          {"subject", S::kName},
                          {"cpus", config.nr_cpu_ids},
                          {"level", level_name(level)},
                          {"ops", trace.ops()},
                          {"verdict", io::verdict_json(v)}};
    fmt::print("{}\n", util::dump_json(doc, 2));  // any file name: util/json.h
  } else {
    fmt::print("== {}: subject {}, cpus {}, level {} ({})\n", in.name(), S::kName,
               config.nr_cpu_ids, level_name(level), in.form());
    io::TextTrace<S> trace(stdout, o.tree);
    LockstepRun<S> run(*lockstep, config, level, o.quiet ? nullptr : &trace);
    if (!feed(run)) return kExitBadInput;
    v = run.verdict();
    io::print_notes(stdout, v);
    if (status_of(v) == kExitOutOfDomain)
      fmt::print("OUT OF DOMAIN (no verdict, exit {}): {}\n", kExitOutOfDomain,
                 v.finding->describe());
    else if (v.finding)
      fmt::print("FINDING: {}\n", v.finding->describe());
    else
      fmt::print("equivalent at level {} after {} ops\n", level_name(level), v.ops_run);
  }
  if (held) print_stats(*held, level);
  if (!o.expect.empty()) return judge_expect(v, o.expect, o.json ? stderr : stdout);
  return status_of(v);
}

// A target whose findings its own check makes (targets.h judged_by_target():
// race): each file is judged by run_target(), as the fuzzer judged it, not by
// the lockstep, which never shows such a finding. --expect and -q apply; the
// lockstep's views (--json, --tree, --stats, --check-expect, --level) do not.
int replay_by_target(const FuzzTarget& target, const ReplayOptions& o) {
  if (o.json || o.tree || o.stats || o.check_expect || !o.level.empty()) {
    fmt::print(stderr,
               "diffsched: error: target {} is judged by its {} check, not the lockstep: "
               "--json, --tree, --stats, --check-expect and --level do not apply\n",
               target.name, role_name(target.role));
    return kExitBadInput;
  }
  int status = kExitOk;
  for (const auto& file : o.files) {
    std::optional<io::AnyProgram> any = load_input(file, {&target, o.max_input_bytes});
    if (!any) return kExitBadInput;
    const Verdict v = run_target(target, io::encode_body(*any));
    if (!o.quiet)
      fmt::print("== {}: target {} ({} check): {}\n", file, target.name, role_name(target.role),
                 target.property);
    if (v.finding)
      fmt::print("FINDING: {}\n", v.finding->describe());
    else
      fmt::print("no finding after {} ops\n", v.ops_run);
    status = worse_status(status,
                          o.expect.empty() ? status_of(v) : judge_expect(v, o.expect, stdout));
  }
  return status;
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
  const bool by_target = target && judged_by_target(*target);
  if (std::string why; !o.expect.empty() && !io::validate_verdict(o.expect, &why, by_target)) {
    fmt::print(stderr, "diffsched: error: --expect: {}\n", why);
    return kExitBadInput;
  }
  if (by_target) return replay_by_target(*target, o);
  if (o.json && o.tree) {
    fmt::print(stderr, "diffsched: error: --json and --tree do not combine\n");
    return kExitBadInput;
  }
  // Inputs are streamed one after another; a bad one stops the command with
  // exit 2 (what ran before it is printed, but no verdict covers it).
  int status = kExitOk;
  for (const auto& file : o.files) {
    auto in = open_input(file, {target, o.max_input_bytes});
    if (!in) return kExitBadInput;
    const std::string_view subject = in->header().subject;
    if (o.tree && subject != cpudl::Subject::kName) {
      fmt::print(stderr, "diffsched: error: --tree draws cpudl heaps; {} is subject {}\n", file,
                 subject);
      return kExitBadInput;
    }
    if (forced && !check_level(in->name(), subject, *forced)) return kExitBadInput;
    int rc = kExitOk;
    with_subject_named(subject, [&]<class S>(std::type_identity<S>) {
      rc = o.check_expect ? check_expectations<S>(*in) : replay_input<S>(*in, o, forced);
    });
    if (rc == kExitBadInput) return rc;
    status = worse_status(status, rc);
  }
  return status;
}

}  // namespace

Runner add_replay(CLI::App& app) {
  auto opts = std::make_shared<ReplayOptions>();
  auto* sub = app.add_subcommand(
      "replay",
      "Run inputs op by op, print every side's state and the verdict "
      "(exit 0 equivalent, 1 finding, 2 bad input, 3 out of domain: no verdict)");
  sub->add_option("files", opts->files,
                  ".ops files, binary files, or raw fuzzer inputs ('-': standard input)")
      ->required();
  std::string defaults;
  for_each_subject([&]<class S>(std::type_identity<S>) {
    defaults += fmt::format("{}{} for {}", defaults.empty() ? "" : ", ", level_name(S::kDefaultLevel),
                            S::kName);
  });
  sub->add_option("--level", opts->level,
                  "exact or deadline (default: the file's level, else the subject's: " +
                      defaults + ")")
      ->check(level_names());
  sub->add_option("--target", opts->target,
                  "read files that are neither DSCH nor .ops text as this fuzz target's raw "
                  "input; a race target (cpudl_race) judges every file by its own check, as "
                  "its fuzzer does, instead of the lockstep")
      ->check(target_choice());
  auto* quiet = sub->add_flag("-q,--quiet", opts->quiet, "print only the verdict, not the trace");
  auto* json = sub->add_flag("--json", opts->json,
                             "print the trace and verdict of one file as one JSON document, "
                             "one object per op (held in memory: grows with the number of ops)");
  auto* tree = sub->add_flag("--tree", opts->tree,
                             "draw both heaps as trees after each op (cpudl; output grows with "
                             "the heap)");
  auto* stats = sub->add_flag("--stats", opts->stats,
                              "also measure ops per second, bare (sides only) and checked, and "
                              "print the check overhead (their ratio; holds the program in "
                              "memory, up to --max-input-bytes)");
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
  add_max_input_bytes(sub, &opts->max_input_bytes);
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
