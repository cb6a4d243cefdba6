#include "subjects/cpumask/lockstep.h"

#include <fmt/format.h>

#include "engine/finding.h"
#include "io/text.h"

namespace diffsched::cpumask {

namespace {

unsigned naive_first(const Bits& b, unsigned from, unsigned nr) {
  for (unsigned c = from; c < nr; ++c)
    if (b[c]) return c;
  return nr;
}

Bits bits_of(const Cpumask& m, unsigned nr) {
  Bits b;
  for (unsigned c = 0; c < nr; ++c)
    if ((m.bits[c / 64] >> (c % 64)) & 1UL) b.set(c);
  return b;
}

std::string format_bits(const Bits& b, unsigned nr) {
  Cpumask m{};
  for (unsigned c = 0; c < nr; ++c)
    if (b[c]) kernel::cpumask_set_cpu(c, &m);
  return io::format_value(m);
}

}  // namespace

void Lockstep::reset(const Config& config) {
  nr_cpu_ids_ = config.nr_cpu_ids;
  regs_.fill(Cpumask{});
  model_.fill(Bits{});
}

void Lockstep::step(const Op& op, std::size_t index, Level level, Verdict& v) {
  using namespace kernel;
  const unsigned nr = nr_cpu_ids_;
  // Each op: the kernel answer and the model answer, as text. Using the text
  // keeps one comparison for answers of every type; it is built only here,
  // in the helper subject, never in the cpudl or pick fuzz loop.
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        auto num = [](unsigned x) { return fmt::format("{}", x); };
        if constexpr (std::is_same_v<T, Load>) {
          regs_[o.dst.r] = o.mask;
          model_[o.dst.r] = bits_of(o.mask, nr);
          answer_ = model_answer_ = "";
        } else if constexpr (std::is_same_v<T, SetCpu>) {
          cpumask_set_cpu(static_cast<unsigned>(o.cpu), &regs_[o.dst.r]);
          model_[o.dst.r].set(static_cast<std::size_t>(o.cpu));
          answer_ = model_answer_ = "";
        } else if constexpr (std::is_same_v<T, ClearCpu>) {
          cpumask_clear_cpu(static_cast<unsigned>(o.cpu), &regs_[o.dst.r]);
          model_[o.dst.r].reset(static_cast<std::size_t>(o.cpu));
          answer_ = model_answer_ = "";
        } else if constexpr (std::is_same_v<T, TestCpu>) {
          answer_ = num(cpumask_test_cpu(static_cast<unsigned>(o.cpu), &regs_[o.src.r]));
          model_answer_ = num(model_[o.src.r][static_cast<std::size_t>(o.cpu)]);
        } else if constexpr (std::is_same_v<T, And>) {
          answer_ = num(cpumask_and(&regs_[o.dst.r], &regs_[o.a.r], &regs_[o.b.r]));
          model_[o.dst.r] = model_[o.a.r] & model_[o.b.r];
          model_answer_ = num(model_[o.dst.r].any());
        } else if constexpr (std::is_same_v<T, First>) {
          answer_ = num(cpumask_first(&regs_[o.src.r]));
          model_answer_ = num(naive_first(model_[o.src.r], 0, nr));
        } else if constexpr (std::is_same_v<T, Next>) {
          answer_ = num(cpumask_next(o.cpu, &regs_[o.src.r]));
          model_answer_ = num(naive_first(model_[o.src.r], static_cast<unsigned>(o.cpu) + 1, nr));
        } else if constexpr (std::is_same_v<T, FirstAnd>) {
          answer_ = num(cpumask_first_and(&regs_[o.a.r], &regs_[o.b.r]));
          model_answer_ = num(naive_first(model_[o.a.r] & model_[o.b.r], 0, nr));
        } else if constexpr (std::is_same_v<T, FirstAndAnd>) {
          answer_ = num(cpumask_first_and_and(&regs_[o.a.r], &regs_[o.b.r], &regs_[o.c.r]));
          model_answer_ =
              num(naive_first(model_[o.a.r] & model_[o.b.r] & model_[o.c.r], 0, nr));
        } else if constexpr (std::is_same_v<T, Weight>) {
          answer_ = num(cpumask_weight(&regs_[o.src.r]));
          model_answer_ = num(static_cast<unsigned>(model_[o.src.r].count()));
        } else if constexpr (std::is_same_v<T, Empty>) {
          answer_ = num(cpumask_empty(&regs_[o.src.r]));
          model_answer_ = num(model_[o.src.r].none());
        } else if constexpr (std::is_same_v<T, ForEachAnd>) {
          Cpumask visited{};
          unsigned cpu;
          for_each_cpu_and(cpu, &regs_[o.a.r], &regs_[o.b.r]) cpumask_set_cpu(cpu, &visited);
          answer_ = io::format_value(visited);
          model_answer_ = format_bits(model_[o.a.r] & model_[o.b.r], nr);
        } else {
          static_assert(kUnhandled<T>, "cpumask Lockstep: a new op needs a case here");
        }
      },
      op);

  auto finding = [&](FindingKind kind, std::string_view check, std::string_view field,
                     unsigned line = __builtin_LINE()) {
    return make_finding<Subject>(
        kind, op, index, {"kernel", kind == FindingKind::kInvariant ? "" : "model", check, field},
        __FILE__, line);
  };
  for (unsigned r = 0; r < kRegisters; ++r) {
    for (unsigned w = nr / 64; w < BITS_TO_LONGS(NR_CPUS); ++w) {
      const unsigned long beyond = w * 64 >= nr ? ~0UL : ~0UL << (nr - w * 64);
      if (regs_[r].bits[w] & beyond) {
        Finding f = finding(FindingKind::kInvariant, "mask-range", "reg");
        f.where = fmt::format("r{}", r);
        f.actual = fmt::format("r{} has a bit set at or beyond nr_cpu_ids {}", r, nr);
        v.finding = std::move(f);
        return;
      }
    }
  }
  if (answer_ != model_answer_) {
    Finding f = finding(FindingKind::kModelMismatch, level_name(level), "answer");
    f.expected = model_answer_;
    f.actual = answer_;
    v.finding = std::move(f);
    return;
  }
  for (unsigned r = 0; r < kRegisters; ++r) {
    if (bits_of(regs_[r], nr) != model_[r]) {
      Finding f = finding(FindingKind::kModelMismatch, level_name(level), "reg");
      f.where = fmt::format("r{}", r);
      f.expected = format_bits(model_[r], nr);
      f.actual = io::format_value(regs_[r]);
      v.finding = std::move(f);
      return;
    }
  }
}

}  // namespace diffsched::cpumask
