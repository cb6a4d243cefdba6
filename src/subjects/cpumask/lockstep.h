// The cpumask subject: the kernel cpumask model on three registers against
// a naive std::bitset model, op by op.
//
//   Lockstep ls;
//   Verdict v = run_lockstep<Subject>(ls, Config{65}, ops, Level::kExact);
//
// After each op the answer (a CPU, a bool, a weight, or the CPUs a
// for_each_cpu_and visited) and all three registers must equal the model's,
// and no register may hold a bit at or beyond nr_cpu_ids (mask-range).
#pragma once

#include <array>
#include <bitset>
#include <string>

#include "subjects/cpumask/ops.h"
#include "engine/verdict.h"

namespace diffsched::cpumask {

using Bits = std::bitset<kernel::NR_CPUS>;

class Lockstep {
 public:
  void reset(const Config& config);
  void step(const Op& op, std::size_t index, Level level, Verdict& verdict);
  bool in_domain() const { return true; }
  void close(std::size_t, Level, Verdict&) {}  // every op is checked in full
  bool last_skipped() const { return false; }

  const Cpumask& reg(unsigned r) const { return regs_[r]; }
  const Bits& model_reg(unsigned r) const { return model_[r]; }
  // The last op's answer, as text ("cpu 5", "1", "0-3"), kernel and model.
  const std::string& answer() const { return answer_; }
  const std::string& model_answer() const { return model_answer_; }

 private:
  unsigned nr_cpu_ids_ = 0;
  std::array<Cpumask, kRegisters> regs_{};
  std::array<Bits, kRegisters> model_{};
  std::string answer_, model_answer_;
};

struct Subject {
  static constexpr std::string_view kName = "cpumask";
  // Binary format v1 (frozen): its number of op kinds (io/binary.h).
  static constexpr unsigned kV1OpKinds = 12;
  static constexpr unsigned kDefaultCpus = 64;  // .ops files without `cpus`
  static constexpr Level kDefaultLevel = Level::kExact;
  // Only exact: no deadlines, so `level deadline` means nothing here.
  static constexpr std::array<Level, 1> kLevels{Level::kExact};
  using Op = cpumask::Op;
  using Config = cpumask::Config;
  using Lockstep = cpumask::Lockstep;
};

}  // namespace diffsched::cpumask
