// diffsched fn: one side of a check (its file, function, extraction,
// layout and built harness) and the steps on it (check.cpp runs them).
//
//   Side s{"old", "a.c", "f", work / "old"};
//   prepare_side(s, spec, &error);   // extract + lay out: exit 2 on error
//   build_side(s, &error);           // clang-14 + ASan/UBSan against kshim/
//   run_side(s, batch, n, &obs, &error);  // faults are observations, not errors
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "fn/check.h"
#include "fn/extract.h"
#include "fn/model.h"

namespace diffsched::fn {

struct Side {
  std::string role;  // "old" or "new"
  std::string file;
  std::string function;
  std::filesystem::path dir;  // its build and run files
  Extraction x;
  Layout layout;
  std::filesystem::path exe;
  std::filesystem::path clock_exe;  // build_side(clock_reps > 0): the timing build
  // Where the shim's runtime objects are kept, shared by the sides whose
  // compile flags are the same (empty: built beside the side).
  std::filesystem::path runtime_cache;
};

// The faults a side may have before its remaining inputs are not run (a
// hang ends the run at once: each costs kHangSeconds).
constexpr int kMaxFaults = 4;

// Extracts the function and lays out its inputs; false with *error one
// line (the function is missing, the file does not parse, an external the
// shim lacks, a type that cannot be generated, a hidden global).
// `uncovered` (--print-spec): globals left out of the layout, listed as not
// covered instead of stopping the run (side.x keeps them).
bool prepare_side(Side& side, const Spec& spec, std::string* error,
                  const std::set<std::string>& uncovered = {});

// Both sides prepared, their stubs merged (model.h), the same inputs taken
// and every spec entry used: false with *error one line.
// The shim's era is chosen here (fn/era.h): layout.era and era_why.
bool prepare_pair(const Spec& spec, Side& old_side, Side& new_side, std::string* error);

// Whether the side's extracted unit did not compile (its file parsed).
bool unit_failed(const Side& side);

// "" or one line naming a spec entry that names nothing of either side.
std::string spec_unused(const Spec& spec, const Side& a, const Side& b);

// "" when the two prepared sides take the same inputs (their stubs merged:
// join_sides) and the spec names only values they have (spec_unused); else
// why not, one line.
std::string sides_agree(const Spec& spec, Side& old_side, Side& new_side);

// A side's sanitizer build flags (ASan, UBSan, -fwrapv as the kernel's
// -fno-strict-overflow), shared by the harness and --fuzz's objects.
std::vector<std::string> sanitizer_flags();

// The first line of a compiler's or a harness's log that says `error:`, or "".
std::string first_error_line(const std::filesystem::path& log);

// A sanitizer report's first line without what changes from run to run
// (addresses, pc, registers): the fault as a verdict shows it and a
// finding's signature keeps it; "" when the log has no report.
std::string sanitizer_summary(std::string_view log);

// Builds the side's harness: false with *error the first compiler error.
// With clock_reps > 0 the timing build instead (side.clock_exe): -O2, no
// sanitizer and no coverage, each input's call timed clock_reps times and
// the least recorded ("ns"), nothing else.
bool build_side(Side& side, std::string* error, unsigned clock_reps = 0);

// Runs the harness over the batch of n inputs: (*out)[k] for every input
// run; a crash on input k is its fault, and the batch resumes at k + 1
// (at most kMaxFaults times). false only if the harness cannot run at all.
bool run_side(const Side& side, const std::filesystem::path& batch, std::size_t n,
              std::vector<Observation>* out, std::string* error);

}  // namespace diffsched::fn
