// The kcheck harness's parts shared by its files (harness.cpp: setup, the
// modes, the callbacks; harness_exhaustive.cpp: --exhaustive).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/runner.h"
#include "io/load.h"
#include "io/text.h"
#include "io/trace.h"
#include "kernel_c_side.h"
#include "subjects.h"
#include "targets.h"
#include "kcheck/options.h"
#include "kcheck/status.h"
#include "harness_record.h"
#include "subject_tools.h"

namespace diffsched::kcheck::harness {

// The options (kcheck/options.h) and what setup() derives from them.
struct Settings {
  tools::KernelCheckOptions o;
  const SubjectTool* tool = &kCpudlTool;  // o.subject, resolved by parse_harness_args()
  std::string candidate, baseline = "builtin-reference";
  Level level = Level::kDeadline;
  const FuzzTarget* target = nullptr;
  TaskShape task;
};

extern Settings g_settings;

// The check mode's current program, written out by the sanitizers' death
// callback (a memory or UB error in a candidate kills the process): the seed
// file's text as <output>.crash.ops, or the random body as <output>.crash.
struct Current {
  std::string crash_base;  // --output
  std::string seed_text;   // non-empty while a seed file runs
  std::span<const std::uint8_t> body;
  // The record a hang writes (from the alarm's handler), prepared outside it:
  // for a seed file's text and for a random body.
  std::string hang_text_record, hang_raw_record;
};
extern Current g_current;
extern LockstepSource g_sides;  // the candidate's and the baseline's sides

[[noreturn]] void fail(const std::string& message, int status = kHarnessCouldNotRun);
void begin_input(const std::string& text);
void begin_input(std::span<const std::uint8_t> body);
void end_input();
void arm_hang_alarm(bool on);
bool is_failure(const Verdict& v);
int minimize_and_write(const io::AnyProgram& program, const std::string& out);
int mode_exhaustive();
// The body the decoder sees (--nr-cpus reshapes it; harness.cpp).
std::span<const std::uint8_t> shape_body(std::span<const std::uint8_t> in);
int mode_race();  // cpudl's kcheck_harness.cpp: --race
// --race in the fuzzing stage: an input's reader analysis after its lockstep
// (abort() on a class only the candidate reaches; cpudl's kcheck_harness.cpp).
void race_input(std::span<const std::uint8_t> body);
// --race in the minimisation of a fuzzing input that the lockstep passes: the
// reader analysis of its program, kHarnessFinding (minimised and written to
// --output, as mode_race's) or kHarnessOk.
int race_replay(const io::AnyProgram& program, const std::string& from);

// A subject's part of the harness, its package's kcheck_harness.cpp (each
// subject of ToolSubjects defines all three; a missing one is a link error):
//   accepts_api<S>(api)  whether a candidate of that API form is one of its files
//   setup_sides<S>()     checks --baseline and sets g_sides.of<S>() to sides over
//                        g_candidates (the baseline's first when it is a file)
//   exhaustive<S>(b)     --exhaustive with bounds b: run_exhaustive<S>() over its programs
template <class S>
bool accepts_api(int api);
template <class S>
void setup_sides();
template <class S>
int exhaustive(const std::vector<unsigned>& bounds);

extern std::vector<Candidate> g_candidates;  // [baseline if a file], candidate
bool is_builtin(const std::string& name);    // a "builtin-..." --baseline

// "0,2" for the bits of `bits` below n; the empty mask's text if none.
std::string mask_text(unsigned bits, unsigned n);

template <class S>
Verdict replay(const io::Program<S>& p, bool trace) {
  const auto lockstep = make_lockstep<S>(&g_sides);
  io::TextTrace<S> observer(stdout);
  return run_lockstep<S>(*lockstep, p.config, std::span<const typename S::Op>(p.ops),
                         g_settings.level, trace ? &observer : nullptr);
}

// The bounded exhaustive check: every program of exactly k ops, each op one of
// `per_op[0]`'s .ops lines (a shorter program is a prefix of a longer one,
// and every op is checked). A program that leaves the contract domain stops
// there (as in every run) and is counted.
template <class S>
typename S::Op parse_exhaustive_op(const std::string& line) {
  const auto words = io::split_words(line);
  typename S::Op op{};
  std::string error;
  if (!io::parse_op(std::span<const std::string_view>(words), &op, &error))
    fail(fmt::format("--exhaustive: cannot build '{}': {}", line, error));
  return op;
}

template <class S>
int run_exhaustive(typename S::Config config, const std::vector<std::vector<std::string>>& per_op,
                   unsigned k, const std::string& bounds) {
  kernel::NrCpuIdsScope scope(config.nr_cpu_ids);
  std::vector<typename S::Op> choices;
  for (const auto& line : per_op[0]) choices.push_back(parse_exhaustive_op<S>(line));
  std::size_t programs = 0, left = 0;
  std::vector<std::size_t> digit(k, 0);
  io::Program<S> p;
  p.config = config;
  p.level = g_settings.level;
  p.ops.resize(k);
  for (;;) {
    for (unsigned i = 0; i < k; ++i) p.ops[i] = choices[digit[i]];
    g_current.seed_text = io::format_program(io::AnyProgram(p));
    begin_input(g_current.seed_text);
    arm_hang_alarm(true);
    const Verdict v = replay(p, false);
    arm_hang_alarm(false);
    end_input();
    g_current.seed_text.clear();
    ++programs;
    record().programs = programs;
    record().ops += v.ops_run;
    if (v.finding && !is_failure(v)) ++left;
    if (is_failure(v)) {
      fmt::print("FINDING in exhaustive program {} ({}):\n{}\n", programs, bounds,
                 v.finding->describe());
      return minimize_and_write(io::AnyProgram(p), g_settings.o.output);
    }
    unsigned i = 0;
    while (i < k && ++digit[i] == choices.size()) digit[i++] = 0;
    if (i == k) break;
  }
  fmt::print("exhaustive: no difference over all {} programs of {} ({} left the domain early)\n",
             programs, bounds, left);
  return kHarnessOk;
}

}  // namespace diffsched::kcheck::harness
