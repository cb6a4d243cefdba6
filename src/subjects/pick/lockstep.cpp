#include "subjects/pick/lockstep.h"

#include <bit>
#include <bitset>

#include <fmt/format.h>

#include "engine/finding.h"
#include "io/text.h"
#include "kernel/pick.h"

namespace diffsched::pick {

namespace {

constexpr PickSide kSides[] = {
    {"reference", kernel::pick_reference},
    {"optimized", kernel::pick_optimized},
    {"fused", kernel::pick_fused},
};


}  // namespace

std::span<const PickSide> default_sides() { return kSides; }

unsigned model_pick(const Pick& op, unsigned nr_cpu_ids) {
  // The first CPU set in all three, 64 CPUs at a time as std::bitset<64>
  // (no find_bit code, no bit tricks): AND the three, and test bit by bit
  // only inside the first group that has a common CPU.
  for (unsigned first = 0; first < nr_cpu_ids; first += 64) {
    const unsigned w = first / 64;
    const std::bitset<64> common = std::bitset<64>(op.dst.bits[w]) &
                                   std::bitset<64>(op.cpus.bits[w]) &
                                   std::bitset<64>(op.allowed.bits[w]);
    if (common.none()) continue;
    for (unsigned b = 0; b < 64 && first + b < nr_cpu_ids; ++b)
      if (common.test(b)) return first + b;
  }
  return nr_cpu_ids;
}

namespace {

// What pick-first-common allows a side to answer, word by word: the lowest
// CPU below nr_cpu_ids in all three masks, else nr_cpu_ids. An answer meets
// the invariant iff it equals this (a lower answer is not common, a higher
// one skips a common CPU).
unsigned first_common(const Pick& op, unsigned nr_cpu_ids) {
  const unsigned words = kernel::BITS_TO_LONGS(nr_cpu_ids);
  for (unsigned w = 0; w < words; ++w)
    if (const unsigned long x = op.dst.bits[w] & op.cpus.bits[w] & op.allowed.bits[w]) {
      const unsigned cpu = w * 64 + static_cast<unsigned>(std::countr_zero(x));
      return cpu < nr_cpu_ids ? cpu : nr_cpu_ids;
    }
  return nr_cpu_ids;
}

}  // namespace

std::string format_pick(unsigned cpu, unsigned nr_cpu_ids) {
  if (cpu == nr_cpu_ids) return fmt::format("none (nr_cpu_ids {})", nr_cpu_ids);
  return fmt::format("cpu {}", cpu);
}

Lockstep::Lockstep() : Lockstep(default_sides()) {}

Lockstep::Lockstep(std::span<const PickSide> sides) : sides_(sides) {
  if (sides_.size() > results_.size()) std::abort();
}

void Lockstep::apply_bare(const Op& op_variant) {
  const Pick& op = std::get<Pick>(op_variant);
  for (std::size_t i = 0; i < sides_.size(); ++i)
    results_[i] = sides_[i].fn(&op.dst, &op.cpus, &op.allowed);
}

void Lockstep::step(const Op& op_variant, std::size_t index, Level level, Verdict& v) {
  const Pick& op = std::get<Pick>(op_variant);
  for (std::size_t i = 0; i < sides_.size(); ++i)
    results_[i] = sides_[i].fn(&op.dst, &op.cpus, &op.allowed);
  model_result_ = model_pick(op, nr_cpu_ids_);

  auto finding = [&](FindingKind kind, std::size_t side, std::string_view against,
                     std::string_view check, unsigned line = __builtin_LINE()) {
    return make_finding<Subject>(kind, op_variant, index,
                                 {sides_[side].name, against, check, "cpu"}, __FILE__, line);
  };

  // A WARN_ON() the op fired in a side (kernel-check candidates).
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    if (!sides_[i].take_warning) continue;
    std::string warning = sides_[i].take_warning();
    if (warning.empty()) continue;
    v.finding = warning_finding<Subject>(op_variant, index, sides_[i].name, std::move(warning));
    return;
  }
  // Fast pass: every side answers the first common CPU (computed word by
  // word), and so does the model. Then every check below passes; otherwise
  // they run, in order, to name the finding.
  const unsigned want = first_common(op, nr_cpu_ids_);
  bool all_ok = model_result_ == want;
  for (std::size_t i = 0; i < sides_.size(); ++i) all_ok &= results_[i] == want;
  if (all_ok) return;
  // Invariant of each answer, from the masks alone.
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    const unsigned cpu = results_[i];
    std::string broken;
    if (cpu > nr_cpu_ids_) {
      broken = fmt::format("returned {}, beyond nr_cpu_ids {}", cpu, nr_cpu_ids_);
    } else if (cpu < nr_cpu_ids_ && !(kernel::cpumask_test_cpu(cpu, &op.dst) &&
                                      kernel::cpumask_test_cpu(cpu, &op.cpus) &&
                                      kernel::cpumask_test_cpu(cpu, &op.allowed))) {
      broken = fmt::format("returned cpu {}, which is not in all three masks", cpu);
    } else {
      const unsigned limit = cpu;  // no CPU below the answer may be common
      for (unsigned c = 0; c < limit; ++c)
        if (kernel::cpumask_test_cpu(c, &op.dst) && kernel::cpumask_test_cpu(c, &op.cpus) &&
            kernel::cpumask_test_cpu(c, &op.allowed)) {
          broken = fmt::format("returned {} but cpu {} is in all three masks",
                               format_pick(cpu, nr_cpu_ids_), c);
          break;
        }
    }
    if (!broken.empty()) {
      Finding f = finding(FindingKind::kInvariant, i, "", "pick-first-common");
      f.actual = std::move(broken);
      v.finding = std::move(f);
      return;
    }
  }
  for (std::size_t i = 1; i < sides_.size(); ++i) {
    if (results_[i] != results_[0]) {
      Finding f = finding(FindingKind::kDivergence, i, sides_[0].name, level_name(level));
      f.expected = format_pick(results_[0], nr_cpu_ids_);
      f.actual = format_pick(results_[i], nr_cpu_ids_);
      v.finding = std::move(f);
      return;
    }
  }
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    if (results_[i] != model_result_) {
      Finding f = finding(FindingKind::kModelMismatch, i, "model", "model");
      f.expected = format_pick(model_result_, nr_cpu_ids_);
      f.actual = format_pick(results_[i], nr_cpu_ids_);
      v.finding = std::move(f);
      return;
    }
  }
}

}  // namespace diffsched::pick
