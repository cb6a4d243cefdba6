// kcheck_harness: the libFuzzer binary `diffsched kernel-check` drives. It
// loads one or two kernel C candidates (shared objects built through the
// kshim) as sides next to a built-in baseline, and runs the project's checks
// on them: invariants, the reference at the level, the model, WARN_ON.
//
//   kcheck_harness --candidate=cand.so --level=deadline -max_total_time=10 corpus/  # fuzz
//   kcheck_harness --mode=replay --candidate=cand.so --input=min.ops                 # trace
//   kcheck_harness --mode=minimize --candidate=cand.so --input=crash-x --raw --output=min.ops
//   kcheck_harness --mode=check --candidate=cand.so --seeds=corpus/seeds/cpudl --runs=2000
//   kcheck_harness --mode=load --candidate=cand.so      # only load the candidates (link errors)
//
// Its options are kernel-check's, defined once in src/kcheck/options.h
// (those marked kHarness), passed as --NAME=VALUE (libFuzzer ignores
// arguments that start with "--"; its own flags are -name=value). An unknown
// --NAME or a malformed value exits with kHarnessBadUsage: a misspelt name
// never silently gives a default. Non-fuzz modes run inside
// LLVMFuzzerInitialize and exit with the statuses of src/kcheck/status.h.
// With --capacity and no --task-util, each find asks about its own task
// (kernel_c_side.h, task_for_find).
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
#include <sanitizer/lsan_interface.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/exit_status.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "io/text.h"
#include "io/trace.h"
#include "harness_internal.h"
#include "harness_record.h"
#include "kernel_c_side.h"
#include "targets.h"
#include "kcheck/options.h"
#include "kcheck/status.h"
#include "engine/minimize.h"
#include "mutator/mutator.h"
#include "util/text.h"

namespace diffsched::kcheck {
namespace harness {

Settings g_settings;
Current g_current;
std::vector<Candidate> g_candidates;  // [baseline if a file], candidate
// The sides every run of this harness uses (the candidate's, beside the
// baseline's), handed to each entry that runs programs; nothing in the engine
// is installed process-wide.
LockstepSource g_sides;
std::vector<unsigned> g_nr_cpus;  // --nr-cpus: the nr_cpu_ids to use, else the body's

// The body the decoder sees. With --nr-cpus, the input's first byte picks
// one of those values and the rest follows an explicit nr_cpu_ids header
// (0xf0, nr - 1 little-endian: docs/input-format.md), so every input runs at
// a chosen size; raw inputs are reshaped the same way when replayed.
std::span<const std::uint8_t> shape_body(std::span<const std::uint8_t> in) {
  thread_local std::vector<std::uint8_t> buf;
  return io::shape_body(in, g_nr_cpus, &buf);
}

// The harness could not run its checks: said in the record (outcome
// "error", the message), so kernel-check reports this, not a stop.
[[noreturn]] void fail(const std::string& message, int status) {
  fmt::print(stderr, "kcheck: error: {}\n", message);
  record().mode = g_settings.o.mode;
  record().outcome = "error";
  record().detail = message;
  finish(status);
}

bool is_builtin(const std::string& name) { return name.rfind("builtin-", 0) == 0; }

void load(const std::string& path) {
  std::string error;
  auto c = load_candidate(path, &error);
  if (!c) fail(error);
  bool accepted = false;
  with_tool_subject(*g_settings.tool,
                    [&]<class S>(std::type_identity<S>) { accepted = accepts_api<S>(c->table->api); });
  if (!accepted)
    fail(fmt::format("{} is a {} candidate, not {}", path, api_name(c->table->api),
                     g_settings.tool->name));
  g_candidates.push_back(*c);
}

// The settings from the arguments (checked), then the candidates loaded.
void setup(const std::vector<std::string>& args, std::vector<std::string>* fuzzer_args) {
  Settings& s = g_settings;
  if (std::string why; !tools::parse_harness_args(args, &s.o, fuzzer_args, &why))
    fail(why, kHarnessBadUsage);
  // Only fuzzing takes libFuzzer's flags and corpus: elsewhere a stray one is a mistake.
  if (s.o.mode != "fuzz" && !fuzzer_args->empty())
    fail(fmt::format("--mode={} takes no argument '{}'", s.o.mode, fuzzer_args->front()),
         kHarnessBadUsage);
  s.tool = s.o.tool;
  s.candidate = s.o.candidate;
  if (s.candidate.empty()) fail("--candidate (the candidate's .so) is not given", kHarnessBadUsage);
  s.baseline = s.o.baseline;
  s.level = !s.o.level.empty() ? *parse_level(s.o.level)  // checked by its choices
                                : s.tool->default_level;
  s.target = lockstep_target(*s.tool, s.level);
  // --task-util 0 (the default): each find's own task (task_for_find), so
  // that the capacity branch's fits / does not fit / fallback paths are all
  // reached; else a fixed runtime/deadline for every find, on CPU 0.
  if (s.o.task_util == 0)
    s.task.per_find = true;
  else
    s.task.dl_runtime = s.task.dl_deadline * s.o.task_util / 1024;
  g_nr_cpus = s.o.nr_cpus;

  if (!is_builtin(s.baseline)) load(s.baseline);
  load(s.candidate);
  if (!s.o.capacity.empty()) {
    std::vector<unsigned long> caps;
    for (const auto& item : util::split(s.o.capacity, ','))
      caps.push_back(*util::parse_number<unsigned long>(item));  // checked by check_capacities
    s.task.asym_capacity = true;
    s.task.capacity.assign(caps.begin(), caps.end());  // restored after each find_cap
    for (auto& c : g_candidates)
      c.table->set_capacity(1, caps.data(), static_cast<unsigned>(caps.size()));
  }

  // The sides are the subject's (its package's kcheck_harness.cpp).
  with_tool_subject(*s.tool, [](auto t) { setup_sides<typename decltype(t)::type>(); });
}


std::span<const std::uint8_t> bytes_of(const std::string& text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// Before each program: it is the current input (kernel-check's to name if
// the process ends inside it); after it: none.
void begin_input(const std::string& text) {
  current_input().set(tools::InputKind::kText, bytes_of(text));
}
void begin_input(std::span<const std::uint8_t> body) {
  current_input().set(tools::InputKind::kRaw, body);
}
void end_input() { current_input().clear(); }

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

// Saves the current program (open() and write() only); true if it did.
bool save_current_input() {
  if (g_current.crash_base.empty()) return false;
  if (!g_current.seed_text.empty()) {
    write_all(g_current.crash_base + ".crash.ops", g_current.seed_text.data(),
              g_current.seed_text.size());
    return true;
  }
  if (!g_current.body.empty()) {
    write_all(g_current.crash_base + ".crash", g_current.body.data(), g_current.body.size());
    return true;
  }
  return false;
}

// A sanitizer stopped the run: the input saved, then the record says so.
void on_sanitizer_death() {
  tools::HarnessRecord& r = record();
  r.outcome = "sanitizer";
  if (save_current_input()) {
    r.input_raw = g_current.seed_text.empty();
    r.input = g_current.crash_base + (r.input_raw ? ".crash" : ".crash.ops");
  } else if (!g_settings.o.input.empty()) {  // replay, minimize: its input
    r.input = g_settings.o.input;
    r.input_raw = g_settings.o.raw;
  }
  write_record_now();
}

void on_alarm(int) {
  const bool saved = save_current_input();  // open() and write() only
  if (saved)
    write_prepared(g_current.seed_text.empty() ? g_current.hang_raw_record
                                               : g_current.hang_text_record);
  static const char msg[] =
      "kcheck: a program did not finish within --hang-seconds (a hang in the candidate)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(kHarnessHang);
}

// The two hang records (the counts are those at the start of the run).
void prepare_hang_records() {
  tools::HarnessRecord r = record();
  r.outcome = "hang";
  r.input = g_current.crash_base + ".crash.ops";
  r.input_raw = false;
  g_current.hang_text_record = prepared_record(r);
  r.input = g_current.crash_base + ".crash";
  r.input_raw = true;
  g_current.hang_raw_record = prepared_record(r);
}

// Arms the alarm for one program of the property run (false disarms it).
void arm_hang_alarm(bool on) {
  ::alarm(on ? g_settings.o.hang_seconds : 0);  // at least 1 (its range)
}

// The size of the property run's structured programs (bodies), as fuzzing's -max_len.
constexpr std::size_t kStructuredMaxBytes = 4096;

bool is_failure(const Verdict& v) {
  return v.finding && v.finding->kind != FindingKind::kOutOfDomain;
}

// Minimises `program` at the level and writes it to `out` (if not empty).
// The budget is --minimize-seconds / --minimize-tries; when it runs out, the
// smallest reproducer so far is written and reported as not minimal.
int minimize_and_write(const io::AnyProgram& program, const std::string& out) {
  std::string error;
  tools::MinimizeBudget budget;
  budget.max_seconds = g_settings.o.minimize_seconds;
  budget.max_tries = g_settings.o.minimize_tries;
  auto r = tools::minimize(program, g_settings.level, &error, budget, &g_sides);
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
  record().reproducer = out;
  record().signature = r->signature;
  record().minimize_seconds = r->seconds;
  return kHarnessFinding;
}


int mode_replay(bool minimize) {
  const tools::KernelCheckOptions& o = g_settings.o;
  const std::string& input = o.input;
  if (input.empty()) fail("--input is not given", kHarnessBadUsage);
  std::string error;
  const bool raw = o.raw;
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
  if (io::subject_name(*program) != g_settings.tool->name)
    fail(fmt::format("{} is a {} input, not {}", input, io::subject_name(*program),
                     g_settings.tool->name));
  if (o.decode_only) {  // the input as .ops, for minimising outside
    if (o.output.empty()) fail("--decode-only needs --output", kHarnessBadUsage);
    if (!io::write_file(o.output, io::format_program(*program), &error)) fail(error);
    record().outcome = "decoded";
    record().reproducer = o.output;
    return kHarnessOk;
  }
  Verdict v;
  const bool trace = !minimize && !o.quiet;
  __sanitizer_set_death_callback(on_sanitizer_death);
  const std::string input_bytes = util::read_text(input);
  if (raw) begin_input(bytes_of(input_bytes));
  else begin_input(input_bytes);
  std::visit([&](const auto& p) { v = replay(p, trace); }, *program);
  end_input();
  record().programs = 1;
  record().ops = v.ops_run;
  // --race: a fuzzing input the lockstep passes may be the reader's finding.
  if (minimize && o.race && !is_failure(v))
    if (const int rc = race_replay(*program, fmt::format("fuzzing input {}", input)); rc != kHarnessOk)
      return rc;
  if (!minimize && v.finding && v.finding->kind == FindingKind::kOutOfDomain) {
    io::print_notes(stdout, v);
    fmt::print("OUT OF DOMAIN (no verdict, exit {}): {}\n", kExitOutOfDomain,
               v.finding->describe());
    return kHarnessOutOfDomain;
  }
  if (!is_failure(v)) {
    io::print_notes(stdout, v);
    if (v.finding)  // out-of-domain while minimising: said as such, never as equivalent
      fmt::print("no finding in the domain: the run left it after {} ops ({})\n", v.ops_run,
                 v.finding->describe());
    else
      fmt::print("equivalent at level {} after {} ops\n", level_name(g_settings.level),
                 v.ops_run);
    return kHarnessOk;
  }
  fmt::print("FINDING: {}\n", v.finding->describe());
  if (minimize) return minimize_and_write(*program, o.output);
  return kHarnessFinding;
}


// The property run: the checked-in seeds, then random programs (random bytes
// through the total decoder) from a fixed seed.
int mode_check() {
  const tools::KernelCheckOptions& o = g_settings.o;
  std::size_t programs = 0, ops = 0;
  g_current.crash_base = o.output;
  prepare_hang_records();
  __sanitizer_set_death_callback(on_sanitizer_death);
  std::signal(SIGALRM, on_alarm);
  if (!o.exhaustive.empty()) return mode_exhaustive();
  auto failed = [&](const io::AnyProgram& program, const Verdict& v, const std::string& from) {
    fmt::print("FINDING in {} (after {} programs):\n{}\n", from, programs, v.finding->describe());
    return minimize_and_write(program, o.output);
  };
  if (const std::string& dir = o.seeds; !dir.empty() && std::filesystem::is_directory(dir)) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".ops") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::string error;
      auto program = io::load_program(f.string(), nullptr, &error);
      if (!program) fail(error);
      if (io::subject_name(*program) != g_settings.tool->name) continue;
      Verdict v;
      g_current.seed_text = io::format_program(*program);
      begin_input(g_current.seed_text);
      arm_hang_alarm(true);
      std::visit([&](const auto& p) { v = replay(p, false); }, *program);
      arm_hang_alarm(false);
      end_input();
      g_current.seed_text.clear();
      ++programs;
      ops += v.ops_run;
      record().programs = programs;
      record().ops = ops;
      if (is_failure(v)) return failed(*program, v, f.string());
    }
  }
  const unsigned long runs = o.runs, seed = o.seed;
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> body;
  // One program of the run; the verdict (a failure is reported by the caller).
  auto run_body = [&](const std::vector<std::uint8_t>& b) {
    g_current.body = b;
    const auto shaped = shape_body(b);
    begin_input(std::span<const std::uint8_t>(b));
    arm_hang_alarm(true);
    const Verdict v = run_target(*g_settings.target, shaped, &g_sides);
    arm_hang_alarm(false);
    end_input();
    ++programs;
    ops += v.ops_run;
    record().programs = programs;
    record().ops = ops;
    return v;
  };
  auto decoded = [&](const std::vector<std::uint8_t>& b) {
    return *io::decode_body_for(g_settings.target->subject, shape_body(b));
  };
  for (unsigned long i = 0; i < runs; ++i) {
    body.resize(8 + rng() % 248);
    for (auto& b : body) b = static_cast<std::uint8_t>(rng());
    const Verdict v = run_body(body);
    record().random_programs = i + 1;
    if (is_failure(v))
      return failed(decoded(body), v, fmt::format("random program {} (seed {})", i, seed));
  }
  // Structured programs (issue 28), after the random ones, which stay as they
  // were: a short random body mutated 1..12 times in a chain by the op-level
  // mutator (src/mutator/mutator.h), so that heaps filled to chosen sizes in
  // chosen orders, deadlines next to their parents' and masks whose first
  // common CPU is in a late word are reached here too. Every other one draws
  // its heap size first; each draws a swarm configuration (mutator.h).
  const unsigned long structured = runs / 16;
  std::mt19937_64 srng(seed ^ 0x5eed5eed5eed5eedULL);
  mutator::MutateOptions mo;
  mo.nr_cpus = g_nr_cpus;
  const mutator::StructuredOptions so = mutator::structured_from_env();
  std::vector<std::uint8_t> buf(kStructuredMaxBytes);
  for (unsigned long i = 0; i < structured; ++i) {
    std::size_t n = 2 + srng() % 16;
    for (std::size_t k = 0; k < n; ++k) buf[k] = static_cast<std::uint8_t>(srng());
    if (so.size_first && i % 2 == 1)
      if (const std::size_t m = mutator::size_first_input(*g_settings.target, buf.data(), n,
                                                          buf.size(), static_cast<unsigned>(srng()), mo))
        n = m;
    for (unsigned long step = 1 + srng() % 12; step > 0; --step)
      if (const std::size_t m = mutator::mutate_input(*g_settings.target, buf.data(), n, buf.size(),
                                                      static_cast<unsigned>(srng()), mo))
        n = m;
    if (so.swarm)
      n = mutator::swarm_filter(*g_settings.target, buf.data(), n, buf.size(),
                                mutator::draw_swarm(*g_settings.target, srng()), mo);
    body.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
    const Verdict v = run_body(body);
    if (is_failure(v))
      return failed(decoded(body), v, fmt::format("structured program {} (seed {})", i, seed));
  }
  fmt::print("equivalent: {} programs, {} ops checked at level {}\n", programs, ops,
             level_name(g_settings.level));
  return kHarnessOk;
}

// Allocation failure, when asked: allocation --fail-alloc-at (from 1) of
// cpudl_init() fails. kHarnessOk: it failed cleanly (-ENOMEM; leaks are
// LeakSanitizer's to report at exit); kHarnessFinding: it succeeded anyway or
// returned something else; kHarnessAllocsExhausted: cpudl_init() makes fewer
// allocations (nothing failed).
int mode_alloc() {
  const long n = g_settings.o.fail_alloc_at;
  if (n < 1) fail("--mode=alloc needs --fail-alloc-at=N (N >= 1)", kHarnessBadUsage);
  const kcheck_candidate& t = *g_candidates.back().table;
  if (!g_settings.tool->alloc_failures)
    fail(fmt::format("allocation failure does not apply to {} candidates (their files do not "
                     "allocate)", g_settings.tool->name), kHarnessBadUsage);
  const unsigned nr = g_nr_cpus.empty() ? 8 : g_nr_cpus.front();
  __sanitizer_set_death_callback(on_sanitizer_death);
  // cpudl_init() runs on a thread of its own, joined before the leak check
  // below: what it leaked must not stay reachable from a register or a
  // stack slot of this thread, which LeakSanitizer scans as roots.
  int r = 0;
  bool failed = false;
  std::thread([&] {
    t.reset_runtime(nr);
    t.fail_alloc(n);
    r = t.init();
    failed = t.alloc_failed() != 0;
    t.fail_alloc(0);
  }).join();
  kcheck_warning w{};
  if (t.take_warning(&w)) {
    fmt::print("FINDING: cpudl_init() with allocation {} failing warned: {}:{}: {}\n", n,
               w.file ? w.file : "?", w.line, w.what ? w.what : "?");
    return kHarnessFinding;
  }
  constexpr int kENOMEM = 12;
  if (r == -kENOMEM) {
    fmt::print("cpudl_init() returned -ENOMEM when allocation {} failed\n", n);
    // What the failed init still points to is leaked (the caller frees
    // nothing): checked here, before the record, not by an exit handler.
    if (__lsan_do_recoverable_leak_check() != 0) {
      record().outcome = "sanitizer";
      record().detail = fmt::format("LeakSanitizer: leaks after allocation {} failed", n);
      return kHarnessSanitizer;
    }
    return kHarnessOk;
  }
  if (r == 0 && failed) {
    fmt::print("FINDING: cpudl_init() returned 0 although allocation {} failed\n", n);
    return kHarnessFinding;
  }
  if (r == 0) {
    fmt::print("cpudl_init() makes fewer than {} allocations: all failure paths checked\n", n);
    return kHarnessAllocsExhausted;
  }
  fmt::print("FINDING: cpudl_init() returned {} when allocation {} failed, expected -ENOMEM (-12)\n",
             r, n);
  return kHarnessFinding;
}

}  // namespace harness
}  // namespace diffsched::kcheck

namespace diffsched::kcheck {
namespace {

using namespace harness;

bool g_in_input = false;  // the fuzzer is running an input (the candidate may be)

// The fuzzer's end: libFuzzer exit()s when its time is up. An exit from
// inside an input (the candidate's exit()) writes nothing.
void on_fuzz_exit() {
  if (g_in_input) return;
  record().outcome = "ok";
  write_record_now();
}

}  // namespace
}  // namespace diffsched::kcheck

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  using namespace diffsched::kcheck;
  start_record();
  std::vector<std::string> args, fuzzer_args;
  for (int i = 1; i < *argc; ++i) args.emplace_back((*argv)[i]);
  setup(args, &fuzzer_args);
  const std::string& mode = g_settings.o.mode;
  record().mode = mode;
  if (mode == "fuzz") {
    std::atexit(on_fuzz_exit);
    return 0;
  }
  int status = kHarnessCouldNotRun;
  if (mode == "load") {  // setup() loaded every candidate (dlopen RTLD_NOW)
    fmt::print("loaded\n");
    status = kHarnessOk;
  } else if (mode == "replay") {
    status = mode_replay(false);
  } else if (mode == "minimize") {
    status = mode_replay(true);
  } else if (mode == "check") {
    status = mode_check();
  } else if (mode == "alloc") {
    status = mode_alloc();
  } else if (mode == "race") {
    status = mode_race();
  }  // --mode's choices are exactly these
  finish(status);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace diffsched::kcheck;
  g_in_input = true;
  current_input().set(diffsched::tools::InputKind::kRaw, {data, size});
  const int r = diffsched::fuzz_one(*g_settings.target, shape_body({data, size}), &g_sides);
  if (g_settings.o.race) race_input(shape_body({data, size}));  // --race: the reader's too
  current_input().clear();
  ++record().executions;
  g_in_input = false;
  return r;
}

// The op-level mutator (src/mutator/mutator.h), in the --nr-cpus form when
// that is given: libFuzzer's fuzzing stage of kernel-check uses it.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  using namespace diffsched::kcheck;
  auto o = diffsched::mutator::options_from_env(LLVMFuzzerMutate);
  o.nr_cpus = g_nr_cpus;
  return diffsched::mutator::mutate_input(*g_settings.target, data, size, max_size, seed, o);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* a, std::size_t a_size,
                                                 const std::uint8_t* b, std::size_t b_size,
                                                 std::uint8_t* out, std::size_t max_out,
                                                 unsigned int seed) {
  using namespace diffsched::kcheck;
  auto o = diffsched::mutator::options_from_env(LLVMFuzzerMutate);
  o.nr_cpus = g_nr_cpus;
  return diffsched::mutator::cross_over_inputs(*g_settings.target, {a, a_size}, {b, b_size}, out,
                                               max_out, seed, o);
}
