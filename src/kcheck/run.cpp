// The steps of kernel-check after prepare(): --replay alone, or allocation
// failure (--fail-alloc), the property run and fuzzing, each ending in a
// verdict: EQUIVALENT (0), FINDING (1, with a reproducer and the command that
// replays it), or an error (2). Every verdict rests on the harness run's
// result record (kcheck/record.h), never on its exit status or
// its output: a run without a record did not complete its checks (exit 2,
// or a finding on the input it was running), a record of no work done is
// exit 2, and a reproducer is named only once it exists.
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "kcheck/session.h"
#include "targets.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::kcheck {

namespace {

using namespace kcheck;  // the harness's statuses

std::string ended_text(const HarnessRun& r) {
  return fmt::format("the candidate ended the harness process (status {}) before the checks "
                     "completed",
                     r.status);
}

// A finding that is not minimised: the input itself is the reproducer.
int report_input(const Session& s, const std::string& what, const fs::path& input, bool raw,
                 const std::string& kind) {
  std::error_code ec;
  if (!fs::is_regular_file(input, ec))
    return error(fmt::format("{} (its input {} was not saved)", what, input.string()));
  fmt::print("\nverdict: FINDING ({})\ninput: {}\nreplay it against the candidate:\n  {}\n", what,
             input.string(), replay_command(s.o, input, raw));
  s.print_forms();
  VerdictNote& v = verdict_note();
  v.verdict = "finding";
  v.kind = kind;
  v.input = input.string();
  v.detail = what;
  return kExitFinding;
}

// The harness's process ended without a record: on a known input, a finding
// with that input; else exit 2. Never a pass.
int ended(const Session& s, const HarnessRun& r, const std::string& step,
          const fs::path& known_input = {}, bool known_raw = false) {
  if (r.status == kHarnessNotRun)
    return error(fmt::format("could not run the harness ({}): {}", step, r.why));
  const fs::path input = !known_input.empty() ? known_input : r.stopped_input;
  const bool raw = !known_input.empty() ? known_raw : r.stopped_raw;
  if (!input.empty())
    return report_input(s, fmt::format("{}, in the {}, on its input", ended_text(r), step), input,
                        raw, "exit");
  return error(fmt::format("{} ({}; {})", ended_text(r), step, r.why));
}

int report_finding(const Session& s, const std::string& how, const std::string& kind,
                   const std::string& signature) {
  std::error_code ec;
  if (!fs::is_regular_file(s.min_ops, ec))
    return error(fmt::format("the finding's reproducer {} was not written", s.min_ops.string()));
  fmt::print("\nverdict: FINDING ({})\n", how);
  s.print_forms();
  const std::string text = util::read_text(s.min_ops);
  if (text.starts_with(kNotMinimal))
    fmt::print("reproducer, NOT MINIMAL ({}; raise --minimize-seconds/--minimize-tries for "
               "more): {}\n",
               text.substr(kNotMinimal.size() + 1, text.find('\n') - kNotMinimal.size() - 1),
               s.min_ops.string());
  else
    fmt::print("minimised reproducer: {}\n", s.min_ops.string());
  fmt::print("replay it against the candidate:\n  {}\n", replay_command(s.o, s.min_ops));
  VerdictNote& v = verdict_note();
  v.verdict = "finding";
  v.kind = kind;
  v.signature = signature;
  v.reproducer = s.min_ops.string();
  v.detail = how;
  return kExitFinding;
}

// The check a signature names: invariant, WARN_ON, model, divergence, ...
std::string kind_of(const std::string& signature) {
  const auto parts = util::split(signature, ':');
  if (parts.size() < 3) return "other";
  if (parts[1] == "invariant") return parts[2] == "WARN_ON" ? "WARN_ON" : "invariant";
  if (parts[1] == "model-mismatch") return "model";
  return parts[1];
}

// A finding the harness minimised: its reproducer, written by the harness in
// the work directory, must exist; it is copied to -o.
int harness_finding(const Session& s, const HarnessRun& r, const std::string& how) {
  std::error_code ec;
  const fs::path written = r.record->reproducer;
  if (written.empty() || !fs::is_regular_file(written, ec))
    return error("the harness reported a finding but wrote no reproducer");
  if (fs::absolute(written) != fs::absolute(s.min_ops)) {
    fs::copy_file(written, s.min_ops, fs::copy_options::overwrite_existing, ec);
    if (ec) return error(fmt::format("cannot write {}: {}", s.min_ops.string(), ec.message()));
  }
  const std::string kind = kind_of(r.record->signature);
  const int rc = report_finding(s, how, kind, r.record->signature);
  if (kind == "reader")
    fmt::print("(that replay runs the lockstep, not the race analysis: the finding is the "
               "reader's; run the reproducer's ops with --race --no-properties --time 0)\n");
  return rc;
}

int init_failed(const HarnessRun& r) {
  return error("init", fmt::format("the {} (with no allocation made to fail): the file cannot "
                                   "be checked",
                                   r.record->detail));
}

// --replay: one program, traced by the harness.
int run_replay(Session& s) {
  const double limit = s.o.hang_seconds + kReplayStartSlack;  // longer is a hang
  KernelCheckOptions rr = s.h.with_mode("replay");
  rr.input = fs::absolute(s.o.replay).string();
  rr.raw = s.o.raw;
  const HarnessRun r = s.h.run(rr, {}, {}, limit);
  int rc = kExitBadInput;
  if (r.timed_out()) {
    fmt::print("FINDING: the replay did not finish within {:.0f} s: a hang in the candidate\n",
               limit);
    verdict_note() = {.verdict = "finding", .kind = "hang"};
    rc = kExitFinding;
  } else if (!r.record) {
    rc = ended(s, r, "replay", r.stopped_input.empty() ? fs::path() : fs::path(s.o.replay), s.o.raw);
  } else if (r.is("ok")) {
    verdict_note() = {.verdict = "equivalent", .programs = 1, .ops = r.record->ops};
    rc = kExitOk;
  } else if (r.is("finding")) {
    verdict_note() = {.verdict = "finding", .kind = "replay", .programs = 1};
    rc = kExitFinding;
  } else if (r.is("out-of-domain")) {  // printed by the harness
    verdict_note() = {.verdict = "out-of-domain"};
    rc = kExitOutOfDomain;
  } else if (r.is("sanitizer")) {
    fmt::print("FINDING: a sanitizer stopped the replay (report above)\n");
    verdict_note() = {.verdict = "finding", .kind = "sanitizer"};
    rc = kExitFinding;
  } else if (r.is("init-failed")) {
    rc = init_failed(r);
  } else {
    rc = error(fmt::format("the harness could not replay {} ({}: {})", s.o.replay,
                           r.record->outcome, r.record->detail));
  }
  std::error_code ec;
  if (s.o.work_dir.empty()) fs::remove_all(s.work, ec);  // only staging: nothing to keep
  return rc;
}

// Allocation failure: each allocation of cpudl_init() in turn fails; the file
// must return -ENOMEM without a warning, a sanitizer error or a leak
// (LeakSanitizer is on for these runs). kExitOk to go on, or the verdict.
int run_fail_alloc(Session& s) {
  constexpr unsigned kMaxAllocations = 16;
  const auto t = std::chrono::steady_clock::now();
  fmt::print("  allocation failure: each allocation of cpudl_init() in turn\n");
  const std::vector<std::pair<std::string, std::string>> leaks = {
      {"ASAN_OPTIONS", fmt::format("detect_leaks=1:allocator_may_return_null=1:exitcode={}",
                                   kHarnessSanitizer)}};
  unsigned n = 1;
  for (; n <= kMaxAllocations; ++n) {
    KernelCheckOptions ra = s.h.with_mode("alloc");
    ra.fail_alloc_at = n;
    const HarnessRun r = s.h.run(ra, {}, {}, kWatchdogSlack, leaks);
    if (r.timed_out())
      return error("timeout", fmt::format("cpudl_init() with allocation {} failing did not "
                                          "return within {:.0f} s", n, kWatchdogSlack));
    if (!r.record) return ended(s, r, fmt::format("allocation run {}", n));
    if (r.is("ok")) continue;
    if (r.is("allocs-exhausted")) break;
    if (r.is("finding") || r.is("sanitizer")) {
      std::string cmd = replay_command(s.o, "");
      cmd = cmd.substr(0, cmd.find(" --replay"));
      fmt::print("\nverdict: FINDING (cpudl_init() with allocation {} failing{}; {:.1f} s)\n"
                 "replay it against the candidate:\n  {} --fail-alloc --time 0 --runs 0\n",
                 n, r.is("sanitizer") ? ": the sanitizer's report is above" : "", since(t), cmd);
      s.print_forms();
      verdict_note() = {.verdict = "finding", .kind = "alloc",
                        .detail = fmt::format("allocation {} failing", n)};
      return kExitFinding;
    }
    return error(fmt::format("the harness failed in the allocation run ({}: {})",
                             r.record->outcome, r.record->detail));
  }
  fmt::print("  allocation failure: {} failure paths return -ENOMEM cleanly ({:.1f} s)\n",
             n - 1, since(t));
  return kExitOk;
}

// The watchdog's allowance for an --exhaustive run (millions of programs
// under the sanitizers at most; each has its own --hang-seconds alarm).
constexpr double kExhaustiveSeconds = 1800;

// A sanitizer finding or a hang of the property run: on the input the record names.
int properties_stop(Session& s, const HarnessRun& r, std::chrono::steady_clock::time_point t) {
  const fs::path input = r.record->input;
  const bool raw = r.record->input_raw;
  if (r.is("hang"))
    return report_input(s,
                        fmt::format("a hang: one program of the property run did not finish "
                                    "within --hang-seconds {}; {:.1f} s; not minimised",
                                    s.o.hang_seconds, since(t)),
                        input, raw, "hang");
  std::error_code ec;
  if (input.empty() || !fs::is_regular_file(input, ec))
    return error("a sanitizer stopped the property run, but its input was not saved");
  fmt::print("  a sanitizer stopped the property run (report above); input {}\n",
             input.string());
  if (minimize_crash(s, input, raw, s.min_ops))
    return report_finding(s, fmt::format("sanitizer, property run, {:.1f} s", since(t)),
                          "sanitizer", "");
  return report_input(s, "a sanitizer error in the property run; not minimised", input, raw,
                      "sanitizer");
}

// The properties and the model oracle: the checked-in seeds and random
// programs. kExitOk to go on, or the verdict.
int run_properties(Session& s) {
  const KernelCheckOptions& o = s.o;
  const auto t = std::chrono::steady_clock::now();
  if (!o.exhaustive.empty())
    fmt::print("  properties and model: every program of --exhaustive {}\n",
               fmt::join(o.exhaustive, " "));
  else
    fmt::print("  properties and model: checked-in seeds + {} random programs (seed {})\n",
               o.runs, o.seed);
  // The property run takes well under a second per thousand programs; its
  // watchdog allows far more, plus the minimisation's budget.
  const double limit = kWatchdogSlack + static_cast<double>(o.runs) / 100 +
                       (o.minimize_seconds > 0 ? o.minimize_seconds : kUnboundedMinimize) +
                       (o.exhaustive.empty() ? 0 : kExhaustiveSeconds);
  KernelCheckOptions rc = s.h.with_mode("check");
  rc.seeds = tools::SourceTree{tools::source_dir()}.seeds(s.target).string();
  rc.output = s.reproducer.string();
  const HarnessRun r = s.h.run(rc, {}, {}, limit);
  if (r.timed_out())
    return error("timeout", fmt::format("the property run did not finish within {:.0f} s (its "
                                        "programs each have --hang-seconds; see above)", limit));
  if (!r.record) return ended(s, r, "property run");
  const tools::HarnessRecord& rec = *r.record;
  if (r.is("ok")) {
    if (rec.programs == 0)
      return error("the property run checked 0 programs (its record says so): no verdict");
    if (o.exhaustive.empty() && rec.random_programs != o.runs)
      return error(fmt::format("the property run checked {} of the {} random programs asked",
                               rec.random_programs, o.runs));
    fmt::print("  properties: no finding ({} programs, {} ops; {:.1f} s)\n", rec.programs,
               rec.ops, since(t));
    verdict_note().programs = rec.programs;
    verdict_note().ops = rec.ops;
    return kExitOk;
  }
  if (r.is("finding") || r.is("hang") || r.is("sanitizer")) {
    verdict_note().found_seconds = since(s.checks_start) - rec.minimize_seconds;
    verdict_note().found_in = "properties";
  }
  if (r.is("finding")) return harness_finding(s, r, fmt::format("properties, {:.1f} s", since(t)));
  if (r.is("hang") || r.is("sanitizer")) return properties_stop(s, r, t);
  if (r.is("init-failed")) return init_failed(r);
  return error(fmt::format("the harness failed in the property run ({}: {})", rec.outcome,
                           rec.detail));
}

// A finding of the fuzzer (an artifact in the work directory): confirmed by
// the harness (its minimisation's record), and minimised where that is safe.
int fuzz_finding(Session& s, const fs::path& crash, const fs::path& log,
                 std::chrono::steady_clock::time_point t) {
  fmt::print("  fuzzing: finding after {:.1f} s: {}\n", since(t), crash.string());
  verdict_note().found_seconds = since(s.checks_start);
  verdict_note().found_in = "fuzzing";
  if (crash.filename().string().starts_with("timeout-"))  // replaying it would hang again
    return report_input(s,
                        fmt::format("a hang: an input ran longer than --hang-seconds {} in "
                                    "fuzzing, {:.1f} s; not minimised",
                                    s.o.hang_seconds, since(t)),
                        crash, true, "hang");
  KernelCheckOptions rm = s.h.with_mode("minimize");
  rm.input = fs::absolute(crash).string();
  rm.raw = true;
  rm.output = s.reproducer.string();
  const fs::path mlog = tools::KcheckWork{s.work}.minimize_log();
  const HarnessRun r = s.h.run(rm, {}, mlog, kWatchdogSlack + (s.o.minimize_seconds > 0
                                                                   ? s.o.minimize_seconds
                                                                   : kUnboundedMinimize));
  const std::string mtext = util::read_text(mlog);
  if (r.timed_out())  // only its minimisation failed
    return report_input(s,
                        fmt::format("fuzzing, {:.1f} s; the minimisation did not finish in "
                                    "time, so the reproducer is the fuzzer's input, not "
                                    "minimised", since(t)),
                        crash, true, "other");
  if (!r.record) {
    fmt::print("{}", mtext.substr(0, 4000));
    return ended(s, r, "fuzzing", crash, true);
  }
  if (r.is("sanitizer")) {
    // A memory or UB error in the candidate: the report is shown (as the
    // sanitizer wrote it), and it is minimised out of process.
    const std::string fuzz_text = util::read_text(log);
    if (const std::size_t at = util::sanitizer_report_start(fuzz_text); at != std::string::npos)
      fmt::print("{}\n", fuzz_text.substr(at, 4000));
    if (minimize_crash(s, crash, true, s.min_ops))
      return report_finding(s, fmt::format("sanitizer, fuzzing, {:.1f} s", since(t)),
                            "sanitizer", "");
    return report_input(s, "a sanitizer error in fuzzing; not minimised", crash, true,
                        "sanitizer");
  }
  fmt::print("{}", mtext);
  if (r.is("finding")) return harness_finding(s, r, fmt::format("fuzzing, {:.1f} s", since(t)));
  if (r.is("init-failed")) return init_failed(r);
  return error(fmt::format("the fuzzer's input {} did not fail when the harness replayed it "
                           "(outcome {}); see {}", crash.string(), r.record->outcome,
                           log.string()));
}

// The fuzzing stage's starting corpus: corpus/<target>/ copied to `corpus`,
// less, under --race, the raw forms of the deep seeds (corpus/deep/<target>/,
// scripts/make-deep-seeds.sh). libFuzzer runs its whole starting corpus
// before it looks at -max_total_time, and the race analysis of one deep heap
// (up to 130 CPUs at nr_cpu_ids up to 8192, cut to 64 ops) takes seconds, so
// with them --time would not hold; the race stage's programs are
// corpus/seeds/ alone, as before. Returns how many inputs were left out.
std::size_t stage_corpus(const Session& s, const fs::path& corpus) {
  const tools::CorpusTree tree = tools::SourceTree{tools::source_dir()}.corpus_tree();
  std::error_code ec;
  fs::create_directories(corpus, ec);
  std::size_t left_out = 0;
  for (const auto& e : fs::directory_iterator(tree.raw(s.target), ec)) {
    const fs::path deep = tree.deep(s.target) / (e.path().filename().string() + ".ops");
    std::error_code dec;
    if (s.o.race && fs::is_regular_file(deep, dec)) {
      ++left_out;
      continue;
    }
    fs::copy_file(e.path(), corpus / e.path().filename(), fs::copy_options::skip_existing, ec);
  }
  return left_out;
}

// The fuzz campaign (libFuzzer in the harness). kExitOk to go on, or the verdict.
int run_fuzzing(Session& s) {
  const KernelCheckOptions& o = s.o;
  const auto t = std::chrono::steady_clock::now();
  const fs::path corpus = tools::KcheckWork{s.work}.corpus();
  const std::size_t deep_left_out = stage_corpus(s, corpus);
  const fs::path log = tools::KcheckWork{s.work}.fuzz_log();
  // The dictionary of the target fuzzed (src/registry.def).
  const std::string dict =
      tools::SourceTree{tools::source_dir()}.dict(find_target(s.target)->dict).string();
  fmt::print("  fuzzing: {} s of libFuzzer (seed {}){}, log {}\n", o.time, o.seed,
             o.race ? ", each input through the race analysis too" : "", log.string());
  if (deep_left_out > 0)
    fmt::print("  fuzzing: the starting corpus leaves out corpus/deep/{}/'s {} deep seeds under "
               "--race (their analysis would outlast --time)\n",
               s.target, deep_left_out);
  const long seconds = static_cast<long>(o.time + 0.5);
  const HarnessRun r = s.h.run(s.h.with_mode("fuzz"),
                               {fmt::format("-max_total_time={}", seconds),
                                fmt::format("-seed={}", o.seed), "-dict=" + dict, "-max_len=4096",
                                fmt::format("-timeout={}", o.hang_seconds), "-detect_leaks=0",
                                "-print_final_stats=1",
                                "-artifact_prefix=" + tools::KcheckWork::artifact_prefix(s.artifacts), corpus.string()},
                               log, o.time + kWatchdogSlack);
  const fs::path crash = find_crash(s.artifacts);
  // A reader finding writes the record before it stops: its inputs so far.
  if (r.record) verdict_note().race_fuzz_inputs = r.record->race_inputs;
  if (r.record) verdict_note().race_fuzz_cut = r.record->race_cut;
  if (!crash.empty() && r.record && o.race)
    fmt::print("  fuzzing: the race analysis ran on {} inputs before this one\n",
               r.record->race_inputs);
  if (!crash.empty()) return fuzz_finding(s, crash, log, t);
  if (r.timed_out())
    return error("timeout", fmt::format("the fuzzer did not stop within --time + {:.0f} s; see {}",
                                        kWatchdogSlack, log.string()));
  if (!r.record) return ended(s, r, fmt::format("fuzzing; see {}", log.string()));
  const tools::HarnessRecord& rec = *r.record;
  if (!r.is("ok"))
    return error(fmt::format("the fuzzer ended ({}: {}) without a finding; see {}", rec.outcome,
                             rec.detail, log.string()));
  if (rec.executions == 0)
    return error(fmt::format("the fuzzer ran 0 inputs (its record says so): no verdict; see {}",
                             log.string()));
  // libFuzzer stops once --time has passed since the process started (the
  // record's clock starts a little later, when the harness does).
  if (rec.seconds < 0.9 * static_cast<double>(seconds) - 0.5)
    return error(fmt::format("the fuzzer stopped after {:.1f} s of the {} s asked, without a "
                             "finding (the candidate ended it?); see {}",
                             rec.seconds, seconds, log.string()));
  const double rate = rec.seconds > 0 ? static_cast<double>(rec.executions) / rec.seconds : 0;
  if (o.race && rec.race_inputs != rec.executions)
    return error(fmt::format("the race analysis ran on {} of the fuzzer's {} inputs: no verdict; "
                             "see {}", rec.race_inputs, rec.executions, log.string()));
  fmt::print("  fuzzing: no finding ({} inputs in {:.1f} s of fuzzing: {:.0f} inputs/s{}; "
             "changes: {}; {:.1f} s)\n",
             rec.executions, rec.seconds, rate,
             o.race ? fmt::format(", {} of them through the race analysis too{}", rec.race_inputs,
                                  rec.race_cut == 0
                                      ? std::string()
                                      : fmt::format(" ({} cut at the bound of {} load triples "
                                                    "per input: analysed in part, no finding "
                                                    "reported from them)",
                                                    rec.race_cut, tools::kRaceInputReaders))
                    : "",
             s.changes_used,
             since(t));
  verdict_note().executions = rec.executions;
  verdict_note().fuzz_seconds = rec.seconds;
  verdict_note().inputs_per_second = rate;
  return kExitOk;
}

// --race: the lockless-reader analysis of the seed programs, then of
// --race-programs random ones (the property run's, from --seed), baseline vs
// candidate (both compiled with trace-stores). kExitOk to go on, or the verdict.
int run_race(Session& s) {
  const auto t = std::chrono::steady_clock::now();
  fmt::print("  race: a lockless cpudl_find() between any two stores of each update, seeds "
             "and {} random programs (seed {})\n",
             s.o.race_programs, s.o.seed);
  KernelCheckOptions race = s.h.with_mode("race");
  race.seeds = tools::SourceTree{tools::source_dir()}.seeds(s.target).string();
  race.output = s.reproducer.string();
  // The seeds take well under a second; a random program a few milliseconds.
  const double limit = kWatchdogSlack + 60 + 0.05 * s.o.race_programs;
  const HarnessRun r = s.h.run(race, {}, {}, limit);
  if (r.timed_out()) return error("timeout", "the race analysis did not finish in time");
  if (!r.record) return ended(s, r, "race analysis");
  const tools::HarnessRecord& rec = *r.record;
  VerdictNote& n = verdict_note();
  n.race_random_programs = rec.random_programs;
  n.race_seed_programs = rec.programs - rec.random_programs;
  if (r.is("finding")) return harness_finding(s, r, fmt::format("race, {:.1f} s", since(t)));
  if (!r.is("ok"))
    return error(fmt::format("the harness failed in the race analysis ({}: {})", rec.outcome,
                             rec.detail));
  if (rec.programs == 0) return error("the race analysis ran 0 programs: no verdict");
  if (rec.random_programs != s.o.race_programs)
    return error(fmt::format("the race analysis ran {} of the {} random programs asked: no "
                             "verdict", rec.random_programs, s.o.race_programs));
  fmt::print("  race: no reader class only the candidate reaches ({} programs: {} seeds, {} "
             "random; {}; {:.1f} s)\n",
             rec.programs, n.race_seed_programs, n.race_random_programs, rec.detail, since(t));
  return kExitOk;
}

int run_steps(Session& s) {
  if (s.o.in_kernel) return run_in_kernel_check(s);
  if (int rc = prepare(s); rc != kExitOk) return rc;
  s.checks_start = std::chrono::steady_clock::now();
  if (!s.o.replay.empty()) return run_replay(s);
  if (s.o.fail_alloc)
    if (int rc = run_fail_alloc(s); rc != kExitOk) return rc;
  if (s.o.race)
    if (int rc = run_race(s); rc != kExitOk) return rc;
  if (!s.o.no_properties)
    if (int rc = run_properties(s); rc != kExitOk) return rc;
  if (s.o.time > 0)
    if (int rc = run_fuzzing(s); rc != kExitOk) return rc;
  if (s.o.no_properties && s.o.time <= 0 && !s.o.fail_alloc && !s.o.race)
    return error("nothing was checked (--no-properties and --time 0): no verdict");
  const VerdictNote& n = verdict_note();
  fmt::print("\nverdict: EQUIVALENT at level {} ({}{}; {:.1f} s in all)\n", s.level,
             s.o.no_properties
                 ? "no property run"
                 : fmt::format("properties, model oracle: {} programs, {} ops", n.programs, n.ops),
             s.o.time <= 0
                 ? ""
                 : fmt::format(", {} s of fuzzing: {} inputs, {:.0f}/s", s.o.time,
                               n.executions, n.inputs_per_second),
             since(s.start));
  s.print_forms();
  verdict_note().verdict = "equivalent";
  return kExitOk;
}

// --verdict-json: the verdict as data (diffsched mutate reads it).
void write_verdict_json(const Session& s, int rc) {
  const VerdictNote& n = verdict_note();
  nlohmann::json j = {{"exit", rc},
                      {"verdict", n.verdict.empty() ? "error" : n.verdict},
                      {"kind", n.kind},
                      {"signature", n.signature},
                      {"detail", n.detail},
                      {"reproducer", n.reproducer},
                      {"input", n.input},
                      {"seconds", since(s.start)},
                      {"check_seconds", since(s.checks_start)},
                      {"found_seconds", n.found_seconds},
                      {"found_in", n.found_in},
                      {"programs", n.programs},
                      {"ops", n.ops},
                      {"executions", n.executions},
                      {"fuzz_seconds", n.fuzz_seconds},
                      {"inputs_per_second", n.inputs_per_second},
                      {"race_seed_programs", n.race_seed_programs},
                      {"race_random_programs", n.race_random_programs},
                      {"race_fuzz_inputs", n.race_fuzz_inputs},
                      {"race_fuzz_cut", n.race_fuzz_cut},
                      {"changes", s.changes_used},
                      {"forms", s.forms},
                      {"find_returns", s.find_returns}};
  std::ofstream f(s.o.verdict_json, std::ios::binary | std::ios::trunc);
  f << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  f.flush();
  if (!f) error(fmt::format("cannot write {}", s.o.verdict_json));
}

}  // namespace

int run_kernel_check(KernelCheckOptions o) {
  tools::stop_children_on_signal();  // SIGINT/SIGTERM: the harness, a compiler go too
  Session s;
  s.o = std::move(o);
  verdict_note() = {};
  int rc = run_steps(s);
  if (rc != kExitOk && rc != kExitFinding && rc != kExitOutOfDomain) verdict_note().verdict = "error";
  if (!s.o.verdict_json.empty()) write_verdict_json(s, rc);
  return rc;
}

}  // namespace diffsched::kcheck
