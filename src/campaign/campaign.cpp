// run_campaign: the steps of a campaign, each in its own unit:
//   arguments.h  options and paths checked      layout.h    --out's and the corpus's paths
//   engine.h     libFuzzer / AFL++              supervise.h process groups, slots, signals
//   merge.h      corpus merge                   findings.h  classify, re-run, minimise, accept
//   report.h     the three reports
#include "campaign/campaign.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <functional>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <unistd.h>

#include "campaign/arguments.h"
#include "campaign/engine.h"
#include "campaign/findings.h"
#include "campaign/layout.h"
#include "campaign/merge.h"
#include "campaign/supervise.h"
#include "campaign/util.h"
#include "engine/exit_status.h"
#include "io/load.h"
#include "kcheck/work.h"
#include "tools/process.h"

namespace diffsched::campaign {

namespace {

// A self-check target's libFuzzer jobs record its accepted class and go on
// (targets.h, DIFFSCHED_RECORD_ACCEPTED), and fork mode still lists such
// inputs among the new ones. They are crash files, not corpus (and the merge
// would stop on each): drop every new input that fails the target's property.
void drop_failing_inputs(const FuzzTarget& target, const fs::path& found) {
  if (target.role != TargetRole::kSelfCheck) return;
  std::error_code ec;
  for (const auto& f : regular_files(found)) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                          std::istreambuf_iterator<char>()};
    const Verdict v = run_target(target, bytes);
    if (v.finding && v.finding->kind != FindingKind::kOutOfDomain) fs::remove(f, ec);
  }
}

using Clock = std::chrono::steady_clock;

// What run_campaign decided before the first target, shared by all of them.
struct Context {
  const CampaignOptions& o;
  Layout layout;
  EngineSettings settings;
  std::unique_ptr<Engine> engine;
  Clock::time_point start = Clock::now();
  Slots slots;
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
};

// Progress lines while the engine runs (every second on a TTY, rewritten in
// place; else every --progress-every seconds), with the crash files
// classified in-process as they appear.
struct Progress {
  const Context& c;
  const FuzzTarget& target;
  const TargetLayout& t;
  std::string label;
  double before;  // campaign seconds before this target
  bool tty = ::isatty(STDOUT_FILENO);
  Clock::time_point last = Clock::now();
  std::set<std::string> files, signatures;

  void operator()(double elapsed) {
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last).count() < (tty ? 1.0 : c.o.progress_every)) return;
    last = now;
    const EngineStatus st = c.engine->status(t);
    const double total = before + elapsed, budget = c.o.seconds;
    for (const auto& f : c.engine->crash_files(t))
      if (files.insert(f.string()).second) {
        const std::string sig = replay_signature(target, f);
        signatures.insert(sig.empty() ? "?" : sig);
      }
    const std::string line = fmt::format(
        "campaign {} {}/{} (remaining {}) | {} execs, {:.0f}/s | cov {} ft {} | findings {} "
        "({} crash files)",
        label, mmss(total), mmss(budget), mmss(budget - total), st.execs,
        elapsed > 0 ? static_cast<double>(st.execs) / elapsed : 0.0, st.coverage, st.features,
        signatures.size(), files.size());
    if (tty)
      fmt::print("\r\033[K{}", line);
    else
      fmt::print("{}\n", line);
    std::fflush(stdout);
  }
};

// The target's status from how its engine ended: engine-failed if it could
// not start, exited abnormally before we stopped it, or ran no input.
void judge_engine(const Supervised& s, const EngineStatus& st, const TargetLayout& t,
                  std::string_view engine, TargetRun* run) {
  if (s.interrupted) {
    if (st.execs == 0) {
      run->status = TargetStatus::kNotRun;
      run->error = "interrupted before the engine ran an input";
    }
    return;
  }
  const std::string why = engine_failure(s, st);
  if (why.empty()) return;
  run->status = TargetStatus::kEngineFailed;
  run->error = fmt::format("{} {}: {} (see {})", engine, why, engine_error_line(t.log),
                           t.log.string());
}

void print_target_line(const std::string& label, const TargetRun& run, double engine_seconds) {
  fmt::print("campaign {}: {} execs in {:.1f} s (engine {:.1f} s), cov {}, corpus {} -> {}, "
             "{} crash file{}{}\n",
             label, run.execs, run.seconds, engine_seconds, run.coverage, run.corpus_before,
             run.corpus_after, run.crash_files, run.crash_files == 1 ? "" : "s",
             run.error.empty() ? "" : fmt::format(" ({}: {})", target_status_name(run.status),
                                                  run.error));
  std::fflush(stdout);
}

// Fuzzes target i for its slot, merges what it found into the corpus and
// collects its crash files.
TargetRun fuzz_target(const Context& c, std::size_t i, const FuzzTarget* target,
                      std::vector<Crash>* crashes) {
  const TargetLayout t = c.layout.target(target->name);
  prepare_target(t, tools::SourceTree{tools::source_dir()}.corpus(target->name));
  TargetRun run;
  run.target = t.target;
  run.property = std::string(target->property);
  run.engine = c.o.engine;
  run.corpus_before = regular_files(t.corpus).size();
  if (interrupt_signal()) {
    run.status = TargetStatus::kNotRun;
    run.error = "the campaign was interrupted before this target";
    run.corpus_after = run.corpus_before;
    return run;
  }
  const auto seconds = std::max(1L, static_cast<long>(c.slots.engine_budget(i, c.elapsed())));
  const std::string label = fmt::format("[{} {}/{}]", t.target, i + 1, c.slots.targets);
  fmt::print("campaign {}: {} for {} s ({} job{})\n", label, c.o.engine, seconds, c.o.jobs,
             c.o.jobs == 1 ? "" : "s");
  std::fflush(stdout);
  const auto t_start = Clock::now();
  Progress progress{c, *target, t, label, c.elapsed()};
  const Supervised s =
      supervise(start_processes(c.engine->commands(t, seconds), c.engine->environment()),
                static_cast<double>(seconds), std::ref(progress));
  if (progress.tty) fmt::print("\r\033[K");
  const EngineStatus st = c.engine->status(t);
  run.execs = st.execs;
  run.coverage = st.coverage;
  run.features = st.features;
  run.crash_files = c.engine->crash_files(t).size();  // before collect() copies AFL's
  judge_engine(s, st, t, c.engine->name(), &run);
  const double engine_seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  std::string merge_error;
  const fs::path found = c.engine->collect(t);
  drop_failing_inputs(*target, found);
  const MergeRequest merge{.fuzzer = c.settings.fuzz_dir / t.target,
                           .corpus = t.corpus,
                           .found = found,
                           .staging = t.staging(::getpid()),
                           .log = t.merge_log,
                           .max_seconds = c.slots.merge_limit()};
  // Interrupted: no time for a merge; what was found goes in unmerged.
  const long added = interrupt_signal() != 0 ? add_unmerged(merge, &merge_error)
                                             : merge_into_corpus(merge, &merge_error);
  if (added < 0 && run.ran()) run.error = merge_error;
  run.corpus_after = regular_files(t.corpus).size();
  std::error_code ec;
  for (const auto& f : collected_crash_files(t)) crashes->push_back({target, f, fs::file_size(f, ec)});
  run.seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  run.exec_per_s = run.seconds > 0 ? static_cast<std::uint64_t>(st.execs / run.seconds) : 0;
  print_target_line(label, run, engine_seconds);
  return run;
}

// The binaries: libFuzzer's always (merge, re-runs), AFL's for --engine afl;
// built with their preset unless --fuzz-dir / --afl-dir name them.
bool find_binaries(Context* c, const std::vector<const FuzzTarget*>& targets,
                   std::string* error) {
  const bool afl = c->o.engine == "afl";
  auto build = [&](const std::string& preset, fs::path* dir) {
    if (!dir->empty()) return true;
    *dir = tools::FuzzBuild{tools::preset_dir(preset)}.fuzzers();
    fmt::print("campaign: building the {} binaries if needed (cmake --build --preset {})\n",
               preset == "afl" ? "AFL++" : "libFuzzer", preset);
    std::fflush(stdout);
    std::vector<std::string> build_targets;  // only the fuzzers this campaign runs
    for (const FuzzTarget* t : targets) build_targets.push_back("fuzz_" + std::string(t->name));
    return tools::build_preset(preset, c->layout.build_log(preset), error, build_targets) &&
           check_binary_dir("built", *dir, preset, targets, error);
  };
  EngineSettings& s = c->settings;
  s = {.fuzz_dir = c->o.fuzz_dir, .afl_dir = c->o.afl_dir, .jobs = c->o.jobs, .seed = c->o.seed};
  if (!build("fuzz", &s.fuzz_dir) || (afl && !build("afl", &s.afl_dir))) return false;
  s.afl_fuzz = afl ? tools::find_program("afl-fuzz") : fs::path();
  if (afl && s.afl_fuzz.empty()) {
    *error = "afl-fuzz not found on PATH (apt-get install afl++, or scripts/install-deps.sh)";
    return false;
  }
  c->engine = make_engine(c->o.engine, s);
  return true;
}

bool write_reports(const Layout& layout, const CampaignReport& r, std::string* error) {
  return io::write_file(layout.summary_md().string(), report_markdown(r), error) &&
         io::write_file(layout.junit_xml().string(), report_junit(r), error) &&
         io::write_file(layout.results_sarif().string(), report_sarif(r), error);
}

}  // namespace

int run_campaign(const CampaignOptions& o, CampaignReport* report, std::string* error) {
  const auto targets = resolve_targets(o, error);
  if (!targets) return kExitBadInput;
  if (o.engine != "afl" && o.engine != "libfuzzer") {
    *error = fmt::format("unknown engine '{}' (known: libfuzzer, afl)", o.engine);
    return kExitBadInput;
  }
  if (o.seconds < 1 || o.jobs < 1) {
    *error = "--time must be at least 1 second and --jobs at least 1";
    return kExitBadInput;
  }
  const fs::path accepted_file =
      o.accepted.empty() ? tools::SourceTree{tools::source_dir()}.corpus_tree().accepted() : o.accepted;
  const auto accepted = load_accepted(accepted_file, error);
  Context c{.o = o,
            .layout = {.out = o.out, .corpus = o.corpus},
            .slots = {o.seconds, targets->size()}};
  if (!accepted || !check_paths(o, *targets, error) ||
      !prepare_out(c.layout, o.force, error, {accepted_file, o.fuzz_dir, o.afl_dir}) ||
      !find_binaries(&c, *targets, error))
    return kExitBadInput;

  InterruptScope interrupts;
  CampaignReport& r = *report;
  r = CampaignReport{};
  r.started_utc = utc_now();
  r.budget_seconds = o.seconds;
  r.engine = o.engine;
  r.jobs = o.jobs;
  r.corpus_dir = o.corpus.string();
  r.out_dir = o.out.string();
  c.start = Clock::now();
  std::vector<Crash> crashes;
  for (std::size_t i = 0; i < targets->size(); ++i)
    r.targets.push_back(fuzz_target(c, i, (*targets)[i], &crashes));
  r.findings = make_findings(
      {.layout = c.layout, .fuzz_dir = c.settings.fuzz_dir, .reruns = o.reruns, .self = o.self},
      crashes, *accepted);
  r.seconds = c.elapsed();
  r.interrupted = interrupt_signal() != 0;
  r.signal = interrupt_signal();
  std::string werr;
  if (!write_reports(c.layout, r, &werr)) {
    *error = werr;
    return kExitBadInput;
  }
  return r.exit_status();
}

}  // namespace diffsched::campaign
