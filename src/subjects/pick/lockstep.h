// The pick subject: the reference, optimized and fused picks and a naive
// bitset model, in lockstep. Picks are stateless, so "equivalent" means the
// same CPU at every level.
//
//   Lockstep ls;
//   Verdict v = run_lockstep<Subject>(ls, Config{256}, ops, Level::kExact);
//
// Invariant of every side's answer (pick-first-common): a CPU below
// nr_cpu_ids that is in all three masks with no lower CPU in all three, or
// nr_cpu_ids exactly when the three masks have no CPU in common.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "engine/verdict.h"
#include "subjects/pick/ops.h"

namespace diffsched::pick {

using PickFn = unsigned (*)(const Cpumask*, const Cpumask*, const Cpumask*);

struct PickSide {
  std::string_view name;
  PickFn fn;
  // kernel-check candidates: the first warning (WARN_ON through the kshim)
  // since the last call, "" if none; Lockstep::step() makes it a finding.
  std::string (*take_warning)() = nullptr;
};

// reference, optimized, fused (kernel/pick.h): a default-constructed
// Lockstep's sides. A front end with its own (the kernel-check harness)
// builds Lockstep(sides) through a LockstepSource (subjects.h).
std::span<const PickSide> default_sides();

// The model: the first CPU set in all three masks, 64 CPUs at a time as
// std::bitset<64> (independent of the kernel's find_bit code).
unsigned model_pick(const Pick& op, unsigned nr_cpu_ids);

class Lockstep {
 public:
  Lockstep();
  explicit Lockstep(std::span<const PickSide> sides);

  void reset(const Config& config) { nr_cpu_ids_ = config.nr_cpu_ids; }
  void step(const Op& op, std::size_t index, Level level, Verdict& verdict);
  // The sides only, no model and no checks (replay --stats' bare figure).
  void apply_bare(const Op& op);
  bool in_domain() const { return true; }
  void close(std::size_t, Level, Verdict&) {}  // every op is checked in full

  std::size_t side_count() const { return sides_.size(); }
  std::string_view side_name(std::size_t i) const { return sides_[i].name; }
  unsigned result(std::size_t i) const { return results_[i]; }
  unsigned model_result() const { return model_result_; }
  bool last_skipped() const { return false; }

 private:
  std::span<const PickSide> sides_;
  std::array<unsigned, 8> results_{};
  unsigned model_result_ = 0;
  unsigned nr_cpu_ids_ = 0;
};

struct Subject {
  static constexpr std::string_view kName = "pick";
  // Binary format v1 (frozen): its number of op kinds (io/binary.h).
  static constexpr unsigned kV1OpKinds = 1;
  // Picks are stateless: both levels mean "the same CPU".
  static constexpr unsigned kDefaultCpus = 64;  // .ops files without `cpus`
  static constexpr Level kDefaultLevel = Level::kExact;
  // Only exact: no deadlines, so `level deadline` means nothing here.
  static constexpr std::array<Level, 1> kLevels{Level::kExact};
  using Op = pick::Op;
  using Config = pick::Config;
  using Lockstep = pick::Lockstep;
};

// "cpu 5" or "none (nr_cpu_ids 8)".
std::string format_pick(unsigned cpu, unsigned nr_cpu_ids);

}  // namespace diffsched::pick
