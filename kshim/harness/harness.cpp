// kcheck_harness: the libFuzzer binary `diffsched kernel-check` drives. It
// loads one or two kernel C candidates (shared objects built through the
// kshim) as sides next to a built-in baseline, and runs the project's checks
// on them: invariants, the reference at the level, the model, WARN_ON.
//
//   KCHECK_SUBJECT=cpudl KCHECK_CANDIDATE=cand.so KCHECK_BASELINE=builtin-reference \
//   KCHECK_LEVEL=deadline kcheck_harness -max_total_time=10 corpus/     # fuzz (libFuzzer)
//   KCHECK_MODE=replay   KCHECK_INPUT=min.ops ... kcheck_harness         # trace, exit 0/1
//   KCHECK_MODE=minimize KCHECK_INPUT=crash-x KCHECK_RAW=1 KCHECK_OUTPUT=min.ops ...
//   KCHECK_MODE=check    KCHECK_SEEDS=corpus/seeds/cpudl KCHECK_RUNS=2000 KCHECK_OUTPUT=min.ops
//   KCHECK_MODE=load     ...                 # only load the candidates (link errors), exit 0/2
//
// Other settings: KCHECK_BASELINE may also be a second candidate .so (e.g. the
// unpatched file); KCHECK_CAPACITY=1024,512,... turns the asymmetric-capacity
// branch of cpudl_find() on with these per-CPU capacities (repeated);
// KCHECK_TASK_UTIL (1..1024) fixes the task's runtime/deadline in 1024ths
// (default: per find, drawn from the find's fields, see task_for_find);
// KCHECK_NR_CPUS=4,64 runs every input at one of these nr_cpu_ids;
// KCHECK_QUIET=1 replays without the trace; KCHECK_DECODE_ONLY=1 (replay)
// writes the input as .ops to KCHECK_OUTPUT; KCHECK_MODE=alloc with
// KCHECK_FAIL_ALLOC=n makes allocation n of cpudl_init() fail;
// KCHECK_MIN_SECONDS / KCHECK_MIN_TRIES bound the minimisation;
// KCHECK_HANG_SECONDS (default 10) is how long one program of the property
// run may take before it is a hang (status 79, the program saved).
// Non-fuzz modes run inside LLVMFuzzerInitialize and exit: 0 equivalent,
// 1 finding, 2 could not load or run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <csignal>

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include <fmt/format.h>

#include "engine/exit_status.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "io/trace.h"
#include "kernel_c_side.h"
#include "targets.h"
#include "tools/minimize.h"

namespace diffsched::kcheck {
namespace {

struct Settings {
  std::string subject = "cpudl";
  std::string candidate, baseline = "builtin-reference";
  Level level = Level::kDeadline;
  const FuzzTarget* target = nullptr;
  TaskShape task;
};

Settings g_settings;
std::vector<Candidate> g_candidates;  // [baseline if a file], candidate
std::vector<pick::PickSide> g_pick_sides;
std::vector<unsigned> g_nr_cpus;  // KCHECK_NR_CPUS: the nr_cpu_ids to use, else the body's

// The body the decoder sees. With KCHECK_NR_CPUS, the input's first byte picks
// one of those values and the rest follows an explicit nr_cpu_ids header
// (0xf0, nr - 1 little-endian: docs/input-format.md), so every input runs at
// a chosen size; raw inputs are reshaped the same way when replayed.
std::span<const std::uint8_t> shape_body(std::span<const std::uint8_t> in) {
  if (g_nr_cpus.empty()) return in;
  thread_local std::vector<std::uint8_t> buf;
  const unsigned nr = g_nr_cpus[in.empty() ? 0 : in[0] % g_nr_cpus.size()];
  buf.assign({0xf0, static_cast<std::uint8_t>((nr - 1) & 0xff),
              static_cast<std::uint8_t>((nr - 1) >> 8)});
  if (!in.empty()) buf.insert(buf.end(), in.begin() + 1, in.end());
  return buf;
}

std::string env(const char* name, std::string fallback = {}) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

[[noreturn]] void fail(const std::string& message) {
  fmt::print(stderr, "kcheck: error: {}\n", message);
  std::exit(2);
}

bool is_builtin(const std::string& name) { return name.rfind("builtin-", 0) == 0; }

std::vector<std::unique_ptr<cpudl::Side>> make_cpudl_sides() {
  std::vector<std::unique_ptr<cpudl::Side>> sides;
  const Settings& s = g_settings;
  std::size_t next = 0;
  if (s.baseline == "builtin-reference")
    sides.push_back(cpudl::make_reference_side());
  else if (s.baseline == "builtin-optimized")
    sides.push_back(cpudl::make_optimized_side());
  else
    sides.push_back(make_cpudl_side("baseline", g_candidates[next++], s.task));
  sides.push_back(make_cpudl_side("candidate", g_candidates[next], s.task));
  return sides;
}

void load(const std::string& path) {
  std::string error;
  auto c = load_candidate(path, &error);
  if (!c) fail(error);
  const bool pick = g_settings.subject == "pick";
  if (pick != (c->table->api == KCHECK_API_PICK))
    fail(fmt::format("{} is a {} candidate, not {}", path, api_name(c->table->api),
                     g_settings.subject));
  g_candidates.push_back(*c);
}

std::vector<unsigned long> parse_capacities_or_counts(const std::string& text, unsigned long max,
                                                     const char* what) {
  std::vector<unsigned long> caps;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? comma : comma - pos);
    char* end = nullptr;
    const unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end || v == 0 || v > max)
      fail(fmt::format("{}: '{}' is not a number in 1..{}", what, item, max));
    caps.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return caps;
}

void setup() {
  Settings& s = g_settings;
  s.subject = env("KCHECK_SUBJECT", "cpudl");
  if (s.subject != "cpudl" && s.subject != "pick")
    fail(fmt::format("KCHECK_SUBJECT '{}': cpudl or pick", s.subject));
  s.candidate = env("KCHECK_CANDIDATE");
  if (s.candidate.empty()) fail("KCHECK_CANDIDATE (the candidate's .so) is not set");
  s.baseline = env("KCHECK_BASELINE", "builtin-reference");
  const std::string level = env("KCHECK_LEVEL", s.subject == "pick" ? "exact" : "deadline");
  auto parsed = parse_level(level);
  if (!parsed) fail(fmt::format("KCHECK_LEVEL '{}': exact or deadline", level));
  s.level = *parsed;
  s.target = find_target(s.subject == "pick" ? "pick"
                         : s.level == Level::kExact ? "cpudl_exact"
                                                    : "cpudl");
  // KCHECK_TASK_UTIL unset, empty or "per-find": each find's own task
  // (task_for_find); else a fixed runtime/deadline for every find, on CPU 0.
  if (const std::string util_text = env("KCHECK_TASK_UTIL", "per-find"); util_text == "per-find") {
    s.task.per_find = true;
  } else {
    const unsigned long util = parse_capacities_or_counts(util_text, 1024, "KCHECK_TASK_UTIL")[0];
    s.task.dl_runtime = s.task.dl_deadline * util / 1024;
  }

  if (const std::string nrs = env("KCHECK_NR_CPUS"); !nrs.empty()) {
    for (const auto v : parse_capacities_or_counts(nrs, 8192, "KCHECK_NR_CPUS"))
      g_nr_cpus.push_back(static_cast<unsigned>(v));
  }
  if (!is_builtin(s.baseline)) load(s.baseline);
  load(s.candidate);
  if (const std::string caps_text = env("KCHECK_CAPACITY"); !caps_text.empty()) {
    const auto caps = parse_capacities_or_counts(caps_text, 1024, "KCHECK_CAPACITY");
    s.task.asym_capacity = true;
    for (auto& c : g_candidates)
      c.table->set_capacity(1, caps.data(), static_cast<unsigned>(caps.size()));
  }

  if (s.subject == "cpudl") {
    if (s.baseline != "builtin-reference" && s.baseline != "builtin-optimized" &&
        is_builtin(s.baseline))
      fail(fmt::format("baseline '{}': builtin-reference, builtin-optimized or a file",
                       s.baseline));
    cpudl::set_default_sides_factory(make_cpudl_sides);
  } else {
    std::size_t next = 0;
    if (is_builtin(s.baseline)) {
      bool found = false;
      for (const auto& side : pick::default_sides())
        if (s.baseline == fmt::format("builtin-{}", side.name)) {
          g_pick_sides.push_back(pick::PickSide{"baseline", side.fn, nullptr});
          found = true;
        }
      if (!found)
        fail(fmt::format("baseline '{}': builtin-reference, builtin-optimized, "
                         "builtin-fused or a file", s.baseline));
    }
    std::string error;
    for (const char* name : {"baseline", "candidate"}) {
      if (is_builtin(s.baseline) && std::string_view(name) == "baseline") continue;
      auto side = make_pick_side(name, g_candidates[next++], &error);
      if (!side) fail(error);
      g_pick_sides.push_back(*side);
    }
    pick::set_default_sides(g_pick_sides);
  }
}

// The check mode's current program, written out by the sanitizers' death
// callback (a memory or UB error in a candidate kills the process): the seed
// file's text as <output>.crash.ops, or the random body as <output>.crash.
struct Current {
  std::string crash_base;  // KCHECK_OUTPUT
  std::string seed_text;   // non-empty while a seed file runs
  std::span<const std::uint8_t> body;
} g_current;

void write_all(const std::string& path, const void* data, std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) break;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  ::close(fd);
}

void on_sanitizer_death() {
  if (g_current.crash_base.empty()) return;
  if (!g_current.seed_text.empty())
    write_all(g_current.crash_base + ".crash.ops", g_current.seed_text.data(),
              g_current.seed_text.size());
  else if (!g_current.body.empty())
    write_all(g_current.crash_base + ".crash", g_current.body.data(), g_current.body.size());
}

// The property run's status when one program did not finish within
// KCHECK_HANG_SECONDS (default 10): a hang in the candidate. The program is
// saved as on a sanitizer's death.
constexpr int kHangExit = 79;

void on_alarm(int) {
  on_sanitizer_death();  // open() and write() only
  static const char msg[] =
      "kcheck: a program did not finish within KCHECK_HANG_SECONDS (a hang in the candidate)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(kHangExit);
}

// Arms the alarm for one program of the property run (false disarms it).
void arm_hang_alarm(bool on) {
  static const unsigned seconds = [] {
    const unsigned long v = std::strtoul(env("KCHECK_HANG_SECONDS", "10").c_str(), nullptr, 10);
    return static_cast<unsigned>(v == 0 ? 10 : v);
  }();
  ::alarm(on ? seconds : 0);
}

bool is_failure(const Verdict& v) {
  return v.finding && v.finding->kind != FindingKind::kOutOfDomain;
}

// Minimises `program` at the level and writes it to `out` (if not empty).
// The budget is KCHECK_MIN_SECONDS / KCHECK_MIN_TRIES (tools::MinimizeBudget's
// defaults otherwise); when it runs out, the smallest reproducer so far is
// written and reported as not minimal.
int minimize_and_write(const io::AnyProgram& program, const std::string& out) {
  std::string error;
  tools::MinimizeBudget budget;
  if (const std::string s = env("KCHECK_MIN_SECONDS"); !s.empty())
    budget.max_seconds = std::strtod(s.c_str(), nullptr);
  if (const std::string s = env("KCHECK_MIN_TRIES"); !s.empty())
    budget.max_tries = std::strtoull(s.c_str(), nullptr, 10);
  auto r = tools::minimize(program, g_settings.level, &error, budget);
  if (!r) fail(error);
  std::string text = io::format_program(r->program);
  if (!r->minimal)  // the first line says so (the CLI reads it)
    text = fmt::format("# not minimal: the {} ran out\n{}", r->stopped, text);
  std::size_t ops = 0;
  std::visit([&](const auto& p) { ops = p.ops.size(); }, r->program);
  fmt::print("minimised: {} ops -> {} ops ({} runs, {:.1f} s), signature {}\n", r->original_ops,
             ops, r->runs, r->seconds, r->signature);
  if (!r->minimal)
    fmt::print("NOT MINIMAL: the minimisation's {} ran out; the reproducer is the smallest "
               "found so far (it fails the same way)\n", r->stopped);
  fmt::print("---- reproducer ----\n{}----\n", text);
  if (!out.empty() && !io::write_file(out, text, &error)) fail(error);
  return 1;
}

template <class S>
Verdict replay(const io::Program<S>& p, bool trace) {
  typename S::Lockstep lockstep;
  io::TextTrace<S> observer(stdout);
  return run_lockstep<S>(lockstep, p.config, std::span<const typename S::Op>(p.ops),
                         g_settings.level, trace ? &observer : nullptr);
}

int mode_replay(bool minimize) {
  const std::string input = env("KCHECK_INPUT");
  if (input.empty()) fail("KCHECK_INPUT is not set");
  std::string error;
  const bool raw = env("KCHECK_RAW") == "1";
  std::optional<io::AnyProgram> program;
  if (raw) {
    std::ifstream in(input, std::ios::binary);
    if (!in) fail(fmt::format("{}: cannot read", input));
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    program = io::decode_body_for(g_settings.target->subject, shape_body(bytes));
    if (program) std::visit([&](auto& p) { p.level = g_settings.level; }, *program);
    else error = fmt::format("{}: cannot decode", input);
  } else {
    program = io::load_program(input, nullptr, &error);
  }
  if (!program) fail(error);
  if (io::subject_name(*program) != g_settings.subject)
    fail(fmt::format("{} is a {} input, not {}", input, io::subject_name(*program),
                     g_settings.subject));
  if (env("KCHECK_DECODE_ONLY") == "1") {  // the input as .ops, for minimising outside
    if (!io::write_file(env("KCHECK_OUTPUT"), io::format_program(*program), &error)) fail(error);
    return 0;
  }
  Verdict v;
  const bool trace = !minimize && env("KCHECK_QUIET") != "1";
  std::visit([&](const auto& p) { v = replay(p, trace); }, *program);
  if (!minimize && v.finding && v.finding->kind == FindingKind::kOutOfDomain) {
    io::print_notes(stdout, v);
    fmt::print("OUT OF DOMAIN (no verdict, exit {}): {}\n", kExitOutOfDomain,
               v.finding->describe());
    return kExitOutOfDomain;
  }
  if (!is_failure(v)) {
    io::print_notes(stdout, v);
    if (v.finding)  // out-of-domain while minimising: said as such, never as equivalent
      fmt::print("no finding in the domain: the run left it after {} ops ({})\n", v.ops_run,
                 v.finding->describe());
    else
      fmt::print("equivalent at level {} after {} ops\n", level_name(g_settings.level),
                 v.ops_run);
    return 0;
  }
  fmt::print("FINDING: {}\n", v.finding->describe());
  if (minimize) return minimize_and_write(*program, env("KCHECK_OUTPUT"));
  return 1;
}

// The property run: the checked-in seeds, then random programs (random bytes
// through the total decoder) from a fixed seed.
int mode_check() {
  std::size_t programs = 0, ops = 0;
  g_current.crash_base = env("KCHECK_OUTPUT");
  __sanitizer_set_death_callback(on_sanitizer_death);
  std::signal(SIGALRM, on_alarm);
  auto failed = [&](const io::AnyProgram& program, const Verdict& v, const std::string& from) {
    fmt::print("FINDING in {} (after {} programs):\n{}\n", from, programs, v.finding->describe());
    return minimize_and_write(program, env("KCHECK_OUTPUT"));
  };
  if (const std::string dir = env("KCHECK_SEEDS"); !dir.empty() && std::filesystem::is_directory(dir)) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".ops") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string error;
      auto program = io::load_program(f.string(), nullptr, &error);
      if (!program) fail(error);
      if (io::subject_name(*program) != g_settings.subject) continue;
      Verdict v;
      g_current.seed_text = io::format_program(*program);
      arm_hang_alarm(true);
      std::visit([&](const auto& p) { v = replay(p, false); }, *program);
      arm_hang_alarm(false);
      g_current.seed_text.clear();
      ++programs;
      ops += v.ops_run;
      if (is_failure(v)) return failed(*program, v, f.string());
    }
  }
  const unsigned long runs = std::strtoul(env("KCHECK_RUNS", "2000").c_str(), nullptr, 10);
  const unsigned long seed = std::strtoul(env("KCHECK_SEED", "1").c_str(), nullptr, 10);
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> body;
  for (unsigned long i = 0; i < runs; ++i) {
    body.resize(8 + rng() % 248);
    for (auto& b : body) b = static_cast<std::uint8_t>(rng());
    g_current.body = body;
    const auto shaped = shape_body(body);
    arm_hang_alarm(true);
    const Verdict v = run_target(*g_settings.target, shaped);
    arm_hang_alarm(false);
    ++programs;
    ops += v.ops_run;
    if (is_failure(v)) {
      auto program = io::decode_body_for(g_settings.target->subject, shaped);
      return failed(*program, v, fmt::format("random program {} (seed {})", i, seed));
    }
  }
  fmt::print("equivalent: {} programs, {} ops checked at level {}\n", programs, ops,
             level_name(g_settings.level));
  return 0;
}

// Allocation failure, when asked: allocation KCHECK_FAIL_ALLOC (from 1) of
// cpudl_init() fails. 0: it failed cleanly (-ENOMEM; leaks are LeakSanitizer's
// to report at exit); 1: it succeeded anyway or returned something else;
// 3: cpudl_init() makes fewer allocations (nothing failed).
int mode_alloc() {
  const long n = std::strtol(env("KCHECK_FAIL_ALLOC", "1").c_str(), nullptr, 10);
  const kcheck_candidate& t = *g_candidates.back().table;
  if (t.api == KCHECK_API_PICK) fail("allocation failure applies to cpudl candidates");
  const unsigned nr = g_nr_cpus.empty() ? 8 : g_nr_cpus.front();
  t.reset_runtime(nr);
  t.fail_alloc(n);
  const int r = t.init();
  const bool failed = t.alloc_failed() != 0;
  t.fail_alloc(0);
  kcheck_warning w{};
  if (t.take_warning(&w)) {
    fmt::print("FINDING: cpudl_init() with allocation {} failing warned: {}:{}: {}\n", n,
               w.file ? w.file : "?", w.line, w.what ? w.what : "?");
    return 1;
  }
  if (r == -12) {
    fmt::print("cpudl_init() returned -ENOMEM when allocation {} failed\n", n);
    return 0;
  }
  if (r == 0 && failed) {
    fmt::print("FINDING: cpudl_init() returned 0 although allocation {} failed\n", n);
    return 1;
  }
  if (r == 0) {
    fmt::print("cpudl_init() makes fewer than {} allocations: all failure paths checked\n", n);
    return 3;
  }
  fmt::print("FINDING: cpudl_init() returned {} when allocation {} failed, expected -ENOMEM (-12)\n",
             r, n);
  return 1;
}

}  // namespace
}  // namespace diffsched::kcheck

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace diffsched::kcheck;
  setup();
  const std::string mode = env("KCHECK_MODE", "fuzz");
  if (mode == "fuzz") return 0;
  if (mode == "load") {  // setup() loaded every candidate (dlopen RTLD_NOW)
    fmt::print("loaded\n");
    std::fflush(stdout);
    std::exit(0);
  }
  int status = 2;
  if (mode == "replay")
    status = mode_replay(false);
  else if (mode == "minimize")
    status = mode_replay(true);
  else if (mode == "check")
    status = mode_check();
  else if (mode == "alloc")
    status = mode_alloc();
  else
    fail(fmt::format("KCHECK_MODE '{}': fuzz, load, replay, minimize, check or alloc",
                     mode));
  std::fflush(stdout);
  std::exit(status);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace diffsched::kcheck;
  return diffsched::fuzz_one(*g_settings.target, shape_body({data, size}));
}
