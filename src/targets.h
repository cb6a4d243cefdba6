// The fuzz targets, written once: name, subject, level, and what they check.
// libFuzzer entry points (fuzz/*.cpp), replay --target, the campaign and the
// corpus tests all use this table.
//
//   int rc = fuzz_one(find_target("cpudl_exact"), data);  // aborts on a finding
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "engine/verdict.h"

namespace diffsched {

struct FuzzTarget {
  std::string_view name;
  std::string_view subject;
  Level level;
  std::string_view property;  // one sentence
};

inline constexpr FuzzTarget kFuzzTargets[] = {
    {"cpudl", "cpudl", Level::kDeadline,
     "hole-based cpudl heap == swap-based heap at the deadline level, invariants and model "
     "hold after every op"},
    {"cpudl_exact", "cpudl", Level::kExact,
     "hole-based cpudl heap == swap-based heap at the exact level (fails on equal "
     "deadlines: a self-check that the fuzzer finds the known tie divergence)"},
    {"pick", "pick", Level::kExact,
     "reference, optimized and fused destination picks return the same first CPU of the "
     "three masks, equal to the bitset model"},
    {"cpumask", "cpumask", Level::kExact,
     "the kernel cpumask model matches a naive bitset on every op"},
    // Not a subject: the input front end itself (io::check_loading). Its
    // "subject" names no Subjects entry, so replay --target inputs reads any
    // form as without a target.
    {"inputs", "inputs", Level::kExact,
     "any bytes load (as text, binary file, or a cpudl or pick raw input) as a program or "
     "a one-line error, and a loaded program's .ops text and binary file read back to the "
     "same program"},
};

const FuzzTarget* find_target(std::string_view name);
// Whether the target runs a subject's lockstep (all but "inputs").
bool is_lockstep_target(const FuzzTarget& target);
std::string target_names();  // "cpudl, cpudl_exact, pick, cpumask"

// Decodes `body` op by op, runs it in lockstep and returns what it found.
// No allocation unless there is a finding. Findings of kind out-of-domain are
// returned but are not failures of the target's property.
Verdict run_target(const FuzzTarget& target, std::span<const std::uint8_t> body);

// libFuzzer's LLVMFuzzerTestOneInput body: on a finding that fails the
// property, prints the finding and the input as .ops text to stderr and
// aborts. Returns 0 otherwise.
int fuzz_one(const FuzzTarget& target, std::span<const std::uint8_t> body);

}  // namespace diffsched
