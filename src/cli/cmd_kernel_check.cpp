// `diffsched kernel-check cpudl|pick --candidate FILE`: builds a kernel C file
// (an unmodified kernel/sched/cpudeadline.c of any API form, or a kernel-style
// destination pick) through the kshim, then runs the properties with the model
// oracle and a libFuzzer campaign against a baseline in the kcheck harness,
// minimises the first finding and prints the command that replays it.
// Exit: 0 equivalent, 1 finding, 2 could not build or run (one-line reason).
// docs/kernel-check.md describes the shim and what it models.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <optional>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "tools/kernel_check.h"
#include "tools/minimize.h"
#include "tools/process.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;
using tools::KernelApi;

struct KernelCheckOptions {
  std::string subject;  // cpudl | pick
  std::string candidate;
  std::string baseline = "builtin-reference";
  std::string api = "auto";
  std::string find_returns = "auto";  // auto | 0/1 | cpu
  std::string function = "select_dst_cpu";
  std::string header;
  std::string level;
  std::string replay;
  std::string output;
  std::string work_dir;
  std::string harness;
  std::string capacity;
  unsigned task_util = 0;  // 0: per find (the harness draws each find's task)
  std::vector<unsigned> nr_cpus;
  double time = 10;
  unsigned hang_seconds = 10;    // one program (input) longer than this is a hang
  double minimize_seconds = 10;  // the budget of each minimisation
  std::size_t minimize_tries = tools::MinimizeBudget::kDefaultTries;
  unsigned runs = 2000;
  unsigned seed = 1;
  bool no_build = false;
  bool no_properties = false;
  bool raw = false;
  bool fail_alloc = false;
};

// The detected form of each file (cpudl), named in the verdict.
std::string g_forms;
// Files whose cpudl_find() return convention is not recognised.
std::vector<std::string> g_find_return_errors;

void print_forms() {
  if (!g_forms.empty()) fmt::print("{}\n", g_forms);
}

int error(const std::string& message) {
  fmt::print(stderr, "diffsched: error: {}\n", message);
  return kExitBadInput;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A file argument, checked and classified: its API form (cpudl) or that it
// defines the function (pick). Returns kExitOk or prints the reason.
int classify(const KernelCheckOptions& o, const std::string& file, tools::CandidateSpec* spec) {
  std::error_code ec;
  if (fs::is_directory(file, ec))
    return error(fmt::format("{} is a directory (expected a kernel C file)", file));
  if (!fs::exists(file, ec)) return error(fmt::format("{}: no such file", file));
  if (!fs::is_regular_file(file, ec))
    return error(fmt::format("{} is not a regular file (expected a kernel C file)", file));
  const std::string text = read_text(file);
  spec->file = file;
  if (o.subject == "pick") {
    spec->api = KernelApi::kPick;
    spec->function = o.function;
    if (!tools::defines_function(text, o.function))
      return error(fmt::format("{} defines no function {}(dst_grpmask, cpus, allowed) "
                               "(name another with --function)", file, o.function));
    return kExitOk;
  }
  if (o.api != "auto") {
    auto forced = tools::parse_kernel_api(o.api);
    if (!forced) return error(fmt::format("--api '{}': auto, v3.14, v4.8, v4.9 or v6.19", o.api));
    spec->api = *forced;
  } else {
    std::string why;
    auto api = tools::detect_cpudl_api(text, &why);
    if (!api) return error(fmt::format("{}: {}", file, why));
    spec->api = *api;
  }
  std::string why, evidence;
  std::optional<tools::FindReturn> ret;
  if (o.find_returns == "auto") {
    ret = tools::detect_find_return(text, &why, &evidence);
  } else {
    ret = o.find_returns == "cpu" ? tools::FindReturn::kCpu : tools::FindReturn::kBool;
    evidence = "--find-returns " + o.find_returns;
  }
  if (!ret) {
    // Refused once the file is known to build and link (so that what the
    // shim lacks, or a syntax error, is said first).
    g_find_return_errors.push_back(fmt::format("{}: {}", file, why));
    return kExitOk;
  }
  spec->find_return = *ret;
  g_forms += fmt::format("{}form of {}: {} ({})", g_forms.empty() ? "" : "\n", file,
                         tools::describe_cpudl_form(spec->api, *ret), evidence);
  if (!o.header.empty()) {
    spec->header = o.header;
  } else if (const fs::path near = fs::path(file).parent_path() / "cpudeadline.h";
             fs::is_regular_file(near, ec)) {
    spec->header = near;  // the tree's own header, as the kernel build uses it
  }
  return kExitOk;
}

int build(const tools::CandidateSpec& spec, const fs::path& work, bool forced_api, fs::path* so) {
  auto b = tools::build_candidate(spec, work);
  if (!b.ok) {
    if (!b.compiler_output.empty()) fmt::print(stderr, "{}", b.compiler_output);
    std::string why = b.summary.empty() ? "see the compiler's messages above" : b.summary;
    if (forced_api)
      why += fmt::format(" (is --api {} the file's form?)", tools::kernel_api_name(spec.api));
    return error(fmt::format("{} does not build against the kernel shim: {}",
                             spec.file.string(), why));
  }
  fmt::print("  built {} ({} API{}{}) in {:.1f} s\n", spec.file.string(),
             tools::kernel_api_name(spec.api),
             spec.api == KernelApi::kPick
                 ? ""
                 : fmt::format(", cpudl_find() returns {}", tools::find_return_name(spec.find_return)),
             spec.header.empty() ? "" : fmt::format(", header {}", spec.header.string()),
             b.seconds);
  *so = b.shared_object;
  return kExitOk;
}

// The status Harness::run returns when its watchdog killed the harness.
constexpr int kTimedOut = -2;

struct Harness {
  fs::path binary;
  std::vector<std::pair<std::string, std::string>> env;

  // Runs the harness in `mode`; after `limit` seconds (> 0) it is killed and
  // kTimedOut returned, so that no harness run (a hang in the candidate, a
  // slow minimisation) can keep the verdict from coming.
  int run(const std::string& mode, std::vector<std::pair<std::string, std::string>> extra,
          std::vector<std::string> args = {}, const fs::path& log = {}, double limit = 0) const {
    tools::RunOptions o;
    o.env = env;
    o.env.emplace_back("KCHECK_MODE", mode);
    for (auto& e : extra) o.env.push_back(std::move(e));
    o.log = log;
    std::vector<std::string> argv = {binary.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::fflush(stdout);
    const pid_t pid = tools::spawn(argv, o);
    if (pid < 0 || limit <= 0) return tools::wait_exit(pid);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    for (auto pause = std::chrono::milliseconds(1);;
         pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
      int status = 0;
      const pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid) {
        if (WIFEXITED(status)) return WEXITSTATUS(status);
        return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
      }
      if (done < 0 && errno != EINTR) return -1;
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(pid, SIGKILL);  // the harness has no children (no -fork)
        tools::wait_exit(pid);
        return kTimedOut;
      }
      std::this_thread::sleep_for(pause);
    }
  }
};

fs::path find_crash(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("crash-", 0) == 0 || name.rfind("leak-", 0) == 0 ||
        name.rfind("timeout-", 0) == 0 || name.rfind("oom-", 0) == 0)
      return e.path();
  }
  return {};
}

// The first line of a reproducer whose minimisation ran out of budget (the
// harness writes it too).
constexpr std::string_view kNotMinimal = "# not minimal:";

// Watchdogs: a harness run is killed this many seconds after its own bound
// (the fuzzer's --time, the minimisation's budget, the property run's size)
// ran out; with --minimize-seconds 0 (no time budget) the minimisation's
// watchdog allows kUnboundedMinimize.
constexpr double kWatchdogSlack = 30;
constexpr double kUnboundedMinimize = 3600;
// A replay (one program) is a hang after --hang-seconds plus this for the start.
constexpr double kReplayStartSlack = 10;

// The harness's status when a sanitizer (ASan, UBSan) stopped it.
constexpr int kSanitizerExit = 77;
// The harness's status when one program of the property run hung (harness.cpp).
constexpr int kHangExit = 79;

std::string replay_command(const KernelCheckOptions& o, const fs::path& ops, bool raw = false) {
  std::string cmd =
      fmt::format("{} kernel-check {} --candidate {}", self_command(), o.subject, o.candidate);
  if (o.baseline != "builtin-reference") cmd += " --baseline " + o.baseline;
  if (!o.level.empty()) cmd += " --level " + o.level;
  if (o.api != "auto") cmd += " --api " + o.api;
  if (o.find_returns != "auto") cmd += " --find-returns " + o.find_returns;
  if (o.subject == "pick" && o.function != "select_dst_cpu") cmd += " --function " + o.function;
  if (!o.header.empty()) cmd += " --header " + o.header;
  if (!o.capacity.empty()) cmd += " --capacity " + o.capacity;
  if (o.task_util) cmd += fmt::format(" --task-util {}", o.task_util);
  if (!o.harness.empty()) cmd += " --harness " + o.harness;
  if (o.no_build) cmd += " --no-build";
  if (o.hang_seconds != 10) cmd += fmt::format(" --hang-seconds {}", o.hang_seconds);
  if (raw && !o.nr_cpus.empty()) cmd += fmt::format(" --nr-cpus {}", fmt::join(o.nr_cpus, " "));
  return cmd + (raw ? " --raw" : "") + " --replay " + ops.string();
}

// The "SUMMARY: ..." line of a sanitizer report in `log`, or "".
std::string sanitizer_summary(const std::string& log) {
  const std::size_t at = log.find("SUMMARY: ");
  if (at == std::string::npos) return {};
  return log.substr(at, log.find('\n', at) - at);
}

// Minimises an input that makes a sanitizer stop the harness, outside the
// harness (each try is a process): decode it to .ops, then drop chunks of op
// lines (halves, quarters, ..., single ops) while the replay still stops with
// the same SUMMARY line. Bounded like the in-harness minimisation: at most
// --minimize-tries runs (and never more than 300) and --minimize-seconds of
// wall clock, each run under a watchdog. Writes `out` (the smallest found so
// far when the budget runs out, and says so); returns the op counts, or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> minimize_crash(
    const KernelCheckOptions& opts, const Harness& h, const fs::path& input, bool raw,
    const fs::path& out, const fs::path& work) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path decoded = work / "crash-decoded.ops", trial = work / "crash-trial.ops";
  if (h.run("replay",
            {{"KCHECK_INPUT", fs::absolute(input).string()},
             {"KCHECK_RAW", raw ? "1" : "0"},
             {"KCHECK_DECODE_ONLY", "1"},
             {"KCHECK_OUTPUT", decoded.string()}},
            {}, {}, 30) != 0)
    return std::nullopt;
  std::vector<std::string> head, ops;
  {
    std::istringstream in(read_text(decoded));
    for (std::string line; std::getline(in, line);) {
      const bool directive = line.empty() || line[0] == '#' || line.rfind("subject ", 0) == 0 ||
                             line.rfind("cpus ", 0) == 0 || line.rfind("level ", 0) == 0;
      (directive && ops.empty() ? head : ops).push_back(line);
    }
  }
  auto write = [&](const std::vector<std::string>& body, const fs::path& to) {
    std::ofstream f(to, std::ios::binary | std::ios::trunc);
    for (const auto& l : head) f << l << '\n';
    for (const auto& l : body) f << l << '\n';
  };
  const fs::path log = work / "crash-trial.log";
  auto summary_of = [&](const std::vector<std::string>& body, double limit) {
    write(body, trial);
    const int rc = h.run("replay", {{"KCHECK_INPUT", trial.string()}, {"KCHECK_QUIET", "1"}}, {},
                         log, limit);
    return rc == kSanitizerExit ? sanitizer_summary(read_text(log)) : std::string();
  };
  const std::string want = summary_of(ops, 30);
  if (want.empty()) return std::nullopt;
  const std::size_t original = ops.size();
  const std::size_t max_runs =
      std::min<std::size_t>(300, opts.minimize_tries == 0 ? 300 : opts.minimize_tries);
  std::size_t runs = 0;
  std::string stopped;
  auto budget_left = [&] {
    if (!stopped.empty()) return false;
    if (runs >= max_runs)
      stopped = fmt::format("tries budget ({} runs)", max_runs);
    else if (opts.minimize_seconds > 0 && since(start) >= opts.minimize_seconds)
      stopped = fmt::format("time budget ({:g} s)", opts.minimize_seconds);
    return stopped.empty();
  };
  // Each run's watchdog: what is left of the time budget (at least 1 s).
  auto limit = [&] {
    return opts.minimize_seconds > 0 ? std::max(1.0, opts.minimize_seconds - since(start)) : 0.0;
  };
  for (bool changed = true; changed && budget_left();) {
    changed = false;
    for (std::size_t chunk = std::max<std::size_t>(1, ops.size() / 2); chunk >= 1 && budget_left();
         chunk /= 2) {
      for (std::size_t at = 0; at < ops.size() && ops.size() > 1 && budget_left();) {
        std::vector<std::string> fewer(ops.begin(), ops.begin() + static_cast<long>(at));
        fewer.insert(fewer.end(), ops.begin() + static_cast<long>(std::min(ops.size(), at + chunk)),
                     ops.end());
        ++runs;
        if (!fewer.empty() && summary_of(fewer, limit()) == want) {
          ops = std::move(fewer);
          changed = true;
        } else {
          at += chunk;
        }
      }
      if (chunk == 1) break;
    }
  }
  if (!stopped.empty())
    head.insert(head.begin(), fmt::format("{} the {} ran out", kNotMinimal, stopped));
  write(ops, out);
  fmt::print("minimised outside the harness: {} ops -> {} ops ({} runs, {:.1f} s), {}\n",
             original, ops.size(), runs, since(start), want);
  if (!stopped.empty())
    fmt::print("NOT MINIMAL: the minimisation's {} ran out; the reproducer is the smallest "
               "found so far (it fails the same way)\n", stopped);
  return std::make_pair(original, ops.size());
}

int report_finding(const KernelCheckOptions& o, const fs::path& min_ops, const std::string& how) {
  fmt::print("\nverdict: FINDING ({})\n", how);
  print_forms();
  const std::string text = read_text(min_ops);
  if (text.starts_with(kNotMinimal))
    fmt::print("reproducer, NOT MINIMAL ({}; raise --minimize-seconds/--minimize-tries for "
               "more): {}\n",
               text.substr(kNotMinimal.size() + 1, text.find('\n') - kNotMinimal.size() - 1),
               min_ops.string());
  else
    fmt::print("minimised reproducer: {}\n", min_ops.string());
  fmt::print("replay it against the candidate:\n  {}\n", replay_command(o, min_ops));
  return kExitFinding;
}

int run_kernel_check(KernelCheckOptions o) {
  const auto start = std::chrono::steady_clock::now();
  if (!o.level.empty() && !parse_level(o.level))
    return error(fmt::format("--level '{}': exact or deadline", o.level));
  if (o.time < 0) return error("--time must be >= 0");
  if (o.minimize_seconds < 0) return error("--minimize-seconds must be >= 0");
  for (unsigned n : o.nr_cpus)
    if (n < 1 || n > 8192) return error(fmt::format("--nr-cpus {}: 1..8192", n));
  tools::CandidateSpec cand, base;
  if (int rc = classify(o, o.candidate, &cand); rc != kExitOk) return rc;
  cand.role = "candidate";
  const bool builtin_base = o.baseline.rfind("builtin-", 0) == 0;
  if (!builtin_base) {
    if (int rc = classify(o, o.baseline, &base); rc != kExitOk) return rc;
    base.role = "baseline";
  } else {
    const bool ok = o.baseline == "builtin-reference" || o.baseline == "builtin-optimized" ||
                    (o.subject == "pick" && o.baseline == "builtin-fused");
    if (!ok)
      return error(fmt::format("--baseline '{}': builtin-reference, builtin-optimized{} or a file",
                               o.baseline, o.subject == "pick" ? ", builtin-fused" : ""));
  }
  if (!o.capacity.empty() && (o.subject != "cpudl" || builtin_base))
    return error("--capacity needs a cpudl baseline FILE: the built-in heaps and the model do "
                 "not model CPU capacities");

  // The work directory: one per run, so concurrent runs never share files.
  fs::path work = o.work_dir;
  std::error_code ec;
  if (work.empty()) {
    const fs::path root = tools::preset_dir("fuzz") / "kcheck";
    fs::create_directories(root, ec);
    std::string tmpl = (root / fmt::format("{}-XXXXXX", fs::path(o.candidate).stem().string())).string();
    if (!mkdtemp(tmpl.data())) return error(fmt::format("cannot create a directory under {}", root.string()));
    work = tmpl;
  } else {
    fs::create_directories(work, ec);
    if (ec) return error(fmt::format("--work-dir {}: {}", work.string(), ec.message()));
  }

  const std::string level = o.level.empty() ? (o.subject == "pick" ? "exact" : "deadline") : o.level;
  if (o.replay.empty())
    fmt::print("kernel-check {}: candidate {}, baseline {}, level {}\n  work directory {}\n",
               o.subject, o.candidate, o.baseline, level, work.string());

  // 1. The harness, built once by the fuzz preset.
  Harness h;
  h.binary = o.harness.empty() ? tools::preset_dir("fuzz") / "kshim" / "kcheck_harness"
                               : fs::path(o.harness);
  if (!o.no_build && o.harness.empty()) {
    const auto t = std::chrono::steady_clock::now();
    if (!fs::exists(h.binary))
      fmt::print("  building the harness (fuzz preset, first use: a few minutes)...\n");
    std::string why;
    std::fflush(stdout);
    if (!tools::build_preset("fuzz", work / "harness-build.log", &why, {"kcheck_harness"}))
      return error(fmt::format("could not build the kcheck harness: {}", why));
    if (o.replay.empty()) fmt::print("  harness {} ready ({:.1f} s)\n", h.binary.string(), since(t));
  }
  if (!fs::exists(h.binary))
    return error(fmt::format("no harness at {} (build it: cmake --preset fuzz && cmake --build "
                             "build-fuzz --target kcheck_harness)", h.binary.string()));

  // 2. The candidate (and a baseline file) as shared objects.
  fs::path cand_so, base_so;
  const bool forced = o.subject == "cpudl" && o.api != "auto";
  if (int rc = build(cand, work, forced, &cand_so); rc != kExitOk) return rc;
  if (!builtin_base)
    if (int rc = build(base, work, forced, &base_so); rc != kExitOk) return rc;
  h.env = {{"KCHECK_SUBJECT", o.subject},
           {"KCHECK_CANDIDATE", fs::absolute(cand_so).string()},
           {"KCHECK_BASELINE", builtin_base ? o.baseline : fs::absolute(base_so).string()},
           {"KCHECK_LEVEL", level},
           {"KCHECK_CAPACITY", o.capacity},
           {"KCHECK_TASK_UTIL", o.task_util ? std::to_string(o.task_util) : "per-find"},
           {"KCHECK_NR_CPUS", fmt::format("{}", fmt::join(o.nr_cpus, ","))},
           {"KCHECK_MIN_SECONDS", fmt::format("{}", o.minimize_seconds)},
           {"KCHECK_MIN_TRIES", std::to_string(o.minimize_tries)},
           {"KCHECK_HANG_SECONDS", std::to_string(o.hang_seconds)},
           {"ASAN_OPTIONS", fmt::format("detect_leaks=0:allocator_may_return_null=1:exitcode={}",
                                        kSanitizerExit)},
           {"UBSAN_OPTIONS", fmt::format("print_stacktrace=1:exitcode={}", kSanitizerExit)}};

  // 2a. Loading them: an undefined symbol is a link error, reported like a
  // compile error (what the shim lacks, or the file's own mistake).
  {
    const fs::path load_log = work / "load.log";
    const int rc = h.run("load", {}, {}, load_log, kWatchdogSlack);
    if (rc != 0) {
      const std::string text = read_text(load_log);
      const bool in_base = !builtin_base && text.find(base_so.string()) != std::string::npos &&
                           text.find(cand_so.string()) == std::string::npos;
      const tools::CandidateSpec& spec = in_base ? base : cand;
      const std::string why =
          tools::summarize_link_errors(text, read_text(spec.file), spec.file.string());
      if (!why.empty())
        return error(fmt::format("{} does not link against the kernel shim: {}",
                                 spec.file.string(), why));
      fmt::print(stderr, "{}", text);
      return error(fmt::format("the harness could not load {} (status {}; see above)",
                               spec.file.string(), rc));
    }
  }

  if (!g_find_return_errors.empty()) return error(g_find_return_errors.front());

  if (!o.replay.empty()) {
    // One program: longer than --hang-seconds (and the start) is a hang.
    const double limit = o.hang_seconds + kReplayStartSlack;
    const int rc = h.run("replay",
                         {{"KCHECK_INPUT", fs::absolute(o.replay).string()},
                          {"KCHECK_RAW", o.raw ? "1" : "0"}},
                         {}, {}, limit);
    if (o.work_dir.empty()) fs::remove_all(work, ec);  // only staging: nothing to keep
    if (rc == kTimedOut) {
      fmt::print("FINDING: the replay did not finish within {:.0f} s: a hang in the candidate\n",
                 limit);
      return kExitFinding;
    }
    if (rc == kSanitizerExit) fmt::print("FINDING: a sanitizer stopped the replay (report above)\n");
    if (rc == kExitOutOfDomain) return kExitOutOfDomain;  // printed by the harness
    return rc == 0 ? kExitOk : rc == 1 || rc == kSanitizerExit ? kExitFinding : kExitBadInput;
  }

  // 2b. Allocation failure, when asked: each allocation of cpudl_init() in
  // turn fails; the file must return -ENOMEM without a warning, a sanitizer
  // error or a leak (LeakSanitizer is on for these runs).
  if (o.fail_alloc) {
    const auto t = std::chrono::steady_clock::now();
    fmt::print("  allocation failure: each allocation of cpudl_init() in turn\n");
    int n = 1;
    for (; n <= 16; ++n) {
      const int rc = h.run(
          "alloc", {{"KCHECK_FAIL_ALLOC", std::to_string(n)},
                    {"ASAN_OPTIONS", fmt::format("detect_leaks=1:allocator_may_return_null=1:"
                                                 "exitcode={}", kSanitizerExit)}},
          {}, {}, kWatchdogSlack);
      if (rc == kTimedOut)
        return error(fmt::format("cpudl_init() with allocation {} failing did not return within "
                                 "{:.0f} s", n, kWatchdogSlack));
      if (rc == 3) break;
      if (rc == 1 || rc == kSanitizerExit) {
        std::string cmd = replay_command(o, "");
        cmd = cmd.substr(0, cmd.find(" --replay"));
        fmt::print("\nverdict: FINDING (cpudl_init() with allocation {} failing{}; {:.1f} s)\n"
                   "replay it against the candidate:\n  {} --fail-alloc --time 0 --runs 0\n",
                   n, rc == kSanitizerExit ? ": the sanitizer's report is above" : "", since(t),
                   cmd);
        print_forms();
        return kExitFinding;
      }
      if (rc != 0)
        return error(fmt::format("the harness failed in the allocation run (status {})", rc));
    }
    fmt::print("  allocation failure: {} failure paths return -ENOMEM cleanly ({:.1f} s)\n",
               n - 1, since(t));
  }

  // 3. Properties and the model oracle: the seeds and random programs.
  const fs::path min_ops = o.output.empty() ? work / "minimized.ops" : fs::path(o.output);
  const std::string target = o.subject == "pick" ? "pick" : level == "exact" ? "cpudl_exact" : "cpudl";
  if (!o.no_properties) {
    const auto t = std::chrono::steady_clock::now();
    fmt::print("  properties and model: checked-in seeds + {} random programs (seed {})\n",
               o.runs, o.seed);
    // The property run takes well under a second per thousand programs;
    // its watchdog allows far more, plus the minimisation's budget.
    const double limit = kWatchdogSlack + static_cast<double>(o.runs) / 100 +
                         (o.minimize_seconds > 0 ? o.minimize_seconds : kUnboundedMinimize);
    const int rc = h.run("check",
                         {{"KCHECK_SEEDS", (tools::source_dir() / "corpus" / "seeds" / target).string()},
                          {"KCHECK_RUNS", std::to_string(o.runs)},
                          {"KCHECK_SEED", std::to_string(o.seed)},
                          {"KCHECK_OUTPUT", fs::absolute(min_ops).string()}},
                         {}, {}, limit);
    if (rc == kHangExit) {
      const fs::path ops_in = min_ops.string() + ".crash.ops", raw_in = min_ops.string() + ".crash";
      const bool raw = !fs::exists(ops_in);
      const fs::path input = raw ? raw_in : ops_in;
      fmt::print("\nverdict: FINDING (a hang: one program of the property run did not finish "
                 "within --hang-seconds {}; {:.1f} s; not minimised)\ninput: {}\n"
                 "replay it against the candidate:\n  {}\n",
                 o.hang_seconds, since(t), input.string(), replay_command(o, input, raw));
      print_forms();
      return kExitFinding;
    }
    if (rc == kTimedOut)
      return error(fmt::format("the property run did not finish within {:.0f} s (its "
                               "programs each have --hang-seconds; see above)",
                               limit));
    if (rc == 1) return report_finding(o, min_ops, fmt::format("properties, {:.1f} s", since(t)));
    if (rc == kSanitizerExit) {
      // The candidate crashed the harness; its death callback saved the input.
      const fs::path ops_in = min_ops.string() + ".crash.ops", raw_in = min_ops.string() + ".crash";
      const bool raw = !fs::exists(ops_in);
      const fs::path input = raw ? raw_in : ops_in;
      fmt::print("  a sanitizer stopped the property run (report above); input {}\n",
                 input.string());
      if (minimize_crash(o, h, input, raw, min_ops, work))
        return report_finding(o, min_ops, fmt::format("sanitizer, property run, {:.1f} s", since(t)));
      fmt::print("\nverdict: FINDING (a sanitizer error in the property run; not minimised)\n"
                 "input: {}\nreplay it against the candidate:\n  {}\n",
                 input.string(), replay_command(o, input, raw));
      print_forms();
      return kExitFinding;
    }
    if (rc != 0) return error(fmt::format("the harness failed in the property run (status {})", rc));
    fmt::print("  properties: no finding ({:.1f} s)\n", since(t));
  }

  // 4. The fuzz campaign.
  if (o.time > 0) {
    const auto t = std::chrono::steady_clock::now();
    const fs::path corpus = work / "corpus";
    fs::create_directories(corpus, ec);
    for (const auto& e : fs::directory_iterator(tools::source_dir() / "corpus" / target, ec))
      fs::copy_file(e.path(), corpus / e.path().filename(), fs::copy_options::skip_existing, ec);
    const fs::path log = work / "fuzz.log";
    const std::string dict = (tools::source_dir() / "fuzz" / (o.subject == "pick" ? "pick.dict" : "cpudl.dict")).string();
    fmt::print("  fuzzing: {} s of libFuzzer (seed {}), log {}\n", o.time, o.seed, log.string());
    const int rc = h.run("fuzz", {},
                         {fmt::format("-max_total_time={}", static_cast<long>(o.time + 0.5)),
                          fmt::format("-seed={}", o.seed), "-dict=" + dict, "-max_len=4096",
                          fmt::format("-timeout={}", o.hang_seconds), "-detect_leaks=0",
                          "-print_final_stats=1",
                          "-artifact_prefix=" + (work / "").string(), corpus.string()},
                         log, o.time + kWatchdogSlack);
    const fs::path crash = find_crash(work);
    if (rc != 0 || !crash.empty()) {
      if (crash.empty() && rc == kTimedOut)
        return error(fmt::format("the fuzzer did not stop within --time + {:.0f} s; see {}",
                                 kWatchdogSlack, log.string()));
      if (crash.empty())
        return error(fmt::format("the fuzzer stopped with status {} without a finding; see {}", rc,
                                 log.string()));
      fmt::print("  fuzzing: finding after {:.1f} s: {}\n", since(t), crash.string());
      if (crash.filename().string().rfind("timeout-", 0) == 0) {
        // libFuzzer's -timeout: replaying or minimising it would hang again.
        fmt::print("\nverdict: FINDING (a hang: an input ran longer than --hang-seconds {} in "
                   "fuzzing, {:.1f} s; not minimised)\ninput: {}\n"
                   "replay it against the candidate:\n  {}\n",
                   o.hang_seconds, since(t), crash.string(), replay_command(o, crash, true));
        print_forms();
        return kExitFinding;
      }
      const std::string log_text = read_text(log);
      const std::size_t asan = log_text.find("ERROR: AddressSanitizer");
      const std::size_t ubsan = log_text.find("runtime error:");
      if (asan != std::string::npos || ubsan != std::string::npos) {
        // A memory or UB error in the candidate: the report is the finding;
        // minimising would re-run the crashing code in-process.
        const std::size_t at = std::min(asan, ubsan);
        const std::size_t line_start = log_text.rfind('\n', at);
        fmt::print("{}\n", log_text.substr(line_start == std::string::npos ? 0 : line_start + 1,
                                           std::min<std::size_t>(4000, log_text.size() - at)));
        if (minimize_crash(o, h, crash, true, min_ops, work))
          return report_finding(o, min_ops, fmt::format("sanitizer, fuzzing, {:.1f} s", since(t)));
        fmt::print("\nverdict: FINDING (a sanitizer error in fuzzing; not minimised)\n"
                   "input: {}\nreplay it against the candidate:\n  {}\n",
                   crash.string(), replay_command(o, crash, true));
        print_forms();
        return kExitFinding;
      }
      const int mrc = h.run("minimize",
                            {{"KCHECK_INPUT", fs::absolute(crash).string()},
                             {"KCHECK_RAW", "1"},
                             {"KCHECK_OUTPUT", fs::absolute(min_ops).string()}},
                            {}, {},
                            kWatchdogSlack + (o.minimize_seconds > 0 ? o.minimize_seconds
                                                                     : kUnboundedMinimize));
      if (mrc == kTimedOut || mrc == kSanitizerExit) {
        // The fuzzer's input is the finding; only its minimisation failed.
        fmt::print("\nverdict: FINDING (fuzzing, {:.1f} s; the minimisation {}, so the "
                   "reproducer is the fuzzer's input, not minimised)\ninput: {}\n"
                   "replay it against the candidate:\n  {}\n",
                   since(t), mrc == kTimedOut ? "did not finish in time" : "crashed",
                   crash.string(), replay_command(o, crash, true));
        print_forms();
        return kExitFinding;
      }
      if (mrc != 1)
        return error(fmt::format("could not minimise {} (status {}); see {}", crash.string(), mrc,
                                 log.string()));
      return report_finding(o, min_ops, fmt::format("fuzzing, {:.1f} s", since(t)));
    }
    fmt::print("  fuzzing: no finding ({:.1f} s)\n", since(t));
  }
  fmt::print("\nverdict: EQUIVALENT at level {} ({}{}; {:.1f} s in all)\n", level,
             o.no_properties ? "no property run" : "properties, model oracle",
             o.time <= 0 ? "" : fmt::format(", {} s of fuzzing", o.time), since(start));
  print_forms();
  return kExitOk;
}

void add_common(CLI::App* sub, KernelCheckOptions& o) {
  sub->add_option("--candidate", o.candidate, "the kernel C file to check")->required();
  sub->add_option("--baseline", o.baseline,
                  "what to compare with: builtin-reference (default), builtin-optimized"
                  "[, builtin-fused for pick], or another kernel C file (e.g. the unpatched one)");
  sub->add_option("--time", o.time, "seconds of fuzzing (default 10; 0 skips it)")
      ->check(non_negative());
  sub->add_option("--runs", o.runs, "random programs in the property run (default 2000)");
  sub->add_option("--seed", o.seed, "seed of the property run and the fuzzer (default 1)");
  sub->add_option("--level", o.level, "exact or deadline (default: deadline for cpudl, exact for pick)")
      ->check(level_names());
  auto* replay =
      sub->add_option("--replay", o.replay, "only replay this .ops file against the candidate (trace)");
  sub->add_flag("--raw", o.raw, "with --replay: the file is a raw fuzzer input (crash-...)")
      ->needs(replay);
  sub->add_option("-o,--output", o.output, "where to write the minimised reproducer (.ops)")
      ->check(output_file());
  sub->parse_complete_callback(
      [&o] { check_outputs({o.output}, {o.candidate, o.baseline, o.replay, o.header}); });
  sub->add_option("--work-dir", o.work_dir, "staging and build directory (default: a new one under build-fuzz/kcheck)");
  sub->add_option("--harness", o.harness, "use this kcheck_harness binary instead of build-fuzz's");
  sub->add_option("--nr-cpus", o.nr_cpus,
                  "run every program at one of these nr_cpu_ids (default: each input picks "
                  "one, 1..8192)")
      ->check(CLI::Range(1u, 8192u));
  sub->add_flag("--no-properties", o.no_properties,
                "skip the property run (seeds and random programs): fuzzing only");
  sub->add_flag("--no-build", o.no_build, "do not (re)build the harness; use the one in build-fuzz");
  // --replay only replays: what the property run, fuzzing and minimising take is refused.
  for (const char* unused : {"--time", "--runs", "--seed", "--no-properties", "--output"})
    replay->excludes(sub->get_option(unused));
  sub->add_option("--hang-seconds", o.hang_seconds,
                  "one program (input) that runs longer than this is a hang: a finding "
                  "(the property run's alarm, libFuzzer's -timeout, the replay's watchdog)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
  sub->add_option("--minimize-seconds", o.minimize_seconds,
                  "wall-clock budget of the minimisation of a finding (0: none); when it runs "
                  "out, the smallest reproducer so far is reported, marked NOT MINIMAL")
      ->capture_default_str()
      ->check(non_negative());
  sub->add_option("--minimize-tries", o.minimize_tries,
                  "budget of tries (lockstep runs) of that minimisation (0: none)")
      ->capture_default_str()
      ->check(non_negative());
}

}  // namespace

Runner add_kernel_check(CLI::App& app) {
  auto cpudl_opts = std::make_shared<KernelCheckOptions>();
  auto pick_opts = std::make_shared<KernelCheckOptions>();
  auto* sub = app.add_subcommand(
      "kernel-check",
      "Build an unmodified kernel/sched/cpudeadline.c or a kernel-style pick function through "
      "the kernel shim and check it: properties, model, fuzzing, minimisation "
      "(exit 0 equivalent, 1 finding, 2 could not build or run)");
  sub->require_subcommand(1);
  auto* cpudl = sub->add_subcommand("cpudl", "check a cpudeadline.c (API v3.14..v3.18, v3.19..v4.8, v4.9..v6.18 or v6.19+)");
  cpudl_opts->subject = "cpudl";
  add_common(cpudl, *cpudl_opts);
  cpudl->add_option("--api", cpudl_opts->api, "auto (default), v3.14, v4.8, v4.9 or v6.19")
      ->check(CLI::IsMember({"auto", "v3.14", "v4.8", "v4.9", "v6.19"}));
  cpudl->add_option("--find-returns", cpudl_opts->find_returns,
                    "what cpudl_find() returns: auto (default: from its return statements), "
                    "0/1, or cpu (a CPU or -1)")
      ->check(CLI::IsMember({"auto", "0/1", "cpu"}));
  cpudl->add_option("--header", cpudl_opts->header,
                    "the cpudeadline.h to compile with (default: the one next to the file, "
                    "else the shim's for the API form)");
  auto* capacity = cpudl->add_option("--capacity", cpudl_opts->capacity,
                    "turn asymmetric CPU capacity on, with these capacities per CPU "
                    "(e.g. 1024,512; repeated); needs a baseline FILE");
  cpudl->add_flag("--fail-alloc", cpudl_opts->fail_alloc,
                  "also make each allocation of cpudl_init() fail in turn: it must return "
                  "-ENOMEM without a warning, a sanitizer error or a leak")
      ->excludes(cpudl->get_option("--replay"));
  cpudl->add_option("--task-util", cpudl_opts->task_util,
                    "the task's runtime/deadline in 1024ths, for the capacity check (default: "
                    "each find's own task, from 1 to 1024, on one CPU of its affinity)")
      ->check(CLI::Range(1u, 1024u))
      ->needs(capacity);
  auto* pick = sub->add_subcommand("pick", "check a kernel-style destination pick function");
  pick_opts->subject = "pick";
  add_common(pick, *pick_opts);
  pick->add_option("--function", pick_opts->function,
                   "the function's name (default select_dst_cpu)");
  return [cpudl, pick, cpudl_opts, pick_opts] {
    if (cpudl->parsed()) return run_kernel_check(*cpudl_opts);
    if (pick->parsed()) return run_kernel_check(*pick_opts);
    return kExitBadInput;
  };
}

}  // namespace diffsched::cli
