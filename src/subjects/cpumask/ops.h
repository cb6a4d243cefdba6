// The ops of the cpumask helper subject: the kernel cpumask API on three
// mask registers r0..r2, checked against a naive std::bitset model, so that
// the pick oracle rests on a checked mask implementation.
//
//   load r0 0-3,64       *r0 = the mask (cpumask_copy from a literal)
//   set_cpu r1 5         cpumask_set_cpu(5, r1)
//   clear_cpu r1 5       cpumask_clear_cpu(5, r1)
//   test_cpu r1 5        cpumask_test_cpu(5, r1)
//   and r2 r0 r1         cpumask_and(r2, r0, r1)        -> whether non-empty
//   first r0             cpumask_first(r0)
//   next r0 7            cpumask_next(7, r0)
//   first_and r0 r1      cpumask_first_and(r0, r1)
//   first_and_and r0 r1 r2
//   weight r0 / empty r0 cpumask_weight / cpumask_empty
//   for_each_and r0 r1   for_each_cpu_and(cpu, r0, r1): the CPUs visited
#pragma once

#include <string_view>
#include <cstdint>
#include <variant>

#include "engine/fields.h"
#include "io/fields.h"
#include "kernel/cpumask.h"

namespace diffsched::cpumask {

using kernel::Cpumask;

inline constexpr unsigned kRegisters = 3;

// A mask register, printed "r0".."r2".
struct Reg {
  unsigned r = 0;
  friend bool operator==(Reg, Reg) = default;
};

}  // namespace diffsched::cpumask

// The register's field traits (io/fields.h), beside the type: io itself
// knows no subject.
namespace diffsched::io {
template <>
struct FieldTraits<cpumask::Reg> {
  using Reg = cpumask::Reg;
  static constexpr std::string_view kWhat = "register";
  static std::string print(Reg v);
  static bool parse(std::string_view s, Reg* out, std::string* error);
  static bool decode(ByteReader& r, DecodeContext& c, Reg* out);
  static void encode(DecodeContext&, Reg v, std::vector<std::uint8_t>* out) {
    out->push_back(static_cast<std::uint8_t>(v.r));
  }
  static constexpr Shrink kShrink = Shrink::kCandidates;
  static bool in_range(Reg v, unsigned) { return v.r < cpumask::kRegisters; }
  static std::vector<Reg> candidates(Reg v, unsigned) {
    std::vector<Reg> out;
    for (unsigned r = 0; r < v.r; ++r) out.push_back(Reg{r});
    return out;
  }
  template <class G>
  static auto generator(const G& g) { return g.reg(); }
  static std::size_t domain_size(const BfsDomain&) { return cpumask::kRegisters; }
  static Reg domain_at(const BfsDomain&, std::size_t i) { return Reg{static_cast<unsigned>(i)}; }
};
}  // namespace diffsched::io

namespace diffsched::cpumask {

// code: the op's stable binary op code (engine/op.h); never reuse one.
#define DIFFSCHED_CPUMASK_OP(Name, code, text, kernel_call)          \
  struct Name {                                                      \
    static constexpr std::uint8_t kCode = code;                      \
    static constexpr std::string_view kName = text;                  \
    static constexpr std::string_view kKernel = kernel_call;

DIFFSCHED_CPUMASK_OP(Load, 0, "load", "*dst = mask (cpumask_copy)")
  Reg dst;
  Cpumask mask{};
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("dst", op.dst); f("mask", op.mask); }
};
DIFFSCHED_CPUMASK_OP(SetCpu, 1, "set_cpu", "cpumask_set_cpu(cpu, dst)")
  Reg dst;
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("dst", op.dst); f("cpu", op.cpu); }
};
DIFFSCHED_CPUMASK_OP(ClearCpu, 2, "clear_cpu", "cpumask_clear_cpu(cpu, dst)")
  Reg dst;
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("dst", op.dst); f("cpu", op.cpu); }
};
DIFFSCHED_CPUMASK_OP(TestCpu, 3, "test_cpu", "cpumask_test_cpu(cpu, src)")
  Reg src;
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("src", op.src); f("cpu", op.cpu); }
};
DIFFSCHED_CPUMASK_OP(And, 4, "and", "cpumask_and(dst, a, b)")
  Reg dst, a, b;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("dst", op.dst); f("a", op.a); f("b", op.b); }
};
DIFFSCHED_CPUMASK_OP(First, 5, "first", "cpumask_first(src)")
  Reg src;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("src", op.src); }
};
DIFFSCHED_CPUMASK_OP(Next, 6, "next", "cpumask_next(cpu, src)")
  Reg src;
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("src", op.src); f("cpu", op.cpu); }
};
DIFFSCHED_CPUMASK_OP(FirstAnd, 7, "first_and", "cpumask_first_and(a, b)")
  Reg a, b;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("a", op.a); f("b", op.b); }
};
DIFFSCHED_CPUMASK_OP(FirstAndAnd, 8, "first_and_and", "cpumask_first_and_and(a, b, c)")
  Reg a, b, c;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("a", op.a); f("b", op.b); f("c", op.c); }
};
DIFFSCHED_CPUMASK_OP(Weight, 9, "weight", "cpumask_weight(src)")
  Reg src;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("src", op.src); }
};
DIFFSCHED_CPUMASK_OP(Empty, 10, "empty", "cpumask_empty(src)")
  Reg src;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("src", op.src); }
};
DIFFSCHED_CPUMASK_OP(ForEachAnd, 11, "for_each_and", "for_each_cpu_and(cpu, a, b)")
  Reg a, b;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) { f("a", op.a); f("b", op.b); }
};

#undef DIFFSCHED_CPUMASK_OP

using Op = std::variant<Load, SetCpu, ClearCpu, TestCpu, And, First, Next, FirstAnd, FirstAndAnd,
                        Weight, Empty, ForEachAnd>;

struct Config {
  unsigned nr_cpu_ids = 64;
};

}  // namespace diffsched::cpumask
