// Delta debugging over decoded ops, keeping the failure's signature.
//
//   auto r = minimize(program, Level::kExact, &error);               // default budget
//   auto r = minimize(program, Level::kExact, &error, {.max_seconds = 5, .max_tries = 1000});
//   // r->program: the shortest op list found that fails with r->signature;
//   // r->minimal is false when the budget ran out first (r->program is then
//   // the best reproducer found so far: it still fails with r->signature).
//
// Passes, repeated until nothing changes: drop ops after the failing one;
// ddmin over the op list (chunks, then single ops); make nr_cpu_ids smaller;
// shift all deadlines towards 0 together; then simplify each argument (CPUs
// towards 0, deadlines towards 0 and towards the program's other deadlines,
// masks towards fewer CPUs, flags towards 0). Integers shrink by binary
// search towards their target (O(log range) tries per field, as RapidCheck
// and Hypothesis do), never by counting down. A candidate is kept only if it
// fails with the same signature (subject, kind, level or invariant, field,
// op kind).
//
// Every try counts against the budget, checked before each try inside every
// pass, so a minimisation never takes much longer than max_seconds (plus one
// try) nor more than max_tries lockstep runs.
#pragma once

#include <csignal>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "engine/verdict.h"
#include "io/program.h"

namespace diffsched {
struct LockstepSource;  // subjects.h
}  // namespace diffsched

namespace diffsched::tools {

struct MinimizeBudget {
  static constexpr double kDefaultSeconds = 30;
  static constexpr std::size_t kDefaultTries = 200000;
  double max_seconds = kDefaultSeconds;  // wall clock; <= 0: no time limit
  std::size_t max_tries = kDefaultTries;  // lockstep runs; 0: no limit
  // Set (non-zero) by a signal handler to stop at the next try, e.g. the
  // campaign's SIGINT/SIGTERM flag; the best reproducer so far is returned.
  const volatile std::sig_atomic_t* stop = nullptr;
};

struct MinimizeResult {
  io::AnyProgram program;  // with its level set
  std::string signature;
  std::size_t original_ops = 0;
  std::size_t runs = 0;  // lockstep runs tried (the first check included)
  double seconds = 0;
  bool minimal = true;   // false: the budget ran out before a fixpoint
  std::string stopped;   // why not minimal: "time budget (30 s)" / "tries budget (200000)"
};

// A check other than the lockstep that a program is judged by: e.g. a fuzz
// target's own (targets.h run_target() of a race target, whose finding the
// lockstep never shows).
using ProgramCheck = std::function<Verdict(const io::AnyProgram&)>;

// nullopt with a reason if the program does not fail at `level`. `sides`:
// where the lockstep comes from (subjects.h; null: the subject's own sides).
// `check` (null: the lockstep at `level`): what every try must still fail,
// with the first verdict's signature.
std::optional<MinimizeResult> minimize(const io::AnyProgram& program, Level level,
                                       std::string* error, const MinimizeBudget& budget = {},
                                       const LockstepSource* sides = nullptr,
                                       const ProgramCheck* check = nullptr);

}  // namespace diffsched::tools
