// The process exit statuses of every diffsched subcommand, in one place
// (README "Exit statuses" has the table per subcommand).
//
//   0    ok: equivalent, verified, written, or the gate passed
//   1    a finding (a bug in the code under test, a changed expectation,
//        a coverage gate missed)
//   2    bad input or could not run: unreadable or invalid file, bad or
//        conflicting arguments, an output that would clobber an input, a
//        missing tool, a step that failed
//   3    out of domain, no verdict: the run stopped at a check that failed
//        while the live deadlines did not fit in one 2^63 window, where
//        dl_time_before() is not an order (FindingKind::kOutOfDomain). The
//        kernel code is not at fault and nothing after that op was checked,
//        so neither 0 nor 1 would be true.
//   130  interrupted by SIGINT, 143 by SIGTERM (128 + the signal)
//
//   int status = kExitOk;
//   status = worse_status(status, status_of(verdict));
#pragma once

#include "engine/verdict.h"

namespace diffsched {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitOutOfDomain = 3;
inline constexpr int kExitSignalBase = 128;  // + SIGINT (2) = 130, + SIGTERM (15) = 143

// The status a lockstep verdict earns: 0 equivalent, 1 finding, 3 out of domain.
inline int status_of(const Verdict& v) {
  if (!v.finding) return kExitOk;
  return v.finding->kind == FindingKind::kOutOfDomain ? kExitOutOfDomain : kExitFinding;
}

// Combines the statuses of several runs (files) of one command: the most
// severe wins, in the order interrupted > bad input > finding > out of domain > ok.
inline int worse_status(int a, int b) {
  auto rank = [](int s) {
    switch (s) {
      case kExitOk: return 0;
      case kExitOutOfDomain: return 1;
      case kExitFinding: return 2;
      case kExitBadInput: return 3;
      default: return 4;  // signals and anything unforeseen
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace diffsched
