// The kcheck harness's parts shared by its files (harness.cpp: setup, the
// modes, the callbacks; harness_exhaustive.cpp: --exhaustive).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/runner.h"
#include "io/load.h"
#include "io/text.h"
#include "io/trace.h"
#include "kernel_c_side.h"
#include "subjects.h"
#include "targets.h"
#include "kcheck/options.h"
#include "kcheck/status.h"

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

template <class S>
Verdict replay(const io::Program<S>& p, bool trace) {
  const auto lockstep = make_lockstep<S>(&g_sides);
  io::TextTrace<S> observer(stdout);
  return run_lockstep<S>(*lockstep, p.config, std::span<const typename S::Op>(p.ops),
                         g_settings.level, trace ? &observer : nullptr);
}

}  // namespace diffsched::kcheck::harness
