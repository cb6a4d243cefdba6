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
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>

#include "engine/exit_status.h"
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

namespace {

double number_after(const std::string& text, const std::regex& re) {
  std::smatch m;
  if (std::regex_search(text, m, re)) return std::stod(m[1].str());
  return -1;
}

std::string last_error_line(const std::string& output) {
  const std::string tag = "diffsched: error: ";
  const std::size_t at = output.rfind(tag);
  if (at == std::string::npos) return {};
  return output.substr(at + tag.size(), output.find('\n', at) - at - tag.size());
}

}  // namespace

Outcome classify(int exit_status, const std::string& output) {
  Outcome o;
  static const std::regex kProps(R"(properties: no finding \(([0-9.]+) s\))");
  static const std::regex kFuzzKill(R"(fuzzing: finding after ([0-9.]+) s)");
  static const std::regex kVerdictSecs(R"(verdict: FINDING \([^\n]*?([0-9]+\.[0-9]+) s)");
  static const std::regex kAllSecs(R"(; ([0-9.]+) s in all\))");
  static const std::regex kSignature(R"(signature ([a-z_]+):([a-z-]+):([^:\s]+):)");
  if (exit_status == -1) {
    o.status = Status::kTimeout;
    o.detail = "kernel-check gave no verdict within its watchdog";
    return o;
  }
  if (exit_status == kExitOk) {
    o.status = Status::kSurvived;
    o.seconds = std::max(0.0, number_after(output, kAllSecs));
    return o;
  }
  if (exit_status == kExitFinding) {
    o.status = Status::kKilled;
    const double props = std::max(0.0, number_after(output, kProps));
    if (const double f = number_after(output, kFuzzKill); f >= 0)
      o.seconds = props + f;
    else
      o.seconds = std::max(0.0, number_after(output, kVerdictSecs));
    std::smatch m;
    const std::size_t verdict = output.find("verdict: FINDING");
    const std::string verdict_line =
        verdict == std::string::npos ? "" : output.substr(verdict, output.find('\n', verdict) - verdict);
    if (verdict_line.find("a hang") != std::string::npos ||
        output.find("did not finish within") != std::string::npos) {
      o.check = "hang";
    } else if (verdict_line.find("sanitizer") != std::string::npos ||
               util::sanitizer_report_start(output) != std::string::npos) {
      o.check = "sanitizer";
    } else if (std::regex_search(output, m, kSignature)) {
      o.signature = m[0].str().substr(10);
      const std::string kind = m[2].str(), check = m[3].str();
      o.check = kind == "invariant" ? (check == "WARN_ON" ? "WARN_ON" : "invariant")
                : kind == "model-mismatch" ? "model"
                                           : kind;  // divergence, out-of-domain
    } else if (output.find("FINDING: cpudl_init()") != std::string::npos) {
      o.check = "alloc";
    } else {
      o.check = "other";
    }
    return o;
  }
  const std::string why = last_error_line(output);
  o.detail = why;
  // cpudl_init() failing with no allocation failing: the harness cannot run
  // the file (kernel-check exit 2), and a kernel could not set up the root
  // domain: the checks did catch the mutant.
  static const std::regex kInit(R"(kcheck: candidate: cpudl_init\(\) returned (-?[0-9]+))");
  if (std::smatch m; exit_status == kExitBadInput && std::regex_search(output, m, kInit)) {
    o.status = Status::kKilled;
    o.check = "init";
    o.signature = "cpudl_init() returned " + m[1].str();
    o.detail.clear();
    return o;
  }
  if (exit_status == kExitBadInput &&
      (why.find("does not build") != std::string::npos ||
       why.find("does not link") != std::string::npos ||
       why.find("API form") != std::string::npos ||
       why.find("unsupported signature") != std::string::npos ||
       why.find("return statements") != std::string::npos ||
       why.find("defines no function") != std::string::npos ||
       why.find("declares") != std::string::npos)) {
    o.status = Status::kCompileError;
    return o;
  }
  if (why.find("did not finish within") != std::string::npos) {  // the property run's watchdog
    o.status = Status::kTimeout;
    return o;
  }
  o.status = Status::kError;
  if (o.detail.empty()) o.detail = fmt::format("kernel-check exited with status {}", exit_status);
  return o;
}

std::string detected_find_returns(const std::string& output) {
  if (output.find("cpudl_find() returns 0/1") != std::string::npos) return "0/1";
  if (output.find("cpudl_find() returns a CPU or -1") != std::string::npos) return "cpu";
  return {};
}

namespace {

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;  // SIGINT/SIGTERM received: stop, kill the children

extern "C" void mutate_on_signal(int sig) {
  g_signal = sig;
  g_stop = true;
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// Runs argv with output to log; -1 if the watchdog killed it after `limit` s.
int run_with_watchdog(const std::vector<std::string>& argv, const fs::path& log, double limit) {
  tools::RunOptions ro;
  ro.log = log;
  ro.new_process_group = true;
  const pid_t pid = tools::spawn(argv, ro);
  if (pid < 0) return kExitBadInput;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int st = 0;
    const pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(st)) return WEXITSTATUS(st);
      if (WIFSIGNALED(st)) return kExitSignalBase + WTERMSIG(st);
      return kExitBadInput;
    }
    if (r < 0) return kExitBadInput;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (t > limit || g_stop) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      return g_stop ? kExitSignalBase + (g_signal ? g_signal : SIGINT) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::vector<std::string> kernel_check_args(const RunOptions& o, const fs::path& file,
                                           const fs::path& work, double budget,
                                           std::uint64_t seed) {
  std::vector<std::string> a = {o.self.string(), "kernel-check", o.subject, "--candidate",
                                file.string(), "--time", fmt::format("{}", budget), "--runs",
                                std::to_string(o.runs), "--seed", std::to_string(seed),
                                "--hang-seconds", fmt::format("{}", o.hang_seconds),
                                // The kill is what counts, not a minimal reproducer.
                                "--minimize-seconds", "1", "--minimize-tries", "1",
                                "--work-dir", work.string()};
  if (o.harness.empty()) a.push_back("--no-build");
  else a.insert(a.end(), {"--harness", o.harness.string()});
  if (o.subject == "pick") a.insert(a.end(), {"--function", o.function});
  if (!o.api.empty()) a.insert(a.end(), {"--api", o.api});
  if (!o.header.empty()) a.insert(a.end(), {"--header", o.header.string()});
  // The allocation-failure paths of cpudl_init() are run only with --fail-alloc.
  if (o.subject == "cpudl") a.push_back("--fail-alloc");
  // The capacity branch of cpudl_find() runs only with --capacity, which
  // needs a baseline file: the original, the one reference a mutant has.
  if (!o.capacity.empty())
    a.insert(a.end(), {"--capacity", o.capacity, "--baseline", o.candidate.string()});
  if (!o.find_returns.empty()) a.insert(a.end(), {"--find-returns", o.find_returns});
  return a;
}

Outcome run_one(const Mutant& m, const RunOptions& o, double budget, std::uint64_t seed,
                const std::string& tag, bool exhaustive = false) {
  const fs::path dir = o.out / m.id;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path file = dir / o.candidate.filename();
  write_text(file, m.text);
  write_text(dir / "mutant.diff", m.diff);
  const fs::path work = dir / ("work" + tag);
  fs::remove_all(work, ec);
  const fs::path log = dir / ("kernel-check" + tag + ".log");
  // The watchdog: the budget, the hang limit of the property run and of
  // fuzzing, building under load, and kernel-check's own 30 s slack.
  const double limit = budget + 2 * o.hang_seconds + o.runs / 100.0 + 90;
  std::vector<std::string> args = kernel_check_args(o, file, work, budget, seed);
  double watchdog = limit;
  if (exhaustive) {
    // Only the enumerated programs: no seeds, no random programs, no fuzzing,
    // no allocation failures (those ran already).
    std::erase(args, std::string("--fail-alloc"));
    args.emplace_back("--exhaustive");
    for (unsigned b : o.equiv_bounds) args.push_back(std::to_string(b));
    watchdog = limit + 1800;  // kernel-check's own allowance for it
  }
  const int rc = run_with_watchdog(args, log, watchdog);
  Outcome out = classify(rc, util::read_text(log));
  out.log = log;
  if (out.status != Status::kError || rc < kExitSignalBase) fs::remove_all(work, ec);
  if (rc == kExitSignalBase + SIGINT || rc == kExitSignalBase + SIGTERM) g_stop = true;
  return out;
}

}  // namespace

std::vector<Outcome> run_mutants(const std::vector<Mutant>& mutants, const RunOptions& o,
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
        const std::string bounds = exhaustive_bounds_text(o.subject, o.equiv_bounds);
        if (!o.capacity.empty()) {
          r.detail += "; no exhaustive check: the capacity branch's finds are not enumerated";
        } else {
          RunOptions eo = o;
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

std::uint64_t exhaustive_programs(const std::string& subject, const std::vector<unsigned>& b) {
  if (subject == "pick") return b.size() == 1 ? std::uint64_t{1} << (3 * b[0]) : 0;
  if (b.size() != 3) return 0;
  const std::uint64_t n = b[0], d = b[1], choices = n * (d + 3) + d * ((1u << n) - 1);
  std::uint64_t p = 1;
  for (unsigned i = 0; i < b[2]; ++i) p *= choices;
  return p;
}

std::string exhaustive_bounds_text(const std::string& subject, const std::vector<unsigned>& b) {
  if (subject == "pick")
    return fmt::format("{} programs of 1 pick, {} CPUs, every dst/cpus/allowed mask",
                       exhaustive_programs(subject, b), b.at(0));
  static constexpr std::string_view kDeadlines[] = {"0", "1", "2^64-1", "2", "2^63"};
  std::string dls;
  for (unsigned i = 0; i < b.at(1) && i < std::size(kDeadlines); ++i)
    dls += (dls.empty() ? "" : ", ") + std::string(kDeadlines[i]);
  return fmt::format("{} programs of <= {} ops, {} CPUs, {} deadlines ({})",
                     exhaustive_programs(subject, b), b.at(2), b.at(0), b.at(1), dls);
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
  fmt::format_to(out, "# diffsched mutate {}: {}\n\n", subject, candidate);
  fmt::format_to(out, "{} mutants generated, {} run (budget {} s of fuzzing each, --runs {}, seed {}, {} jobs)\n\n",
    generated, mutants.size(), options.budget, options.runs, options.seed, options.jobs);
  if (options.equiv_bounds.empty())
    fmt::format_to(out, "survivors: no exhaustive check (--no-equiv)\n\n");
  else if (!options.capacity.empty())
    fmt::format_to(out, "survivors: no exhaustive check (capacity on: its finds are not "
                        "enumerated)\n\n");
  else
    fmt::format_to(out, "survivors: exhaustive check over all {}{}\n\n",
                   exhaustive_bounds_text(subject, options.equiv_bounds), "");
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
  j["subject"] = subject;
  j["candidate"] = candidate;
  j["score"] = s < 0 ? nlohmann::json(nullptr) : nlohmann::json(s);
  j["generated"] = generated;
  j["budget"] = options.budget;
  j["seed"] = options.seed;
  if (options.equiv_bounds.empty() || !options.capacity.empty()) {
    j["equivalence"] = nullptr;
  } else {
    nlohmann::json e = {{"programs", exhaustive_programs(subject, options.equiv_bounds)},
                        {"cpus", options.equiv_bounds.at(0)},
                        {"text", exhaustive_bounds_text(subject, options.equiv_bounds)}};
    if (subject == "cpudl") {
      e["deadlines"] = options.equiv_bounds.at(1);
      e["ops"] = options.equiv_bounds.at(2);
    } else {
      e["ops"] = 1;
    }
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
