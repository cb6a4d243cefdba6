// mutate/run.h: kernel-check per mutant (subprocesses, --jobs workers, a
// watchdog each), the classification of its output, and the report.
#include "mutate/run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/wait.h>

#include "engine/exit_status.h"
#include "io/load.h"
#include "kcheck/options.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::mutate {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::kKilled: return "killed";
    case Status::kSurvived: return "survived";
    case Status::kTimeout: return "timeout";
    case Status::kCompileError: return "compile_error";
    case Status::kEquivalent: return "equivalent";
    case Status::kError: return "error";
  }
  return "?";
}

// The verdict is data: kernel-check's --verdict-json file, written by
// kernel-check itself. Nothing the mutant prints (its output is in the log,
// next to kernel-check's) is read: a mutant that prints a verdict, a
// signature or a harness message changes nothing here.
Outcome classify(int exit_status, const std::string& verdict_json) {
  Outcome o;
  if (exit_status == tools::kExitTimedOut) {
    o.status = Status::kTimeout;
    o.detail = "kernel-check gave no verdict within its watchdog";
    return o;
  }
  const nlohmann::json j = nlohmann::json::parse(verdict_json, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("verdict") ||
      j.value("exit", -100) != exit_status) {
    o.status = Status::kError;
    o.detail = fmt::format("kernel-check exited with status {} and no verdict file", exit_status);
    return o;
  }
  const std::string verdict = j.value("verdict", ""), kind = j.value("kind", "");
  o.seconds = std::max(0.0, j.value("check_seconds", j.value("seconds", 0.0)));
  o.signature = j.value("signature", "");
  if (verdict == "equivalent" && exit_status == kExitOk) {
    o.status = Status::kSurvived;
    o.seconds = std::max(0.0, j.value("seconds", 0.0));
    return o;
  }
  if (verdict == "finding" && exit_status == kExitFinding) {
    o.status = Status::kKilled;
    o.check = kind.empty() ? "other" : kind;
    return o;
  }
  o.detail = j.value("detail", "");
  // cpudl_init() failing with no allocation failing: the harness cannot run
  // the file (kernel-check exit 2; the harness's result record says so), and
  // a kernel could not set up the root domain: the checks did catch the mutant.
  if (exit_status == kExitBadInput && kind == "init") {
    o.status = Status::kKilled;
    o.check = "init";
    o.signature = o.detail;
    o.detail.clear();
    return o;
  }
  if (exit_status == kExitBadInput && kind == "build") {
    o.status = Status::kCompileError;
    return o;
  }
  if (kind == "timeout") {  // a watchdog of kernel-check's
    o.status = Status::kTimeout;
    return o;
  }
  o.status = Status::kError;
  if (o.detail.empty()) o.detail = fmt::format("kernel-check exited with status {}", exit_status);
  return o;
}

std::string detected_find_returns(const std::string& verdict_json) {
  const nlohmann::json j = nlohmann::json::parse(verdict_json, nullptr, false);
  if (!j.is_object() || !j.contains("find_returns") || !j["find_returns"].is_string()) return {};
  const std::string word = j["find_returns"].get<std::string>();
  return word == "0/1" || word == "cpu" ? word : std::string();
}

namespace {

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;  // SIGINT/SIGTERM received: stop, kill the children

extern "C" void mutate_on_signal(int sig) {
  g_signal = sig;
  g_stop = true;
}

// Runs argv with output to log under the watchdog: tools::kExitTimedOut
// when it ran out, 128+signal when we were interrupted (the child's group
// is killed either way), kExitBadInput when it could not start.
int run_with_watchdog(const std::vector<std::string>& argv, const fs::path& log, double limit) {
  const int rc = tools::run({.argv = argv, .log = log, .new_process_group = true,
                             .deadline = limit, .stop = [] { return g_stop.load(); }});
  if (rc == tools::kExitStopped) return kExitSignalBase + (g_signal ? g_signal : SIGINT);
  return rc == -1 ? kExitBadInput : rc;
}

// Where kernel-check writes its verdict (--verdict-json), beside its work directory.
fs::path verdict_file(const fs::path& work) {
  return work.parent_path() / (work.filename().string() + ".verdict.json");
}

// kernel-check's options for one mutant, as data; its command line comes
// from kernel-check's option table (tools::cli_args), never by hand.
tools::KernelCheckOptions kernel_check_options(const MutateSettings& o, const fs::path& file,
                                               const fs::path& work, double budget,
                                               std::uint64_t seed) {
  tools::KernelCheckOptions k;
  k.tool = o.subject;
  k.candidate = file.string();
  k.time = budget;
  k.runs = o.runs;
  k.seed = static_cast<unsigned>(seed);
  k.hang_seconds = o.hang_seconds;
  // The kill is what counts, not a minimal reproducer.
  k.minimize_seconds = 1;
  k.minimize_tries = 1;
  k.work_dir = work.string();
  k.verdict_json = verdict_file(work).string();
  if (o.harness.empty()) k.no_build = true;
  else k.harness = o.harness.string();
  if (!o.function.empty()) k.function = o.function;
  if (!o.api.empty()) k.api = o.api;
  k.header = o.header.string();
  // The allocation-failure paths of cpudl_init() are run only with --fail-alloc.
  k.fail_alloc = o.subject->alloc_failures;
  // The capacity branch of cpudl_find() runs only with --capacity, which
  // needs a baseline file: the original, the one reference a mutant has.
  if (!o.capacity.empty()) {
    k.capacity = o.capacity;
    k.baseline = o.candidate.string();
  }
  if (!o.find_returns.empty()) k.find_returns = o.find_returns;
  return k;
}

Outcome run_one(const Mutant& m, const MutateSettings& o, double budget, std::uint64_t seed,
                const std::string& tag, bool exhaustive = false) {
  const MutantDir md{o.out / m.id};
  const fs::path& dir = md.dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path file = md.candidate(o.candidate);
  // Every write checked: a mutant that could not be written is an error of
  // the run (never a survivor, never a kill), said with the reason.
  std::string why;
  if (ec || !io::write_file(file.string(), m.text, &why) ||
      !io::write_file(md.diff().string(), m.diff, &why)) {
    Outcome out;
    out.status = Status::kError;
    out.detail = ec ? fmt::format("cannot create {}: {}", dir.string(), ec.message())
                    : fmt::format("cannot write the mutant: {}", why);
    return out;
  }
  const fs::path work = md.work(tag);
  fs::remove_all(work, ec);
  const fs::path log = md.log(tag);
  fs::remove(verdict_file(work), ec);
  // The watchdog: the budget, the hang limit of the property run and of
  // fuzzing, building under load, and kernel-check's own 30 s slack.
  const double limit = budget + 2 * o.hang_seconds + o.runs / 100.0 + 90;
  tools::KernelCheckOptions k = kernel_check_options(o, file, work, budget, seed);
  double watchdog = limit;
  if (exhaustive) {
    // Only the enumerated programs: no seeds, no random programs, no fuzzing,
    // no allocation failures (those ran already).
    k.fail_alloc = false;
    k.exhaustive = o.equiv_bounds;
    watchdog = limit + 1800;  // kernel-check's own allowance for it
  }
  std::vector<std::string> args = tools::cli_args(k);
  args.insert(args.begin(), o.self.string());
  const int rc = run_with_watchdog(args, log, watchdog);
  Outcome out = classify(rc, util::read_text(verdict_file(work)));
  out.log = log;
  out.verdict = verdict_file(work);
  if (out.status != Status::kError || rc < kExitSignalBase) fs::remove_all(work, ec);
  if (rc == kExitSignalBase + SIGINT || rc == kExitSignalBase + SIGTERM) g_stop = true;
  return out;
}

}  // namespace

std::vector<Outcome> run_mutants(const std::vector<Mutant>& mutants, const MutateSettings& o,
                                 bool* interrupted) {
  g_stop = false;
  g_signal = 0;
  // The children run in their own process groups (so that the watchdog can
  // kill a whole kernel-check); a signal to us stops them here.
  struct sigaction sa {}, old_int{}, old_term{};
  sa.sa_handler = mutate_on_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  std::vector<Outcome> out(mutants.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next++;
      if (i >= mutants.size() || g_stop) return;
      const Mutant& m = mutants[i];
      Outcome r = run_one(m, o, o.budget, o.seed, "");
      if (r.status == Status::kSurvived && o.confirm_survivors && !g_stop) {
        // A survivor gets a second, longer run with another seed before it
        // is reported: a kill there is a kill (its seconds are that run's).
        Outcome again = run_one(m, o, 3 * o.budget, o.seed + 1, "-confirm");
        if (again.status == Status::kKilled) {
          again.detail = fmt::format("killed only by the confirmation run ({} s budget, seed {})",
                                     3 * o.budget, o.seed + 1);
          r = again;
        } else if (again.status == Status::kSurvived) {
          r.detail = fmt::format("survived a confirmation run too ({} s budget, seed {})",
                                 3 * o.budget, o.seed + 1);
        }
      }
      if (r.status == Status::kSurvived && !o.equiv_bounds.empty() && m.id != "original" &&
          !g_stop) {
        const std::string bounds = exhaustive_bounds_text(*o.subject, o.equiv_bounds);
        if (!o.capacity.empty()) {
          r.detail += "; no exhaustive check: the capacity branch's finds are not enumerated";
        } else {
          MutateSettings eo = o;
          eo.runs = 0;
          Outcome e = run_one(m, eo, 0, o.seed, "-exhaustive", true);
          if (e.status == Status::kSurvived) {
            r.status = Status::kEquivalent;
            r.detail = "no difference over all " + bounds;
            r.log = e.log;
          } else if (e.status == Status::kKilled) {
            e.check = "exhaustive";
            e.detail = "killed only by the exhaustive check (" + bounds + ")";
            r = e;
          } else {
            r.detail += fmt::format("; the exhaustive check gave no verdict ({}{})",
                                    status_name(e.status),
                                    e.detail.empty() ? "" : ": " + e.detail);
          }
        }
      }
      if (m.id != "original") {
        std::lock_guard lock(print);
        fmt::print("  [{}/{}] {} {} {}:{} {}: {}{}\n", i + 1, mutants.size(), m.id,
                   operator_name(m.op), m.function, m.line, m.description, status_name(r.status),
                   r.status == Status::kKilled ? fmt::format(" ({}, {:.2f} s)", r.check, r.seconds)
                   : r.detail.empty()          ? std::string()
                                               : " (" + r.detail + ")");
        std::fflush(stdout);
      }
      out[i] = std::move(r);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::max(1u, o.jobs); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  *interrupted = g_stop;
  return out;
}

int interrupt_status() { return kExitSignalBase + (g_signal == SIGTERM ? SIGTERM : SIGINT); }

std::size_t Report::count(Status s) const {
  return static_cast<std::size_t>(
      std::count_if(outcomes.begin(), outcomes.end(), [&](const Outcome& o) { return o.status == s; }));
}

double Report::score() const {
  const std::size_t denom =
      outcomes.size() - count(Status::kCompileError) - count(Status::kEquivalent);
  if (denom == 0) return -1;
  return static_cast<double>(count(Status::kKilled)) / static_cast<double>(denom);
}

double Report::kill_percentile(double p) const {
  std::vector<double> t;
  for (const auto& o : outcomes)
    if (o.status == Status::kKilled) t.push_back(o.seconds);
  if (t.empty()) return 0;
  std::sort(t.begin(), t.end());
  const std::size_t rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(t.size())));
  return t[std::min(t.size() - 1, rank == 0 ? 0 : rank - 1)];
}

namespace {
constexpr std::string_view kChecks[] = {"invariant", "divergence", "model",         "WARN_ON",
                                        "sanitizer", "hang",       "out-of-domain", "alloc",
                                        "init",      "exhaustive", "other"};
}

std::string Report::markdown() const {
  std::string md;
  auto out = std::back_inserter(md);
  fmt::format_to(out, "# diffsched mutate {}: {}\n\n", subject->name, candidate);
  fmt::format_to(out, "{} mutants generated, {} run (budget {} s of fuzzing each, --runs {}, seed {}, {} jobs)\n\n",
    generated, mutants.size(), options.budget, options.runs, options.seed, options.jobs);
  if (options.equiv_bounds.empty())
    fmt::format_to(out, "survivors: no exhaustive check (--no-equiv)\n\n");
  else if (!options.capacity.empty())
    fmt::format_to(out, "survivors: no exhaustive check (capacity on: its finds are not "
                        "enumerated)\n\n");
  else
    fmt::format_to(out, "survivors: exhaustive check over all {}{}\n\n",
                   exhaustive_bounds_text(*subject, options.equiv_bounds), "");
  const double s = score();
  fmt::format_to(out, "| status | mutants |\n|---|---|\n");
  for (Status st : {Status::kKilled, Status::kSurvived, Status::kTimeout, Status::kCompileError,
                    Status::kEquivalent, Status::kError})
    fmt::format_to(out, "| {} | {} |\n", status_name(st), count(st));
  fmt::format_to(out, "\n**mutation score: {}** (killed / (all - compile errors - equivalent) = {} / {})\n\n",
    s < 0 ? std::string("n/a") : fmt::format("{:.1f}%", 100 * s), count(Status::kKilled),
    outcomes.size() - count(Status::kCompileError) - count(Status::kEquivalent));
  fmt::format_to(out, "time to kill (check time, the build excluded): median {:.2f} s, p90 {:.2f} s, max {:.2f} s\n\n",
    kill_percentile(50), kill_percentile(90), kill_percentile(100));
  // The kill matrix: operator x check, only the checks that killed something.
  std::map<std::pair<std::string, std::string>, int> cell;
  std::map<std::string, int> used;
  for (std::size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i].status == Status::kKilled) {
      ++cell[{std::string(operator_name(mutants[i].op)), outcomes[i].check}];
      ++used[outcomes[i].check];
    }
  fmt::format_to(out, "## Kill matrix (operator x killing check)\n\n| operator |");
  std::vector<std::string_view> cols;
  for (auto c : kChecks)
    if (used.contains(std::string(c))) cols.push_back(c);
  for (auto c : cols) fmt::format_to(out, " {} |", c);
  fmt::format_to(out, " survived |\n|---|");
  for (std::size_t i = 0; i <= cols.size(); ++i) fmt::format_to(out, "---|");
  fmt::format_to(out, "\n");
  for (Operator op : kAllOperators) {
    int any = 0, surv = 0;
    for (std::size_t i = 0; i < mutants.size(); ++i)
      if (mutants[i].op == op) {
        ++any;
        surv += outcomes[i].status == Status::kSurvived;
      }
    if (!any) continue;
    fmt::format_to(out, "| {} |", operator_name(op));
    for (auto c : cols) fmt::format_to(out, " {} |", cell[{std::string(operator_name(op)), std::string(c)}]);
    fmt::format_to(out, " {} |\n", surv);
  }
  fmt::format_to(out, "\n## Survivors\n\n");
  bool none = true;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const Status st = outcomes[i].status;
    if (st != Status::kSurvived && st != Status::kTimeout && st != Status::kError &&
        st != Status::kEquivalent)
      continue;
    none = false;
    const Mutant& m = mutants[i];
    fmt::format_to(out, "### {} ({}, {}(), line {}): {}\n\n{}{}\n```diff\n{}```\n\n", m.id, operator_name(m.op),
      m.function, m.line, m.description, status_name(st),
      outcomes[i].detail.empty() ? "" : ": " + outcomes[i].detail, m.diff);
  }
  if (none) fmt::format_to(out, "none\n");
  return md;
}

nlohmann::json Report::json() const {
  nlohmann::json j;
  const double s = score();
  j["subject"] = subject->name;
  j["candidate"] = candidate;
  j["score"] = s < 0 ? nlohmann::json(nullptr) : nlohmann::json(s);
  j["generated"] = generated;
  j["budget"] = options.budget;
  j["seed"] = options.seed;
  if (options.equiv_bounds.empty() || !options.capacity.empty()) {
    j["equivalence"] = nullptr;
  } else {
    nlohmann::json e = {{"programs", exhaustive_programs(*subject, options.equiv_bounds)},
                        {"text", exhaustive_bounds_text(*subject, options.equiv_bounds)}};
    // Each bound by its name (checked against the subject by check_equiv_bounds).
    const auto& names = subject->equiv_bound_names;
    for (std::size_t i = 0; i < options.equiv_bounds.size() && i < names.size(); ++i)
      e[std::string(names[i])] = options.equiv_bounds[i];
    if (!e.contains("ops")) e["ops"] = subject->exhaustive_ops;
    j["equivalence"] = e;
  }
  j["time_to_kill"] = {{"p50", kill_percentile(50)}, {"p90", kill_percentile(90)},
                       {"max", kill_percentile(100)}};
  nlohmann::json counts;
  for (Status st : {Status::kKilled, Status::kSurvived, Status::kTimeout, Status::kCompileError,
                    Status::kEquivalent, Status::kError})
    counts[std::string(status_name(st))] = count(st);
  j["counts"] = counts;
  j["mutants"] = nlohmann::json::array();
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const Mutant& m = mutants[i];
    const Outcome& o = outcomes[i];
    j["mutants"].push_back({{"id", m.id},
                            {"operator", operator_name(m.op)},
                            {"function", m.function},
                            {"line", m.line},
                            {"diff", m.diff},
                            {"description", m.description},
                            {"status", status_name(o.status)},
                            {"seconds", o.seconds},
                            {"check", o.check.empty() ? nlohmann::json(nullptr)
                                                      : nlohmann::json(o.check)},
                            {"signature", o.signature},
                            {"detail", o.detail}});
  }
  return j;
}

}  // namespace diffsched::mutate
