// The steps of kernel-check after prepare(): --replay alone, or allocation
// failure (--fail-alloc), the property run and fuzzing, each ending in a
// verdict: EQUIVALENT (0), FINDING (1, with a reproducer and the command that
// replays it), or an error (2). A harness status is mapped by name
// (tools/kcheck_status.h); a status no step expects is an error, never a pass.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/kernel_check/kernel_check.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::cli::kernel_check {

namespace {

using namespace kcheck;  // the harness's statuses

int report_finding(const Session& s, const std::string& how) {
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
  return kExitFinding;
}

// A finding that is not minimised: the input itself is the reproducer.
int report_input(const Session& s, const std::string& what, const fs::path& input, bool raw) {
  fmt::print("\nverdict: FINDING ({})\ninput: {}\nreplay it against the candidate:\n  {}\n", what,
             input.string(), replay_command(s.o, input, raw));
  s.print_forms();
  return kExitFinding;
}

// --replay: one program, traced by the harness.
int run_replay(Session& s) {
  const double limit = s.o.hang_seconds + kReplayStartSlack;  // longer is a hang
  KernelCheckOptions r = s.h.with_mode("replay");
  r.input = fs::absolute(s.o.replay).string();
  r.raw = s.o.raw;
  const int rc = s.h.run(r, {}, {}, limit);
  std::error_code ec;
  if (s.o.work_dir.empty()) fs::remove_all(s.work, ec);  // only staging: nothing to keep
  switch (rc) {
    case kHarnessOk: return kExitOk;
    case kHarnessFinding: return kExitFinding;
    case kHarnessOutOfDomain: return kExitOutOfDomain;  // printed by the harness
    case kHarnessTimedOut:
      fmt::print("FINDING: the replay did not finish within {:.0f} s: a hang in the candidate\n",
                 limit);
      return kExitFinding;
    case kHarnessSanitizer:
      fmt::print("FINDING: a sanitizer stopped the replay (report above)\n");
      return kExitFinding;
    default:
      return error(fmt::format("the harness could not replay {} (status {})", s.o.replay, rc));
  }
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
    KernelCheckOptions r = s.h.with_mode("alloc");
    r.fail_alloc_at = n;
    const int rc = s.h.run(r, {}, {}, kWatchdogSlack, leaks);
    if (rc == kHarnessOk) continue;
    if (rc == kHarnessAllocsExhausted) break;
    if (rc == kHarnessTimedOut)
      return error(fmt::format("cpudl_init() with allocation {} failing did not return within "
                               "{:.0f} s", n, kWatchdogSlack));
    if (rc == kHarnessFinding || rc == kHarnessSanitizer) {
      std::string cmd = replay_command(s.o, "");
      cmd = cmd.substr(0, cmd.find(" --replay"));
      fmt::print("\nverdict: FINDING (cpudl_init() with allocation {} failing{}; {:.1f} s)\n"
                 "replay it against the candidate:\n  {} --fail-alloc --time 0 --runs 0\n",
                 n, rc == kHarnessSanitizer ? ": the sanitizer's report is above" : "", since(t),
                 cmd);
      s.print_forms();
      return kExitFinding;
    }
    return error(fmt::format("the harness failed in the allocation run (status {})", rc));
  }
  fmt::print("  allocation failure: {} failure paths return -ENOMEM cleanly ({:.1f} s)\n",
             n - 1, since(t));
  return kExitOk;
}

// The input the harness saved when a program of the property run crashed or
// hung: <output>.crash.ops (a seed file) or <output>.crash (random bytes).
std::pair<fs::path, bool> saved_input(const Session& s) {
  const fs::path ops_in = s.min_ops.string() + ".crash.ops", raw_in = s.min_ops.string() + ".crash";
  const bool raw = !fs::exists(ops_in);
  return {raw ? raw_in : ops_in, raw};
}

// The watchdog's allowance for an --exhaustive run (millions of programs
// under the sanitizers at most; each has its own --hang-seconds alarm).
constexpr double kExhaustiveSeconds = 1800;

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
  KernelCheckOptions r = s.h.with_mode("check");
  r.seeds = (tools::source_dir() / "corpus" / "seeds" / s.target).string();
  r.output = fs::absolute(s.min_ops).string();
  const int rc = s.h.run(r, {}, {}, limit);
  switch (rc) {
    case kHarnessOk:
      fmt::print("  properties: no finding ({:.1f} s)\n", since(t));
      return kExitOk;
    case kHarnessFinding:
      return report_finding(s, fmt::format("properties, {:.1f} s", since(t)));
    case kHarnessHang: {
      const auto [input, raw] = saved_input(s);
      return report_input(s,
                          fmt::format("a hang: one program of the property run did not finish "
                                      "within --hang-seconds {}; {:.1f} s; not minimised",
                                      o.hang_seconds, since(t)),
                          input, raw);
    }
    case kHarnessSanitizer: {
      // The candidate crashed the harness; its death callback saved the input.
      const auto [input, raw] = saved_input(s);
      fmt::print("  a sanitizer stopped the property run (report above); input {}\n",
                 input.string());
      if (minimize_crash(s, input, raw, s.min_ops))
        return report_finding(s, fmt::format("sanitizer, property run, {:.1f} s", since(t)));
      return report_input(s, "a sanitizer error in the property run; not minimised", input, raw);
    }
    case kHarnessTimedOut:
      return error(fmt::format("the property run did not finish within {:.0f} s (its programs "
                               "each have --hang-seconds; see above)", limit));
    default:
      return error(fmt::format("the harness failed in the property run (status {})", rc));
  }
}

// A finding of the fuzzer (an artifact in the work directory): reported, and
// minimised where that is safe.
int fuzz_finding(Session& s, const fs::path& crash, const fs::path& log,
                 std::chrono::steady_clock::time_point t) {
  fmt::print("  fuzzing: finding after {:.1f} s: {}\n", since(t), crash.string());
  if (crash.filename().string().starts_with("timeout-"))  // replaying it would hang again
    return report_input(s,
                        fmt::format("a hang: an input ran longer than --hang-seconds {} in "
                                    "fuzzing, {:.1f} s; not minimised",
                                    s.o.hang_seconds, since(t)),
                        crash, true);
  const std::string log_text = util::read_text(log);
  if (const std::size_t at = util::sanitizer_report_start(log_text); at != std::string::npos) {
    // A memory or UB error in the candidate: the report is the finding;
    // minimising in the harness would re-run the crashing code in-process.
    fmt::print("{}\n", log_text.substr(at, 4000));
    if (minimize_crash(s, crash, true, s.min_ops))
      return report_finding(s, fmt::format("sanitizer, fuzzing, {:.1f} s", since(t)));
    return report_input(s, "a sanitizer error in fuzzing; not minimised", crash, true);
  }
  KernelCheckOptions r = s.h.with_mode("minimize");
  r.input = fs::absolute(crash).string();
  r.raw = true;
  r.output = fs::absolute(s.min_ops).string();
  const int rc = s.h.run(r, {}, {}, kWatchdogSlack + (s.o.minimize_seconds > 0
                                                           ? s.o.minimize_seconds
                                                           : kUnboundedMinimize));
  if (rc == kHarnessTimedOut || rc == kHarnessSanitizer)  // only its minimisation failed
    return report_input(s,
                        fmt::format("fuzzing, {:.1f} s; the minimisation {}, so the reproducer "
                                    "is the fuzzer's input, not minimised",
                                    since(t),
                                    rc == kHarnessTimedOut ? "did not finish in time" : "crashed"),
                        crash, true);
  if (rc != kHarnessFinding)
    return error(fmt::format("could not minimise {} (status {}); see {}", crash.string(), rc,
                             log.string()));
  return report_finding(s, fmt::format("fuzzing, {:.1f} s", since(t)));
}

// The fuzz campaign (libFuzzer in the harness). kExitOk to go on, or the verdict.
int run_fuzzing(Session& s) {
  const KernelCheckOptions& o = s.o;
  const auto t = std::chrono::steady_clock::now();
  const fs::path corpus = s.work / "corpus";
  std::error_code ec;
  fs::create_directories(corpus, ec);
  for (const auto& e : fs::directory_iterator(tools::source_dir() / "corpus" / s.target, ec))
    fs::copy_file(e.path(), corpus / e.path().filename(), fs::copy_options::skip_existing, ec);
  const fs::path log = s.work / "fuzz.log";
  const std::string dict =
      (tools::source_dir() / "fuzz" / (o.subject == "pick" ? "pick.dict" : "cpudl.dict")).string();
  fmt::print("  fuzzing: {} s of libFuzzer (seed {}), log {}\n", o.time, o.seed, log.string());
  const int rc = s.h.run(s.h.with_mode("fuzz"),
                         {fmt::format("-max_total_time={}", static_cast<long>(o.time + 0.5)),
                          fmt::format("-seed={}", o.seed), "-dict=" + dict, "-max_len=4096",
                          fmt::format("-timeout={}", o.hang_seconds), "-detect_leaks=0",
                          "-print_final_stats=1", "-artifact_prefix=" + (s.artifacts / "").string(),
                          corpus.string()},
                         log, o.time + kWatchdogSlack);
  const fs::path crash = find_crash(s.artifacts);
  if (!crash.empty()) return fuzz_finding(s, crash, log, t);
  if (rc == kHarnessTimedOut)
    return error(fmt::format("the fuzzer did not stop within --time + {:.0f} s; see {}",
                             kWatchdogSlack, log.string()));
  if (rc != kHarnessOk)
    return error(fmt::format("the fuzzer stopped with status {} without a finding; see {}", rc,
                             log.string()));
  fmt::print("  fuzzing: no finding ({:.1f} s)\n", since(t));
  return kExitOk;
}

}  // namespace

int run_kernel_check(KernelCheckOptions o) {
  Session s;
  s.o = std::move(o);
  if (s.o.in_kernel) return run_in_kernel_check(s);
  if (int rc = prepare(s); rc != kExitOk) return rc;
  if (!s.o.replay.empty()) return run_replay(s);
  if (s.o.fail_alloc)
    if (int rc = run_fail_alloc(s); rc != kExitOk) return rc;
  if (!s.o.no_properties)
    if (int rc = run_properties(s); rc != kExitOk) return rc;
  if (s.o.time > 0)
    if (int rc = run_fuzzing(s); rc != kExitOk) return rc;
  fmt::print("\nverdict: EQUIVALENT at level {} ({}{}; {:.1f} s in all)\n", s.level,
             s.o.no_properties ? "no property run" : "properties, model oracle",
             s.o.time <= 0 ? "" : fmt::format(", {} s of fuzzing", s.o.time), since(s.start));
  s.print_forms();
  return kExitOk;
}

}  // namespace diffsched::cli::kernel_check
