#include "campaign/campaign.h"

#include <algorithm>
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
};

// libFuzzer (fork mode) prints "#N: cov: C ft: F corp: ..." lines; non-fork
// mode "#N\tNEW cov: C ft: F ...". The last such line wins.
EngineStatus parse_libfuzzer_log(const fs::path& log) {
  EngineStatus st;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 2 || line[0] != '#') continue;
    const auto cov = line.find("cov: ");
    if (cov == std::string::npos) continue;
    st.execs = std::strtoull(line.c_str() + 1, nullptr, 10);
    st.coverage = std::strtoull(line.c_str() + cov + 5, nullptr, 10);
    if (const auto ft = line.find("ft: "); ft != std::string::npos)
      st.features = std::strtoull(line.c_str() + ft + 4, nullptr, 10);
  }
  return st;
}

// afl-fuzz writes OUT/<instance>/fuzzer_stats as "key : value" lines.
EngineStatus parse_afl_stats(const fs::path& afl_out) {
  EngineStatus st;
  std::error_code ec;
  for (const auto& inst : fs::directory_iterator(afl_out, ec)) {
    std::ifstream in(inst.path() / "fuzzer_stats");
    std::string line;
    while (std::getline(in, line)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = trim(std::string_view(line).substr(0, colon));
      const std::uint64_t value = std::strtoull(line.c_str() + colon + 1, nullptr, 10);
      if (key == "execs_done") st.execs += value;
      if (key == "edges_found") st.coverage = std::max(st.coverage, value);
    }
  }
  return st;
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

// Waits for the engine's processes until they exit, the deadline passes
// (then SIGINT) or a signal arrives (forwarded as SIGINT to their process
// groups). Prints progress. Returns the first non-zero exit status, or 0.
int supervise(std::vector<pid_t> pids, double budget, const std::string& label, bool afl, const TargetWork& w,
              const CampaignOptions& o, double campaign_elapsed_before, double campaign_budget) {
  const bool tty = ::isatty(STDOUT_FILENO);
  const auto start = Clock::now();
  auto last_print = start;
  bool stopping = false;
  auto stop_sent = start;
  int result = 0;
  LiveFindings live;
  while (!pids.empty()) {
    for (auto it = pids.begin(); it != pids.end();) {
      int status = 0;
      const pid_t r = ::waitpid(*it, &status, WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) {
        ++it;
        continue;
      }
      const int rc = r < 0                 ? -1
                     : WIFEXITED(status)   ? WEXITSTATUS(status)
                     : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                           : -1;
      if (!result) result = rc;
      it = pids.erase(it);
    }
    if (pids.empty()) break;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (!stopping && (g_signal || elapsed > budget + 15)) {
      for (pid_t pid : pids) ::kill(-pid, SIGINT);  // libFuzzer and afl-fuzz wrap up on SIGINT
      stopping = true;
      stop_sent = now;
    }
    if (stopping && std::chrono::duration<double>(now - stop_sent).count() > 20) {
      for (pid_t pid : pids) ::kill(-pid, SIGKILL);
    }
    const double since = std::chrono::duration<double>(now - last_print).count();
    if (since >= (tty ? 1.0 : o.progress_every)) {
      last_print = now;
      const EngineStatus st = afl ? parse_afl_stats(w.dir / "afl") : parse_libfuzzer_log(w.log);
      const double total = campaign_elapsed_before + elapsed;
      live.update(w, afl);
      const std::string line = fmt::format(
          "campaign {} {}/{} (remaining {}) | {} execs, {:.0f}/s | cov {} ft {} | findings {} "
          "({} crash files)",
          label, mmss(total), mmss(campaign_budget), mmss(campaign_budget - total), st.execs,
          elapsed > 0 ? static_cast<double>(st.execs) / elapsed : 0.0, st.coverage, st.features,
          live.signatures.size(), live.files.size());
      if (tty)
        fmt::print("\r\033[K{}", line);
      else
        fmt::print("{}\n", line);
      std::fflush(stdout);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (tty) fmt::print("\r\033[K");
  return result;
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
                       std::string* error) {
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
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (g_signals > signals_before && !abandoned) {  // a further signal: give up the merge
      ::kill(-pid, SIGKILL);
      abandoned = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (abandoned || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fs::remove_all(staging, ec);
    *error = abandoned ? "merge abandoned on a second signal"
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
  // -- arguments
  std::vector<const FuzzTarget*> targets;
  if (o.targets.empty()) {
    for (const auto& t : kFuzzTargets) targets.push_back(&t);
  } else {
    for (const auto& name : o.targets) {
      const FuzzTarget* t = find_target(name);
      if (!t) {
        *error = fmt::format("unknown target '{}' (known: {})", name, target_names());
        return 2;
      }
      targets.push_back(t);
    }
  }
  const bool afl = o.engine == "afl";
  if (!afl && o.engine != "libfuzzer") {
    *error = fmt::format("unknown engine '{}' (known: libfuzzer, afl)", o.engine);
    return 2;
  }
  if (o.seconds < 1 || o.jobs < 1) {
    *error = "--time must be at least 1 second and --jobs at least 1";
    return 2;
  }
  const fs::path accepted_file =
      o.accepted.empty() ? tools::source_dir() / "corpus" / "accepted.txt" : o.accepted;
  auto accepted = load_accepted(accepted_file, error);
  if (!accepted) return 2;

  std::error_code ec;
  fs::create_directories(o.out / "findings", ec);
  fs::create_directories(o.out / "work", ec);
  if (ec) {
    *error = fmt::format("cannot create {}: {}", o.out.string(), ec.message());
    return 2;
  }

  // -- binaries: libFuzzer's always (merge, re-runs), AFL's for --engine afl
  fs::path fuzz_dir = o.fuzz_dir, afl_dir = o.afl_dir;
  auto build = [&](const std::string& preset, fs::path* dir) {
    if (!dir->empty()) return true;
    *dir = tools::preset_dir(preset) / "fuzz";
    fmt::print("campaign: building the {} binaries if needed (cmake --build --preset {})\n",
               preset == "afl" ? "AFL++" : "libFuzzer", preset);
    std::fflush(stdout);
    std::vector<std::string> build_targets;  // only the fuzzers this campaign runs
    for (const FuzzTarget* t : targets) build_targets.push_back("fuzz_" + std::string(t->name));
    return tools::build_preset(preset, o.out / fmt::format("build-{}.log", preset), error,
                               build_targets);
  };
  if (!build("fuzz", &fuzz_dir) || (afl && !build("afl", &afl_dir))) return 2;
  for (const FuzzTarget* t : targets) {
    for (const fs::path& d : afl ? std::vector{fuzz_dir, afl_dir} : std::vector{fuzz_dir}) {
      if (::access((d / std::string(t->name)).c_str(), X_OK) != 0) {
        *error = fmt::format("no fuzz binary {} (build the fuzz preset, or pass --fuzz-dir)",
                             (d / std::string(t->name)).string());
        return 2;
      }
    }
  }
  const fs::path afl_fuzz = afl ? tools::find_program("afl-fuzz") : fs::path();
  if (afl && afl_fuzz.empty()) {
    *error = "afl-fuzz not found on PATH (apt-get install afl++, or scripts/install-deps.sh)";
    return 2;
  }

  // -- fuzz each target in turn
  SignalScope signals;
  CampaignReport& r = *report;
  r = CampaignReport{};
  r.started_utc = utc_now();
  r.budget_seconds = o.seconds;
  r.engine = o.engine;
  r.jobs = o.jobs;
  r.corpus_dir = o.corpus.string();
  r.out_dir = o.out.string();
  const auto campaign_start = Clock::now();
  std::vector<Crash> crashes;
  std::vector<TargetWork> works;
  const double share = o.seconds / static_cast<double>(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const FuzzTarget* t = targets[i];
    TargetWork w;
    w.target = t;
    w.dir = o.out / "work" / std::string(t->name);
    w.scratch = w.dir / "found";
    w.crashes = w.dir / "crashes";
    w.log = w.dir / "engine.log";
    w.corpus = o.corpus / std::string(t->name);
    fs::remove_all(w.dir, ec);
    fs::create_directories(w.scratch, ec);
    fs::create_directories(w.crashes, ec);
    ensure_corpus(w);
    remove_stale_staging(w);
    TargetRun run;
    run.target = std::string(t->name);
    run.property = std::string(t->property);
    run.engine = o.engine;
    run.corpus_before = regular_files(w.corpus).size();
    const fs::path fuzzer = fuzz_dir / std::string(t->name);
    if (g_signal) {
      run.ran = false;
      run.error = "not run: the campaign was interrupted";
      r.targets.push_back(std::move(run));
      continue;
    }
    // The remaining budget is shared by the remaining targets.
    const double used = std::chrono::duration<double>(Clock::now() - campaign_start).count();
    const double budget =
        std::max(1.0, std::min(share * 1.5, (o.seconds - used) /
                                                static_cast<double>(targets.size() - i)));
    const auto seconds = static_cast<long>(budget + 0.5);
    std::vector<std::vector<std::string>> commands;  // one per process
    fs::path found_dir = w.scratch;
    if (!afl) {
      std::vector<std::string> argv = {fuzzer.string(), fmt::format("-fork={}", o.jobs), "-ignore_crashes=1",
              "-ignore_timeouts=1", "-ignore_ooms=1", fmt::format("-max_total_time={}", seconds),
              "-artifact_prefix=" + (w.crashes.string() + "/"), "-print_final_stats=1"};
      if (o.seed) argv.push_back(fmt::format("-seed={}", *o.seed));
      for (auto& a : options_file_args(fuzz_dir / (std::string(t->name) + ".options"), fuzz_dir))
        argv.push_back(std::move(a));
      argv.push_back(w.scratch.string());
      argv.push_back(w.corpus.string());
      commands.push_back(std::move(argv));
    } else {
      // afl-fuzz, JOBS instances (-M main, -S s1...) over one output dir;
      // the corpus is the input dir; the dict is the one of the .options file.
      std::string dict;
      for (const auto& a :
           options_file_args(fuzz_dir / (std::string(t->name) + ".options"), fuzz_dir))
        if (a.starts_with("-dict=")) dict = a.substr(6);
      for (unsigned k = 0; k < o.jobs; ++k) {
        std::vector<std::string> argv = {afl_fuzz.string(), "-i", w.corpus.string(), "-o",
                                         (w.dir / "afl").string(), "-V", std::to_string(seconds)};
        if (o.jobs > 1) {
          argv.push_back(k == 0 ? "-M" : "-S");
          argv.push_back(k == 0 ? std::string("main") : fmt::format("s{}", k));
        }
        if (!dict.empty()) {
          argv.push_back("-x");
          argv.push_back(dict);
        }
        if (o.seed) {
          argv.push_back("-s");
          argv.push_back(std::to_string(*o.seed + k));
        }
        argv.push_back("--");
        argv.push_back((afl_dir / std::string(t->name)).string());
        commands.push_back(std::move(argv));
      }
    }
    const std::string label = fmt::format("[{} {}/{}]", t->name, i + 1, targets.size());
    fmt::print("campaign {}: {} for {} s ({} job{})\n", label, o.engine, seconds, o.jobs,
               o.jobs == 1 ? "" : "s");
    std::fflush(stdout);
    const auto t_start = Clock::now();
    tools::RunOptions ro{.log = w.log, .new_process_group = true};
    if (afl)
      ro.env = {{"AFL_NO_UI", "1"}, {"AFL_SKIP_CPUFREQ", "1"},
                {"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"}, {"AFL_NO_AFFINITY", "1"},
                {"AFL_SKIP_CRASHES", "1"}, {"AFL_FAST_CAL", "1"}};
    std::vector<pid_t> pids;
    for (std::size_t k = 0; k < commands.size(); ++k) {
      if (k > 0) ro.log = w.dir / fmt::format("engine-{}.log", k);
      pids.push_back(tools::spawn(commands[k], ro));
    }
    const double before = std::chrono::duration<double>(t_start - campaign_start).count();
    const int rc = supervise(pids, budget, label, afl, w, o, before, o.seconds);
    run.seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
    const EngineStatus st = afl ? parse_afl_stats(w.dir / "afl") : parse_libfuzzer_log(w.log);
    run.execs = st.execs;
    run.coverage = st.coverage;
    run.features = st.features;
    run.exec_per_s = run.seconds > 0 ? static_cast<std::uint64_t>(st.execs / run.seconds) : 0;
    run.crash_files = crash_files(w, afl).size();  // before AFL's are copied below
    const std::string log_text = read_text(w.log);
    const bool started = afl ? fs::exists(w.dir / "afl" / (o.jobs > 1 ? "main" : "default") /
                                          "fuzzer_stats")
                             : log_text.find("INFO: Seed:") != std::string::npos;
    if (rc == 127 || rc < 0 || !started) {
      run.ran = false;
      run.error = fmt::format("the engine did not run (exit {}); last lines of {}:\n{}", rc,
                              w.log.string(), tools::tail_file(w.log, 8));
    }
    // AFL's queue holds what it found; libFuzzer wrote into w.scratch.
    if (afl) {
      found_dir = w.dir / "afl-queue";
      fs::create_directories(found_dir, ec);
      for (const auto& inst : fs::directory_iterator(w.dir / "afl", ec)) {
        for (const auto& f : regular_files(inst.path() / "queue"))
          fs::copy_file(f, found_dir / fmt::format("{}-{}", inst.path().filename().string(),
                                                   f.filename().string()), ec);
        for (const auto& f : regular_files(inst.path() / "crashes"))
          if (f.filename().string().starts_with("id:"))
            fs::copy_file(f, w.crashes / fmt::format("afl-{}-{}", inst.path().filename().string(),
                                                     f.filename().string()), ec);
      }
    }
    std::string merge_error;
    const long added = merge_into_corpus(w, fuzzer, found_dir, &merge_error);
    if (added < 0 && run.ran) run.error = merge_error;
    run.corpus_after = regular_files(w.corpus).size();
    for (const auto& f : regular_files(w.crashes))
      if (is_crash_file(f)) crashes.push_back({t, f, fs::file_size(f, ec)});
    fmt::print("campaign {}: {} execs in {:.0f} s, cov {}, corpus {} -> {}, {} crash file{}{}\n",
               label, run.execs, run.seconds, run.coverage, run.corpus_before, run.corpus_after,
               run.crash_files, run.crash_files == 1 ? "" : "s",
               run.ran ? "" : " (" + run.error.substr(0, run.error.find('\n')) + ")");
    std::fflush(stdout);
    r.targets.push_back(std::move(run));
    works.push_back(std::move(w));
  }
  r.interrupted = g_signal != 0;

  // -- classify every crash file by replaying it; one group per signature
  struct Group {
    std::vector<Crash> files;
  };
  std::map<std::string, Group> groups;  // signature -> files (first: smallest)
  std::map<std::string, const FuzzTarget*> group_target;
  for (const Crash& c : crashes) {
    std::string sig = replay_signature(*c.target, c.file);
    if (sig.empty()) {
      const BinaryVerdict bv = run_binary_on(fuzz_dir / std::string(c.target->name), c.file,
                                             o.out / "work" / "classify.log");
      sig = bv.failed ? std::string(c.target->subject) + ":" + bv.signature
                      : std::string(c.target->subject) + ":no-repro";
    }
    if (!group_target.count(sig)) group_target[sig] = c.target;
    groups[sig].files.push_back(c);
  }

  // -- per unique signature: re-run, minimise, store, accept or fail
  unsigned serial = 0;
  for (auto& [sig, g] : groups) {
    std::stable_sort(g.files.begin(), g.files.end(),
                     [](const Crash& a, const Crash& b) { return a.size < b.size; });
    const Crash& rep = g.files.front();
    UniqueFinding u;
    u.target = std::string(group_target[sig]->name);
    u.signature = sig;
    u.duplicates = g.files.size();
    u.first_crash = relative_or_absolute(rep.file);
    const fs::path fuzzer = fuzz_dir / std::string(rep.target->name);
    for (unsigned k = 0; k < o.reruns; ++k) {
      const BinaryVerdict bv = run_binary_on(fuzzer, rep.file, o.out / "work" / "rerun.log");
      ++u.reruns;
      const std::string got =
          bv.failed ? (bv.signature.find(':') != std::string::npos &&
                               bv.signature.starts_with(std::string(rep.target->subject) + ":")
                           ? bv.signature
                           : std::string(rep.target->subject) + ":" + bv.signature)
                    : std::string();
      u.rerun_failures += bv.failed && got == sig;
    }
    std::string why;
    std::optional<tools::MinimizeResult> min;
    std::optional<io::AnyProgram> program;
    if (auto bytes = read_bytes(rep.file)) {
      program = io::decode_body_for(rep.target->subject, *bytes);
      if (program) {
        std::visit([&](auto& p) { p.level = rep.target->level; }, *program);
        u.original_ops = std::visit([](const auto& p) { return p.ops.size(); }, *program);
      }
    }
    if (program && !sig.ends_with(":no-repro") && sig.find(":sanitizer:") == std::string::npos &&
        sig.find(":crash:") == std::string::npos)
      min = tools::minimize(*program, rep.target->level, &why);
    const io::AnyProgram& repro = min ? min->program : *program;
    const std::string base = fmt::format("{}-{}", u.target, ++serial);
    const fs::path ops_path = o.out / "findings" / (base + ".ops");
    const fs::path bin_path = o.out / "findings" / (base + ".bin");
    if (program) {
      u.ops_text = io::format_program(repro);
      if (min && !min->minimal)  // the minimisation's budget (tools::MinimizeBudget) ran out
        u.ops_text = fmt::format("# not minimal: the {} ran out\n{}", min->stopped, u.ops_text);
      u.minimized_ops = std::visit([](const auto& p) { return p.ops.size(); }, repro);
      const auto bytes = io::encode_file(repro);
      std::string werr;
      io::write_file(ops_path.string(), u.ops_text, &werr);
      io::write_file(bin_path.string(),
                     std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                     &werr);
      u.ops_path = relative_or_absolute(ops_path);
      u.bin_path = relative_or_absolute(bin_path);
      // The finding as the reproducer shows it (replayed in-process).
      std::visit(
          [&]<class P>(const P& p) {
            using S = typename P::Subject;
            typename S::Lockstep lockstep;
            const Verdict v = run_lockstep<S>(lockstep, p.config, p.ops,
                                              p.level.value_or(S::kDefaultLevel));
            if (v.finding) u.finding = *v.finding;
          },
          repro);
      u.check_file = u.finding.check_source();
      u.check_line = u.finding.check_line;
      u.reproduce = fmt::format("{} replay {}", o.self, shell_quote(u.ops_path));
      if (!min) {
        u.reproduce = fmt::format("{} -runs=1 {}", shell_quote(relative_or_absolute(fuzzer)),
                                  shell_quote(u.first_crash));
      }
    } else {
      u.reproduce = fmt::format("{} -runs=1 {}", shell_quote(relative_or_absolute(fuzzer)),
                                shell_quote(u.first_crash));
    }
    // Status: re-runs first, then the accepted list.
    if (u.rerun_failures == 0)
      u.status = FindingStatus::kNoRepro;
    else if (u.rerun_failures < u.reruns)
      u.status = FindingStatus::kFlaky;
    else
      u.status = FindingStatus::kNew;
    if (u.status == FindingStatus::kNew) {
      for (const AcceptedEntry& e : *accepted) {
        if (e.target != u.target || !glob_match(e.pattern, u.signature)) continue;
        if (e.if_deadline_level_passes) {
          bool passes = false;
          std::visit(
              [&]<class P>(const P& p) {
                using S = typename P::Subject;
                typename S::Lockstep lockstep;
                passes = run_lockstep<S>(lockstep, p.config, p.ops, Level::kDeadline).ok();
              },
              repro);
          if (!passes) continue;
        }
        u.status = FindingStatus::kAccepted;
        u.accepted_reason = e.reason;
        break;
      }
    }
    r.findings.push_back(std::move(u));
  }
  fold_variants(&r.findings);
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const UniqueFinding& a, const UniqueFinding& b) {
                     return (a.status == FindingStatus::kAccepted) <
                            (b.status == FindingStatus::kAccepted);
                   });
  r.seconds = std::chrono::duration<double>(Clock::now() - campaign_start).count();

  // -- reports
  std::string werr;
  bool ok = io::write_file((o.out / "summary.md").string(), report_markdown(r), &werr) &&
            io::write_file((o.out / "junit.xml").string(), report_junit(r), &werr) &&
            io::write_file((o.out / "results.sarif").string(), report_sarif(r), &werr);
  if (!ok) {
    *error = werr;
    return 2;
  }
  for (const auto& t : r.targets)
    if (!t.ran && !r.interrupted) {
      *error = fmt::format("target {} could not run: {}", t.target, t.error);
      return 2;
    }
  if (r.new_findings()) return 1;
  if (r.interrupted) return 128 + g_signal;
  return 0;
}

}  // namespace diffsched::campaign
