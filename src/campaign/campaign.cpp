#include "campaign/campaign.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/afl_stats.h"
#include "engine/exit_status.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "subjects.h"
#include "targets.h"
#include "tools/minimize.h"
#include "tools/process.h"

namespace diffsched::campaign {

namespace {

using Clock = std::chrono::steady_clock;

// ---- signals -------------------------------------------------------------

volatile std::sig_atomic_t g_signal = 0;   // first SIGINT/SIGTERM received
volatile std::sig_atomic_t g_signals = 0;  // how many

extern "C" void on_signal(int sig) {
  if (!g_signal) g_signal = sig;
  g_signals = g_signals + 1;
}

struct SignalScope {
  struct sigaction old_int {}, old_term {};
  SignalScope() {
    g_signal = 0;
    g_signals = 0;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: sleeps and waits return early
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
  }
};

// ---- small file helpers ----------------------------------------------------

using tools::read_text;

std::vector<fs::path> regular_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string mmss(double s) {
  const long v = std::max(0L, static_cast<long>(s + 0.5));
  return fmt::format("{}:{:02}", v / 60, v % 60);
}

// ---- the accepted file -----------------------------------------------------

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// ---- engines ---------------------------------------------------------------

// What an engine's log or stats file says so far.
struct EngineStatus {
  std::uint64_t execs = 0;
  std::uint64_t coverage = 0;
  std::uint64_t features = 0;
  bool started = false;  // libFuzzer printed its seed line; afl-fuzz wrote fuzzer_stats
  bool finished = false; // libFuzzer said it was done (fork mode then exits with the
                         // status of the last crash it ignored: not a failure)
};

std::uint64_t number_after(const std::string& line, std::string_view key) {
  const auto at = line.find(key);
  return at == std::string::npos ? 0 : std::strtoull(line.c_str() + at + key.size(), nullptr, 10);
}

// libFuzzer (fork mode) prints "#N: cov: C ft: F corp: ..." lines; non-fork
// mode "#N\tNEW cov: C ft: F ...", "#N\tINITED ..." and "#N\tDONE ...";
// -print_final_stats=1 adds "stat::number_of_executed_units: N"; fork mode
// first runs the seeds ("INFO: -fork=2: N seed inputs, starting to fuzz").
// The largest count and the last coverage line win.
EngineStatus parse_libfuzzer_log(const fs::path& log) {
  EngineStatus st;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("INFO: Seed:")) st.started = true;
    if (line.starts_with("INFO: exiting:") || line.starts_with("Done ") ||
        line.find("\tDONE ") != std::string::npos)
      st.finished = st.started;
    if (const auto seeds = line.find(" seed inputs, starting to fuzz"); seeds != std::string::npos)
      if (const auto colon = line.rfind(": ", seeds); colon != std::string::npos)
        st.execs = std::max<std::uint64_t>(st.execs, std::strtoull(line.c_str() + colon + 2, nullptr, 10));
    if (line.starts_with("stat::number_of_executed_units:"))
      st.execs = std::max(st.execs, number_after(line, ":"));
    if (line.size() < 2 || line[0] != '#') continue;
    st.execs = std::max<std::uint64_t>(st.execs, std::strtoull(line.c_str() + 1, nullptr, 10));
    if (line.find("cov: ") == std::string::npos) continue;
    st.coverage = number_after(line, "cov: ");
    st.features = number_after(line, "ft: ");
  }
  return st;
}

// afl-fuzz writes OUT/<instance>/fuzzer_stats (campaign/afl_stats.h); the
// instances' executions add up.
EngineStatus afl_engine_status(const fs::path& afl_out) {
  EngineStatus st;
  std::error_code ec;
  for (const auto& inst : fs::directory_iterator(afl_out, ec)) {
    std::string error;
    const auto s = read_afl_stats(inst.path() / "fuzzer_stats", &error);
    if (!s) continue;
    st.started = true;
    st.execs += s->execs_done;
    st.coverage = std::max(st.coverage, s->edges_found);
  }
  return st;
}

// The line of an engine's log that says why it failed: the first that reads
// like an error (afl-fuzz's "PROGRAM ABORT", libFuzzer's "ERROR:", errno
// texts), else the last non-empty line. ANSI colours removed, one line.
std::string engine_error_line(const fs::path& log) {
  static constexpr std::string_view kMarks[] = {
      "PROGRAM ABORT", "SYSTEM ERROR", "ERROR", "Error", "error:", "Not a directory",
      "No such file", "Permission denied", "not found", "cannot", "Cannot", "failed"};
  std::istringstream in(tools::read_text(log));
  std::string line, last;
  while (std::getline(in, line)) {
    std::string clean;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\033') {  // ESC [ ... letter
        while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
        continue;
      }
      if (line[i] != '\r') clean += line[i];
    }
    clean = trim(clean);
    if (clean.empty()) continue;
    last = clean;
    for (const auto mark : kMarks)
      if (clean.find(mark) != std::string::npos) return clean.substr(0, 300);
  }
  return last.empty() ? "the log is empty" : last.substr(0, 300);
}

struct TargetWork {
  const FuzzTarget* target = nullptr;
  fs::path dir;       // OUT/work/<target>
  fs::path scratch;   // engine's corpus (libFuzzer: new inputs land here)
  fs::path crashes;   // crash files
  fs::path log;
  fs::path corpus;    // CORPUS/<target>
};

bool is_crash_file(const fs::path& f) {
  const std::string name = f.filename().string();
  return name.starts_with("crash-") || name.starts_with("timeout-") || name.starts_with("oom-") ||
         name.starts_with("leak-") || name.starts_with("id:") || name.starts_with("afl-");
}

std::vector<fs::path> crash_files(const TargetWork& w, bool afl) {
  std::vector<fs::path> out;
  for (const auto& f : regular_files(w.crashes))
    if (is_crash_file(f)) out.push_back(f);
  if (!afl) return out;
  std::error_code ec;
  for (const auto& inst : fs::directory_iterator(w.dir / "afl", ec))
    for (const auto& f : regular_files(inst.path() / "crashes"))
      if (is_crash_file(f)) out.push_back(f);
  return out;
}

// The signature of a crash file as this build replays it ("" if it passes).
std::string replay_signature(const FuzzTarget& target, const fs::path& file);

// Live view of the findings while the engine runs: crash files classified
// in-process as they appear.
struct LiveFindings {
  std::set<std::string> files;
  std::set<std::string> signatures;
  void update(const TargetWork& w, bool afl) {
    for (const auto& f : crash_files(w, afl))
      if (files.insert(f.string()).second) {
        const std::string sig = replay_signature(*w.target, f);
        signatures.insert(sig.empty() ? "?" : sig);
      }
  }
};

// How the engine's processes ended under supervise().
struct Supervised {
  int rc = 0;                  // first non-zero exit status (128+signal if killed), or 0
  bool stopped = false;        // we stopped it: deadline passed or a signal arrived
  bool interrupted = false;    // a SIGINT/SIGTERM arrived while it ran
  bool failed_early = false;   // a process exited non-zero before we stopped it
};

// Seconds an engine may overrun its own time limit before it is stopped, and
// seconds between SIGINT and SIGKILL: short on an interrupt (the campaign
// must stop within 2 s), longer at the deadline (libFuzzer writes its stats).
constexpr double kOverrunSeconds = 1;
constexpr double kKillAfterInterrupt = 0.8;
constexpr double kKillAfterDeadline = 3;

// Progress line printer for supervise().
struct Progress {
  const CampaignOptions& o;
  const TargetWork& w;
  std::string label;
  bool afl;
  double before, budget;  // campaign seconds before this target; --time
  bool tty = ::isatty(STDOUT_FILENO);
  Clock::time_point last = Clock::now();
  LiveFindings live;
  void maybe_print(double elapsed) {
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last).count() < (tty ? 1.0 : o.progress_every)) return;
    last = now;
    const EngineStatus st = afl ? afl_engine_status(w.dir / "afl") : parse_libfuzzer_log(w.log);
    const double total = before + elapsed;
    live.update(w, afl);
    const std::string line = fmt::format(
        "campaign {} {}/{} (remaining {}) | {} execs, {:.0f}/s | cov {} ft {} | findings {} "
        "({} crash files)",
        label, mmss(total), mmss(budget), mmss(budget - total), st.execs,
        elapsed > 0 ? static_cast<double>(st.execs) / elapsed : 0.0, st.coverage, st.features,
        live.signatures.size(), live.files.size());
    if (tty)
      fmt::print("\r\033[K{}", line);
    else
      fmt::print("{}\n", line);
    std::fflush(stdout);
  }
};

// Reaps the processes of `pids` that have exited; the first non-zero status
// goes to s->rc. Each is a process group leader: its group is killed once it
// is gone, so that no child of the engine outlives it.
void reap(std::vector<pid_t>* pids, bool stopping, Supervised* s) {
  for (auto it = pids->begin(); it != pids->end();) {
    int status = 0;
    const pid_t r = ::waitpid(*it, &status, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR)) {
      ++it;
      continue;
    }
    const int code = r < 0                 ? -1
                     : WIFEXITED(status)   ? WEXITSTATUS(status)
                     : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                           : -1;
    if (!s->rc) s->rc = code;
    if (code != 0 && !stopping) s->failed_early = true;
    ::kill(-*it, SIGKILL);  // stragglers of its process group (libFuzzer -fork jobs)
    it = pids->erase(it);
  }
}

// Waits for the engine's processes (each its own process group) until they
// exit, `budget` + kOverrunSeconds pass or a signal arrives: then SIGINT to
// each whole group, SIGKILL if it is still there a little later.
Supervised supervise(std::vector<pid_t> pids, double budget, Progress& progress) {
  const auto start = Clock::now();
  Supervised s;
  std::optional<Clock::time_point> stop_sent;
  while (true) {
    reap(&pids, stop_sent.has_value(), &s);
    if (pids.empty()) break;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (g_signal) s.interrupted = true;
    if (!stop_sent && (g_signal || elapsed > budget + kOverrunSeconds)) {
      for (pid_t pid : pids) ::kill(-pid, SIGINT);  // libFuzzer and afl-fuzz wrap up on SIGINT
      s.stopped = true;
      stop_sent = now;
    }
    const double grace = s.interrupted ? kKillAfterInterrupt : kKillAfterDeadline;
    if (stop_sent && std::chrono::duration<double>(now - *stop_sent).count() > grace)
      for (pid_t pid : pids) ::kill(-pid, SIGKILL);
    if (!stop_sent) progress.maybe_print(elapsed);
    std::this_thread::sleep_for(std::chrono::milliseconds(stop_sent ? 20 : 100));
  }
  if (progress.tty) fmt::print("\r\033[K");
  return s;
}

std::vector<std::string> options_file_args(const fs::path& options, const fs::path& dir) {
  // [libfuzzer] section of <target>.options: "key = value" -> -key=value
  // (dict paths are relative to the binary's directory, as in OSS-Fuzz).
  std::vector<std::string> args;
  std::ifstream in(options);
  std::string line;
  bool section = false;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (t[0] == '[') {
      section = t == "[libfuzzer]";
      continue;
    }
    const auto eq = t.find('=');
    if (!section || eq == std::string::npos) continue;
    const std::string key = trim(std::string_view(t).substr(0, eq));
    std::string value = trim(std::string_view(t).substr(eq + 1));
    if (key == "dict") value = (dir / value).string();
    args.push_back(fmt::format("-{}={}", key, value));
  }
  return args;
}

// Seeds the scratch corpus directory for libFuzzer/AFL: CORPUS/<target>.
void ensure_corpus(const TargetWork& w) {
  std::error_code ec;
  if (fs::exists(w.corpus)) return;
  fs::create_directories(w.corpus, ec);
  const fs::path seeds = tools::source_dir() / "corpus" / std::string(w.target->name);
  for (const auto& f : regular_files(seeds)) fs::copy_file(f, w.corpus / f.filename(), ec);
}

// Removes staging directories left by a campaign that was killed (SIGKILL).
void remove_stale_staging(const TargetWork& w) {
  std::error_code ec;
  const std::string prefix = "." + std::string(w.target->name) + ".merge-";
  for (const auto& e : fs::directory_iterator(w.corpus.parent_path(), ec))
    if (e.path().filename().string().starts_with(prefix)) fs::remove_all(e.path(), ec);
}

// Merges the inputs in `found` that add coverage into CORPUS/<target>:
// libFuzzer -merge=1 into a staging directory that starts as hard links of
// the corpus, then one rename(2) per new file. Returns files added, or -1 if
// the merge did not complete (the corpus is then unchanged).
long merge_into_corpus(const TargetWork& w, const fs::path& fuzzer, const fs::path& found,
                       double max_seconds, std::string* error) {
  std::error_code ec;
  if (regular_files(found).empty()) return 0;
  const fs::path staging =
      w.corpus.parent_path() / fmt::format(".{}.merge-{}", w.target->name, ::getpid());
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  for (const auto& f : regular_files(w.corpus)) {
    fs::create_hard_link(f, staging / f.filename(), ec);
    if (ec) fs::copy_file(f, staging / f.filename(), ec);
  }
  const fs::path log = w.dir / "merge.log";
  const pid_t pid =
      tools::spawn({fuzzer.string(), "-merge=1", "-rss_limit_mb=4096", staging.string(),
                    found.string()},
                   {.log = log, .new_process_group = true});
  int status = 0;
  bool abandoned = false;
  const int signals_before = g_signals;
  const auto start = Clock::now();
  const char* abandoned_why = nullptr;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    if (!abandoned && (g_signals > signals_before || (max_seconds > 0 && took > max_seconds))) {
      ::kill(-pid, SIGKILL);  // a further signal, or out of time: give up the merge
      abandoned = true;
      abandoned_why = g_signals > signals_before ? "on a second signal" : "out of time";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid, SIGKILL);  // its -merge=1 child, if any is left
  if (abandoned || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fs::remove_all(staging, ec);
    *error = abandoned ? fmt::format("merge abandoned {}", abandoned_why)
                       : fmt::format("merge failed, see {}", log.string());
    return -1;
  }
  long added = 0;
  for (const auto& f : regular_files(staging)) {
    const fs::path dest = w.corpus / f.filename();
    if (fs::exists(dest)) continue;
    if (::rename(f.c_str(), dest.c_str()) == 0) ++added;
  }
  fs::remove_all(staging, ec);
  return added;
}

// ---- findings --------------------------------------------------------------

struct Crash {
  const FuzzTarget* target;
  fs::path file;
  std::uintmax_t size;
};

// What the fuzz binary says about one input: its signature line, or the
// sanitizer's summary; empty if it passed.
struct BinaryVerdict {
  bool failed = false;
  std::string signature;
};

BinaryVerdict run_binary_on(const fs::path& fuzzer, const fs::path& input, const fs::path& log) {
  BinaryVerdict v;
  const int rc = tools::run({fuzzer.string(), "-runs=1", input.string()}, {.log = log});
  v.failed = rc != 0;
  if (!v.failed) return v;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto p = line.find("  signature "); p == 0) {
      v.signature = line.substr(12);
      return v;
    }
    if (line.starts_with("SUMMARY: ")) {
      // "SUMMARY: AddressSanitizer: heap-buffer-overflow file:line in fn"
      std::istringstream words(line.substr(9));
      std::string tool, kind, where, in_word, fn;
      words >> tool >> kind >> where >> in_word >> fn;
      if (!tool.empty() && tool.back() == ':') tool.pop_back();
      v.signature = fmt::format("sanitizer:{}:{}:{}", tool, kind, fn.empty() ? where : fn);
    }
  }
  if (v.signature.empty()) v.signature = fmt::format("crash:exit-{}", rc);
  return v;
}

std::optional<std::vector<std::uint8_t>> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string replay_signature(const FuzzTarget& target, const fs::path& file) {
  auto bytes = read_bytes(file);
  if (!bytes) return {};
  const Verdict v = run_target(target, *bytes);
  if (!v.finding || v.finding->kind == FindingKind::kOutOfDomain) return {};
  return v.finding->signature();
}

std::string relative_or_absolute(const fs::path& p) {
  std::error_code ec;
  const fs::path rel = fs::relative(p, fs::current_path(), ec);
  if (!ec && !rel.empty() && !rel.string().starts_with("..")) return rel.string();
  return fs::absolute(p).string();
}

std::string shell_quote(const std::string& s) {
  if (s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:") ==
      std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Folds findings that differ only in the op kind of their signature (same
// subject, kind, check and field; both failing or both accepted) into one,
// the one with the shortest reproducer, listing the others as variants.
void fold_variants(std::vector<UniqueFinding>* findings) {
  auto bug = [](const UniqueFinding& f) {
    const auto colon = f.signature.rfind(':');
    return std::pair(f.signature.substr(0, colon), f.status == FindingStatus::kAccepted);
  };
  std::vector<UniqueFinding> out;
  std::map<std::pair<std::string, bool>, std::vector<UniqueFinding>> groups;
  std::vector<std::pair<std::string, bool>> order;
  for (auto& f : *findings) {
    auto key = bug(f);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(std::move(f));
  }
  for (const auto& key : order) {
    auto& g = groups[key];
    std::stable_sort(g.begin(), g.end(), [](const UniqueFinding& a, const UniqueFinding& b) {
      return a.minimized_ops < b.minimized_ops;
    });
    UniqueFinding primary = std::move(g.front());
    for (std::size_t i = 1; i < g.size(); ++i)
      primary.variants.push_back({g[i].signature, g[i].duplicates, g[i].minimized_ops,
                                  g[i].ops_path, g[i].reproduce});
    out.push_back(std::move(primary));
  }
  *findings = std::move(out);
}

// ---- arguments and paths ---------------------------------------------------

std::optional<std::vector<const FuzzTarget*>> resolve_targets(const CampaignOptions& o,
                                                              std::string* error) {
  std::vector<const FuzzTarget*> targets;
  if (o.targets.empty())
    for (const auto& t : kFuzzTargets) targets.push_back(&t);
  for (const auto& name : o.targets) {
    const FuzzTarget* t = find_target(name);
    if (!t) {
      *error = fmt::format("unknown target '{}' (known: {})", name, target_names());
      return std::nullopt;
    }
    targets.push_back(t);
  }
  return targets;
}

// A directory given by `flag`: if it exists it must be a writable directory
// (`writable`), else it must be absent (and is created later) or, with
// !may_create, an error.
bool check_dir_arg(std::string_view flag, const fs::path& dir, bool may_create, bool writable,
                   std::string* error) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::is_directory(st)) {
    if (writable && ::access(dir.c_str(), W_OK | X_OK) != 0) {
      *error = fmt::format("{} {}: directory is not writable", flag, dir.string());
      return false;
    }
    return true;
  }
  if (fs::exists(st)) {
    *error = fmt::format("{} {}: not a directory (expected a directory{})", flag, dir.string(),
                         may_create ? ", or a path where one can be created" : "");
    return false;
  }
  if (!may_create) {
    *error = fmt::format("{} {}: no such directory", flag, dir.string());
    return false;
  }
  fs::path existing = fs::absolute(dir, ec);  // the nearest existing ancestor
  while (!fs::exists(existing, ec) && existing.has_relative_path())
    existing = existing.parent_path();
  if (!fs::is_directory(existing, ec)) {
    *error = fmt::format("{} {}: cannot create the directory: {} is not a directory", flag,
                         dir.string(), existing.string());
    return false;
  }
  return true;
}

// --fuzz-dir / --afl-dir: a directory with an executable per target.
bool check_binary_dir(std::string_view flag, const fs::path& dir, std::string_view preset,
                      const std::vector<const FuzzTarget*>& targets, std::string* error) {
  if (!check_dir_arg(flag, dir, false, false, error)) return false;
  for (const FuzzTarget* t : targets) {
    const fs::path bin = dir / std::string(t->name);
    std::error_code ec;
    if (!fs::is_regular_file(bin, ec) || ::access(bin.c_str(), X_OK) != 0) {
      *error = fmt::format("{} {}: no executable fuzz binary '{}' in it (expected the {} "
                           "preset's binaries, build-{}/fuzz)",
                           flag, dir.string(), t->name, preset, preset);
      return false;
    }
  }
  return true;
}

// True if `inner` is `outer` or lies below it.
bool path_within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
  auto ia = a.begin();
  for (auto ib = b.begin(); ib != b.end(); ++ib, ++ia)
    if (ib->empty() && std::next(ib) == b.end()) return true;  // trailing "/"
    else if (ia == a.end() || *ia != *ib) return false;
  return true;
}

// Every path option, before anything is created, built or run.
bool check_paths(const CampaignOptions& o, const std::vector<const FuzzTarget*>& targets,
                 std::string* error) {
  if (!o.fuzz_dir.empty() && !check_binary_dir("--fuzz-dir", o.fuzz_dir, "fuzz", targets, error))
    return false;
  if (!o.afl_dir.empty() && o.engine != "afl") {
    *error = fmt::format("--afl-dir {}: only used with --engine afl", o.afl_dir.string());
    return false;
  }
  if (!o.afl_dir.empty() && !check_binary_dir("--afl-dir", o.afl_dir, "afl", targets, error))
    return false;
  if (!check_dir_arg("--corpus", o.corpus, true, true, error) ||
      !check_dir_arg("--out", o.out, true, true, error))
    return false;
  bool overlap = path_within(o.out, o.corpus) && path_within(o.corpus, o.out);  // the same
  for (const FuzzTarget* t : targets) {
    if (!check_dir_arg("--corpus", o.corpus / std::string(t->name), true, true, error)) return false;
    overlap = overlap || path_within(o.out, o.corpus / std::string(t->name));
  }
  for (const auto owned : {"work", "findings"})
    overlap = overlap || path_within(o.corpus, o.out / owned);
  if (overlap) {
    *error = fmt::format("--out {} and --corpus {} overlap (give them separate directories)",
                         o.out.string(), o.corpus.string());
    return false;
  }
  return true;
}

// ---- the output directory --------------------------------------------------

// A campaign's --out holds this file; a later campaign may then replace
// what a campaign writes there (kOwned) without --force.
constexpr std::string_view kOutMarker = ".diffsched-campaign";
constexpr std::string_view kOwned[] = {"summary.md", "junit.xml", "results.sarif", "findings",
                                       "work",       "build-fuzz.log", "build-afl.log"};

bool owned_entry(const std::string& name) {
  return name == kOutMarker || std::find(std::begin(kOwned), std::end(kOwned), name) != std::end(kOwned);
}

// Creates --corpus if missing. Makes --out ready: created if missing; if it is a campaign's output
// directory (marker, or nothing but a campaign's files), or with --force,
// the files a campaign writes are removed first, so that no finding or
// report of an earlier run is mixed with this one's; anything else is
// refused.
bool prepare_out(const CampaignOptions& o, std::string* error) {
  std::error_code ec;
  std::vector<std::string> foreign;
  bool marked = false;
  for (const auto& e : fs::directory_iterator(o.out, ec)) {
    const std::string name = e.path().filename().string();
    marked = marked || name == kOutMarker;
    if (!owned_entry(name)) foreign.push_back(name);
  }
  std::sort(foreign.begin(), foreign.end());
  if (!marked && !foreign.empty() && !o.force) {
    *error = fmt::format(
        "--out {}: not empty and not a campaign's output directory (it holds '{}'); give a new "
        "or empty directory, or --force to replace only the campaign's files in it ({})",
        o.out.string(), foreign.front(), fmt::join(kOwned, ", "));
    return false;
  }
  fs::create_directories(o.corpus, ec);
  if (ec) {
    *error = fmt::format("--corpus {}: cannot create the directory: {}", o.corpus.string(),
                         ec.message());
    return false;
  }
  for (const auto name : kOwned) fs::remove_all(o.out / name, ec);
  fs::create_directories(o.out / "findings", ec);
  if (!ec) fs::create_directories(o.out / "work", ec);
  if (!ec) std::ofstream(o.out / kOutMarker) << "diffsched campaign output directory: a later "
                                              "campaign with this --out replaces "
                                           << fmt::format("{}\n", fmt::join(kOwned, ", "));
  if (ec) {
    *error = fmt::format("--out {}: cannot create the directory: {}", o.out.string(), ec.message());
    return false;
  }
  return true;
}

// ---- one target --------------------------------------------------------------

// What run_campaign decided before the first target, shared by all of them.
struct Context {
  const CampaignOptions& o;
  bool afl = false;
  fs::path fuzz_dir, afl_dir, afl_fuzz;
  std::size_t n_targets = 1;
  Clock::time_point start = Clock::now();
  double share() const { return o.seconds / static_cast<double>(n_targets); }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
};

TargetWork make_work(const Context& c, const FuzzTarget* t) {
  TargetWork w;
  w.target = t;
  w.dir = c.o.out / "work" / std::string(t->name);
  w.scratch = w.dir / "found";
  w.crashes = w.dir / "crashes";
  w.log = w.dir / "engine.log";
  w.corpus = c.o.corpus / std::string(t->name);
  std::error_code ec;
  fs::remove_all(w.dir, ec);
  fs::create_directories(w.scratch, ec);
  fs::create_directories(w.crashes, ec);
  ensure_corpus(w);
  remove_stale_staging(w);
  return w;
}

// Each target has a slot of --time / targets seconds, from the campaign's
// start: target i ends at (i+1) * share. The engine gets the slot's rest
// less a reserve for the merge that follows it (which libFuzzer needs about
// a second for); time one target leaves unused goes to the next.
constexpr double kMergeReserve = 1.5;

double engine_budget(const Context& c, std::size_t i) {
  const double slot_end = c.share() * static_cast<double>(i + 1);
  const double reserve = std::min(kMergeReserve, c.share() * 0.2);
  return std::max(1.0, slot_end - c.elapsed() - reserve);
}

std::vector<std::string> libfuzzer_argv(const Context& c, const TargetWork& w, long seconds) {
  const fs::path fuzzer = c.fuzz_dir / std::string(w.target->name);
  std::vector<std::string> argv = {fuzzer.string(), fmt::format("-fork={}", c.o.jobs),
                                   "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
                                   fmt::format("-max_total_time={}", seconds),
                                   "-artifact_prefix=" + (w.crashes.string() + "/"),
                                   "-print_final_stats=1"};
  if (c.o.seed) argv.push_back(fmt::format("-seed={}", *c.o.seed));
  for (auto& a : options_file_args(c.fuzz_dir / (std::string(w.target->name) + ".options"),
                                   c.fuzz_dir))
    argv.push_back(std::move(a));
  argv.push_back(w.scratch.string());
  argv.push_back(w.corpus.string());
  return argv;
}

// afl-fuzz, JOBS instances (-M main, -S s1...) over one output dir; the
// corpus is the input dir; the dict is the one of the .options file.
std::vector<std::vector<std::string>> afl_argvs(const Context& c, const TargetWork& w,
                                                long seconds) {
  std::string dict;
  for (const auto& a : options_file_args(
           c.fuzz_dir / (std::string(w.target->name) + ".options"), c.fuzz_dir))
    if (a.starts_with("-dict=")) dict = a.substr(6);
  std::vector<std::vector<std::string>> commands;
  for (unsigned k = 0; k < c.o.jobs; ++k) {
    std::vector<std::string> argv = {c.afl_fuzz.string(), "-i", w.corpus.string(), "-o",
                                     (w.dir / "afl").string(), "-V", std::to_string(seconds)};
    if (c.o.jobs > 1) {
      argv.push_back(k == 0 ? "-M" : "-S");
      argv.push_back(k == 0 ? std::string("main") : fmt::format("s{}", k));
    }
    if (!dict.empty()) argv.insert(argv.end(), {"-x", dict});
    if (c.o.seed) argv.insert(argv.end(), {"-s", std::to_string(*c.o.seed + k)});
    argv.push_back("--");
    argv.push_back((c.afl_dir / std::string(w.target->name)).string());
    commands.push_back(std::move(argv));
  }
  return commands;
}

// Starts the engine's processes, each in its own process group.
std::vector<pid_t> start_engine(const Context& c, const TargetWork& w, long seconds) {
  const auto commands =
      c.afl ? afl_argvs(c, w, seconds)
            : std::vector<std::vector<std::string>>{libfuzzer_argv(c, w, seconds)};
  tools::RunOptions ro{.log = w.log, .new_process_group = true};
  if (c.afl)
    ro.env = {{"AFL_NO_UI", "1"}, {"AFL_SKIP_CPUFREQ", "1"},
              {"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"}, {"AFL_NO_AFFINITY", "1"},
              {"AFL_SKIP_CRASHES", "1"}, {"AFL_FAST_CAL", "1"}};
  std::vector<pid_t> pids;
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (k > 0) ro.log = w.dir / fmt::format("engine-{}.log", k);
    pids.push_back(tools::spawn(commands[k], ro));
  }
  return pids;
}

// The target's status from how its engine ended: engine-failed if it could
// not start, exited abnormally before we stopped it, or ran no input.
void judge_engine(const Supervised& s, const EngineStatus& st, const TargetWork& w,
                  const std::string& engine, TargetRun* run) {
  if (s.interrupted) {
    if (st.execs == 0) {
      run->status = TargetStatus::kNotRun;
      run->error = "interrupted before the engine ran an input";
    }
    return;
  }
  std::string why;
  if (s.rc == 127 || s.rc < 0)
    why = fmt::format("could not start (exit {})", s.rc);
  else if (s.failed_early && !st.finished)
    why = fmt::format("exited with status {}", s.rc);
  else if (!st.started)
    why = fmt::format("did not start (exit {})", s.rc);
  else if (st.execs == 0)
    why = fmt::format("ran 0 inputs (exit {})", s.rc);
  if (why.empty()) return;
  run->status = TargetStatus::kEngineFailed;
  run->error = fmt::format("{} {}: {} (see {})", engine, why, engine_error_line(w.log),
                           w.log.string());
}

// AFL's queues and crashes, into the places libFuzzer's go; returns the
// directory of inputs to merge.
fs::path collect_engine_output(const TargetWork& w, bool afl) {
  if (!afl) return w.scratch;
  std::error_code ec;
  const fs::path found = w.dir / "afl-queue";
  fs::create_directories(found, ec);
  for (const auto& inst : fs::directory_iterator(w.dir / "afl", ec)) {
    const std::string name = inst.path().filename().string();
    for (const auto& f : regular_files(inst.path() / "queue"))
      fs::copy_file(f, found / fmt::format("{}-{}", name, f.filename().string()), ec);
    for (const auto& f : regular_files(inst.path() / "crashes"))
      if (f.filename().string().starts_with("id:"))
        fs::copy_file(f, w.crashes / fmt::format("afl-{}-{}", name, f.filename().string()), ec);
  }
  return found;
}

// Seconds the merge may take: a short bound after an interrupt (the
// campaign stops within about 2 s), else a quarter of the target's share.
double merge_limit(const Context& c) { return g_signal ? 0.8 : std::max(5.0, c.share() * 0.25); }

// Fuzzes target i for its slot, merges what it found into the corpus and
// collects its crash files.
TargetRun fuzz_target(const Context& c, std::size_t i, const FuzzTarget* t,
                      std::vector<Crash>* crashes) {
  const TargetWork w = make_work(c, t);
  TargetRun run;
  run.target = std::string(t->name);
  run.property = std::string(t->property);
  run.engine = c.o.engine;
  run.corpus_before = regular_files(w.corpus).size();
  if (g_signal) {
    run.status = TargetStatus::kNotRun;
    run.error = "the campaign was interrupted before this target";
    run.corpus_after = run.corpus_before;
    return run;
  }
  const double budget = engine_budget(c, i);
  const auto seconds = std::max(1L, static_cast<long>(budget));
  const std::string label = fmt::format("[{} {}/{}]", t->name, i + 1, c.n_targets);
  fmt::print("campaign {}: {} for {} s ({} job{})\n", label, c.o.engine, seconds, c.o.jobs,
             c.o.jobs == 1 ? "" : "s");
  std::fflush(stdout);
  const auto t_start = Clock::now();
  Progress progress{c.o, w, label, c.afl, c.elapsed(), c.o.seconds};
  const Supervised s = supervise(start_engine(c, w, seconds), static_cast<double>(seconds), progress);
  const EngineStatus st = c.afl ? afl_engine_status(w.dir / "afl") : parse_libfuzzer_log(w.log);
  run.execs = st.execs;
  run.coverage = st.coverage;
  run.features = st.features;
  run.crash_files = crash_files(w, c.afl).size();  // before AFL's are copied below
  judge_engine(s, st, w, c.o.engine, &run);
  std::string merge_error;
  const double engine_seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  const long added = merge_into_corpus(w, c.fuzz_dir / std::string(t->name),
                                       collect_engine_output(w, c.afl), merge_limit(c),
                                       &merge_error);
  if (added < 0 && run.ran()) run.error = merge_error;
  run.corpus_after = regular_files(w.corpus).size();
  std::error_code ec;
  for (const auto& f : regular_files(w.crashes))
    if (is_crash_file(f)) crashes->push_back({t, f, fs::file_size(f, ec)});
  run.seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  run.exec_per_s = run.seconds > 0 ? static_cast<std::uint64_t>(st.execs / run.seconds) : 0;
  fmt::print("campaign {}: {} execs in {:.1f} s (engine {:.1f} s), cov {}, corpus {} -> {}, "
             "{} crash file{}{}\n",
             label, run.execs, run.seconds, engine_seconds, run.coverage, run.corpus_before, run.corpus_after,
             run.crash_files, run.crash_files == 1 ? "" : "s",
             run.error.empty() ? "" : fmt::format(" ({}: {})", target_status_name(run.status),
                                                  run.error));
  std::fflush(stdout);
  return run;
}

// ---- findings, after the fuzzing -------------------------------------------

// signature -> its crash files, each classified by replaying it in-process
// (the fuzz binary's own verdict where replay passes: sanitizer, no-repro).
std::map<std::string, std::vector<Crash>> classify(const Context& c,
                                                   const std::vector<Crash>& crashes) {
  std::map<std::string, std::vector<Crash>> groups;
  for (const Crash& crash : crashes) {
    std::string sig = replay_signature(*crash.target, crash.file);
    if (sig.empty()) {
      const BinaryVerdict bv = run_binary_on(c.fuzz_dir / std::string(crash.target->name),
                                             crash.file, c.o.out / "work" / "classify.log");
      sig = std::string(crash.target->subject) + ":" + (bv.failed ? bv.signature : "no-repro");
    }
    groups[sig].push_back(crash);
  }
  return groups;
}

// Re-runs the fuzz binary on the representative crash file o.reruns times.
void rerun(const Context& c, const Crash& rep, const std::string& sig, UniqueFinding* u) {
  const fs::path fuzzer = c.fuzz_dir / std::string(rep.target->name);
  const std::string subject(rep.target->subject);
  for (unsigned k = 0; k < c.o.reruns && !g_signal; ++k) {
    const BinaryVerdict bv = run_binary_on(fuzzer, rep.file, c.o.out / "work" / "rerun.log");
    ++u->reruns;
    const bool qualified =
        bv.signature.find(':') != std::string::npos && bv.signature.starts_with(subject + ":");
    const std::string got = qualified ? bv.signature : subject + ":" + bv.signature;
    u->rerun_failures += bv.failed && got == sig;
  }
}

// Writes the reproducer (.ops and binary) under OUT/findings and fills in
// what it shows and how to reproduce it.
void write_reproducer(const Context& c, const Crash& rep, const io::AnyProgram& repro,
                      bool minimised, const std::string& not_minimal, unsigned serial,
                      UniqueFinding* u) {
  const std::string base = fmt::format("{}-{}", u->target, serial);
  const fs::path ops_path = c.o.out / "findings" / (base + ".ops");
  const fs::path bin_path = c.o.out / "findings" / (base + ".bin");
  u->ops_text = io::format_program(repro);
  if (!not_minimal.empty())  // the minimisation's budget (tools::MinimizeBudget) ran out
    u->ops_text = fmt::format("# not minimal: the {} ran out\n{}", not_minimal, u->ops_text);
  u->minimized_ops = std::visit([](const auto& p) { return p.ops.size(); }, repro);
  const auto bytes = io::encode_file(repro);
  std::string werr;
  io::write_file(ops_path.string(), u->ops_text, &werr);
  io::write_file(bin_path.string(),
                 std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                 &werr);
  u->ops_path = relative_or_absolute(ops_path);
  u->bin_path = relative_or_absolute(bin_path);
  std::visit(  // the finding as the reproducer shows it (replayed in-process)
      [&]<class P>(const P& p) {
        using S = typename P::Subject;
        typename S::Lockstep lockstep;
        const Verdict v =
            run_lockstep<S>(lockstep, p.config, p.ops, p.level.value_or(S::kDefaultLevel));
        if (v.finding) u->finding = *v.finding;
      },
      repro);
  u->check_file = u->finding.check_source();
  u->check_line = u->finding.check_line;
  const fs::path fuzzer = c.fuzz_dir / std::string(rep.target->name);
  u->reproduce = minimised ? fmt::format("{} replay {}", c.o.self, shell_quote(u->ops_path))
                           : fmt::format("{} -runs=1 {}", shell_quote(relative_or_absolute(fuzzer)),
                                         shell_quote(u->first_crash));
}

// kAccepted if a line of the accepted file covers the finding.
void apply_accepted(const std::vector<AcceptedEntry>& accepted,
                    const std::optional<io::AnyProgram>& repro, UniqueFinding* u) {
  for (const AcceptedEntry& e : accepted) {
    if (e.target != u->target || !glob_match(e.pattern, u->signature)) continue;
    if (e.if_deadline_level_passes) {
      bool passes = false;
      if (repro)
        std::visit(
            [&]<class P>(const P& p) {
              using S = typename P::Subject;
              typename S::Lockstep lockstep;
              passes = run_lockstep<S>(lockstep, p.config, p.ops, Level::kDeadline).ok();
            },
            *repro);
      if (!passes) continue;
    }
    u->status = FindingStatus::kAccepted;
    u->accepted_reason = e.reason;
    return;
  }
}

// One unique finding: re-run (flaky or real), minimise, store, accept or
// fail. After an interrupt there are no re-runs and no minimisation (the
// campaign stops promptly); the in-process replay decides.
UniqueFinding make_finding(const Context& c, const std::string& sig, std::vector<Crash>& files,
                           unsigned serial, const std::vector<AcceptedEntry>& accepted) {
  std::stable_sort(files.begin(), files.end(),
                   [](const Crash& a, const Crash& b) { return a.size < b.size; });
  const Crash& rep = files.front();
  UniqueFinding u;
  u.target = std::string(rep.target->name);
  u.signature = sig;
  u.duplicates = files.size();
  u.first_crash = relative_or_absolute(rep.file);
  rerun(c, rep, sig, &u);  // stops early on a signal
  const bool hurry = g_signal != 0;
  std::optional<io::AnyProgram> program;
  if (auto bytes = read_bytes(rep.file)) {
    program = io::decode_body_for(rep.target->subject, *bytes);
    if (program) {
      std::visit([&](auto& p) { p.level = rep.target->level; }, *program);
      u.original_ops = std::visit([](const auto& p) { return p.ops.size(); }, *program);
    }
  }
  const bool replayable = !sig.ends_with(":no-repro") &&
                          sig.find(":sanitizer:") == std::string::npos &&
                          sig.find(":crash:") == std::string::npos;
  std::string why;
  std::optional<tools::MinimizeResult> min;
  if (program && replayable && !hurry) {
    tools::MinimizeBudget budget;
    budget.stop = &g_signal;  // a SIGINT/SIGTERM ends the minimisation at the next try
    min = tools::minimize(*program, rep.target->level, &why, budget);
  }
  std::optional<io::AnyProgram> repro = min ? std::optional(min->program) : program;
  if (repro)
    write_reproducer(c, rep, *repro, min.has_value(), min && !min->minimal ? min->stopped : "",
                     serial, &u);
  if (!repro)
    u.reproduce = fmt::format("{} -runs=1 {}",
                              shell_quote(relative_or_absolute(c.fuzz_dir / u.target)),
                              shell_quote(u.first_crash));
  if (hurry)
    u.status = replayable ? FindingStatus::kNew : FindingStatus::kNoRepro;
  else if (u.rerun_failures == 0)
    u.status = FindingStatus::kNoRepro;
  else if (u.rerun_failures < u.reruns)
    u.status = FindingStatus::kFlaky;
  else
    u.status = FindingStatus::kNew;
  if (u.status == FindingStatus::kNew) apply_accepted(accepted, repro, &u);
  return u;
}

std::vector<UniqueFinding> make_findings(const Context& c, const std::vector<Crash>& crashes,
                                         const std::vector<AcceptedEntry>& accepted) {
  std::vector<UniqueFinding> findings;
  unsigned serial = 0;
  for (auto& [sig, files] : classify(c, crashes))
    findings.push_back(make_finding(c, sig, files, ++serial, accepted));
  fold_variants(&findings);
  std::stable_sort(findings.begin(), findings.end(),
                   [](const UniqueFinding& a, const UniqueFinding& b) {
                     return (a.status == FindingStatus::kAccepted) <
                            (b.status == FindingStatus::kAccepted);
                   });
  return findings;
}

// The binaries: libFuzzer's always (merge, re-runs), AFL's for --engine afl;
// built with their preset unless --fuzz-dir / --afl-dir name them.
bool find_binaries(Context* c, const std::vector<const FuzzTarget*>& targets,
                   std::string* error) {
  auto build = [&](const std::string& preset, fs::path* dir) {
    if (!dir->empty()) return true;
    *dir = tools::preset_dir(preset) / "fuzz";
    fmt::print("campaign: building the {} binaries if needed (cmake --build --preset {})\n",
               preset == "afl" ? "AFL++" : "libFuzzer", preset);
    std::fflush(stdout);
    std::vector<std::string> build_targets;  // only the fuzzers this campaign runs
    for (const FuzzTarget* t : targets) build_targets.push_back("fuzz_" + std::string(t->name));
    return tools::build_preset(preset, c->o.out / fmt::format("build-{}.log", preset), error,
                               build_targets) &&
           check_binary_dir("built", *dir, preset, targets, error);
  };
  c->fuzz_dir = c->o.fuzz_dir;
  c->afl_dir = c->o.afl_dir;
  if (!build("fuzz", &c->fuzz_dir) || (c->afl && !build("afl", &c->afl_dir))) return false;
  c->afl_fuzz = c->afl ? tools::find_program("afl-fuzz") : fs::path();
  if (c->afl && c->afl_fuzz.empty()) {
    *error = "afl-fuzz not found on PATH (apt-get install afl++, or scripts/install-deps.sh)";
    return false;
  }
  return true;
}

}  // namespace

bool glob_match(std::string_view p, std::string_view t) {
  std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi, ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::optional<std::vector<AcceptedEntry>> load_accepted(const fs::path& file,
                                                        std::string* error) {
  std::ifstream in(file);
  if (!in) {
    *error = fmt::format("{}: cannot read the accepted-divergences file", file.string());
    return std::nullopt;
  }
  std::vector<AcceptedEntry> out;
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto dashes = t.find(" -- ");
    AcceptedEntry e;
    e.line = n;
    std::istringstream words(t.substr(0, dashes));
    std::string extra;
    words >> e.target >> e.pattern >> extra;
    if (dashes == std::string::npos || e.pattern.empty()) {
      *error = fmt::format("{}:{}: expected 'TARGET SIGNATURE-GLOB [if-deadline-level-passes] "
                           "-- REASON'", file.string(), n);
      return std::nullopt;
    }
    if (!find_target(e.target)) {
      *error = fmt::format("{}:{}: unknown target '{}' (known: {})", file.string(), n, e.target,
                           target_names());
      return std::nullopt;
    }
    if (!extra.empty()) {
      if (extra != "if-deadline-level-passes") {
        *error = fmt::format("{}:{}: unknown condition '{}' (known: if-deadline-level-passes)",
                             file.string(), n, extra);
        return std::nullopt;
      }
      e.if_deadline_level_passes = true;
    }
    if (words >> extra) {
      *error = fmt::format("{}:{}: unexpected '{}' before --", file.string(), n, extra);
      return std::nullopt;
    }
    e.reason = trim(std::string_view(t).substr(dashes + 4));
    out.push_back(std::move(e));
  }
  return out;
}

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
      o.accepted.empty() ? tools::source_dir() / "corpus" / "accepted.txt" : o.accepted;
  const auto accepted = load_accepted(accepted_file, error);
  if (!accepted || !check_paths(o, *targets, error) || !prepare_out(o, error)) return kExitBadInput;
  Context c{.o = o, .afl = o.engine == "afl", .n_targets = targets->size()};
  if (!find_binaries(&c, *targets, error)) return kExitBadInput;

  SignalScope signals;
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
  r.findings = make_findings(c, crashes, *accepted);
  r.seconds = c.elapsed();
  r.interrupted = g_signal != 0;
  r.signal = g_signal;

  std::string werr;
  const bool ok = io::write_file((o.out / "summary.md").string(), report_markdown(r), &werr) &&
                  io::write_file((o.out / "junit.xml").string(), report_junit(r), &werr) &&
                  io::write_file((o.out / "results.sarif").string(), report_sarif(r), &werr);
  if (!ok) {
    *error = werr;
    return kExitBadInput;
  }
  return r.exit_status();
}

}  // namespace diffsched::campaign
