// The fuzz targets, from the registry (src/registry.def): name, subject,
// level, role, dictionary and what they check. The libFuzzer entry point
// (fuzz/fuzz_target.cpp), replay --target, the campaign, the corpus tests,
// `diffsched targets` and the build scripts all use it.
//
//   int rc = fuzz_one(find_target("cpudl_exact"), data);  // aborts on a finding
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "engine/verdict.h"

namespace diffsched {

// What a target is for (src/registry.def).
enum class TargetRole {
  kLockstep,   // a subject's lockstep; fuzzed everywhere
  kSelfCheck,  // fails on an accepted divergence by design (cpudl_exact's tie)
  kFrontEnd,   // not a subject: the loaders and codecs themselves
  kRace,       // a subject's lockless-reader analysis (its Subject::reader_race); fuzzed everywhere
};

struct FuzzTarget {
  std::string_view name;
  std::string_view subject;
  Level level;
  std::string_view property;  // one sentence
  TargetRole role = TargetRole::kLockstep;
  std::string_view dict;      // fuzz/<dict>.dict, or empty
};

std::string_view role_name(TargetRole role);  // "lockstep", "self_check", "front_end", "race"

// The role words of src/registry.def.
namespace registry_role {
inline constexpr TargetRole lockstep = TargetRole::kLockstep;
inline constexpr TargetRole self_check = TargetRole::kSelfCheck;
inline constexpr TargetRole front_end = TargetRole::kFrontEnd;
inline constexpr TargetRole race = TargetRole::kRace;
}  // namespace registry_role

// The registry's targets, in its order (which is the order campaigns run).
inline constexpr FuzzTarget kFuzzTargets[] = {
#define DIFFSCHED_TARGET(name, subject, level, role, dict, property) \
  {#name, subject, Level::level, property, registry_role::role, dict},
#include "registry.def"
#undef DIFFSCHED_TARGET
};

struct LockstepSource;  // subjects.h

const FuzzTarget* find_target(std::string_view name);
// Whether the target runs a subject's lockstep (all but "inputs").
bool is_lockstep_target(const FuzzTarget& target);
// Whether the target's findings are its own check's, which the lockstep never
// shows (race): replay --target, the campaign's minimisation and its reports
// judge such a target's inputs by run_target(), not by the lockstep.
inline bool judged_by_target(const FuzzTarget& target) { return target.role == TargetRole::kRace; }
std::string target_names();  // "cpudl, cpudl_exact, pick, cpumask"

// Decodes `body` op by op, runs it in lockstep and returns what it found.
// No allocation unless there is a finding. Findings of kind out-of-domain are
// returned but are not failures of the target's property.
// `sides`: where the lockstep comes from (subjects.h; null: the subject's own).
Verdict run_target(const FuzzTarget& target, std::span<const std::uint8_t> body,
                   const LockstepSource* sides = nullptr);

// libFuzzer's LLVMFuzzerTestOneInput body: on a finding that fails the
// property, prints the finding and the input as .ops text to stderr and
// aborts. Returns 0 otherwise (-1 for a recorded accepted class, below).
//
// With DIFFSCHED_RECORD_ACCEPTED=1 in the environment (the campaign sets it
// for libFuzzer), a self-check target does not abort on its accepted class:
// a divergence that the same input does not fail at the deadline level
// (cpudl_exact's tie; corpus/accepted.txt's if-deadline-level-passes) is
// written once per process as <artifact_prefix>crash-accepted-<hash>, counted
// in the exit stats, kept out of the corpus (returns -1, as libFuzzer
// allows), and fuzzing goes on, so a fork job is not restarted per tie. The campaign classifies, minimises and accepts that file as it would a
// crash. Anything else still aborts.
int fuzz_one(const FuzzTarget& target, std::span<const std::uint8_t> body,
             const LockstepSource* sides = nullptr);

// LLVMFuzzerInitialize's body: reads -artifact_prefix= from the fuzzer's
// arguments (where fuzz_one records the accepted class).
void init_fuzz_target(int argc, char** argv);

}  // namespace diffsched
