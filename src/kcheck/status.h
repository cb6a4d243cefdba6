// The exit statuses of the kcheck harness (kshim/harness), in one place: the
// harness returns them and `diffsched kernel-check` (src/kcheck/)
// reads them. The first four are the tool's own (engine/exit_status.h), so a
// harness status and a kernel-check status agree where they mean the same.
#pragma once

#include "engine/exit_status.h"

namespace diffsched::kcheck {

inline constexpr int kHarnessOk = kExitOk;                    // equivalent; the mode's job done
inline constexpr int kHarnessFinding = kExitFinding;          // a finding (written if asked)
inline constexpr int kHarnessCouldNotRun = kExitBadInput;     // could not load a candidate, read an input
inline constexpr int kHarnessOutOfDomain = kExitOutOfDomain;  // replay: out of domain, no verdict
// The allocation run (--mode=alloc): cpudl_init() makes fewer allocations
// than --fail-alloc-at, so nothing failed: every failure path was checked.
inline constexpr int kHarnessAllocsExhausted = 4;
// Its arguments were wrong: an unknown --option, a malformed or out-of-range
// value. kernel-check never passes such; it is a bug there (or a --harness
// from another version), so kernel-check reports it as could-not-run.
inline constexpr int kHarnessBadUsage = 64;  // EX_USAGE
// A sanitizer (ASan, UBSan, LeakSanitizer) stopped the harness: its exitcode=
// in ASAN_OPTIONS/UBSAN_OPTIONS, which kernel-check sets.
inline constexpr int kHarnessSanitizer = 77;
// One program of the property run did not finish within --hang-seconds: a
// hang in the candidate (the program is saved as on a sanitizer's death).
inline constexpr int kHarnessHang = 79;

// Not statuses of the harness but of kernel-check's runs of it
// (tools::wait_exit and the watchdog): it could not be started or waited
// for, or the watchdog killed it.
inline constexpr int kHarnessNotRun = -1;
inline constexpr int kHarnessTimedOut = -2;

}  // namespace diffsched::kcheck
