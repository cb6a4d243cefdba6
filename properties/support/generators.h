// RapidCheck generators shared by the properties: masks, deadlines in a
// domain, CPUs biased towards the live ones, and whole ops built field by
// field from the subject's op table.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include <rapidcheck.h>

#include "engine/op.h"
#include "io/text.h"
#include "kernel/cpumask.h"
#include "subjects/cpumask/ops.h"  // reg(): the register field type

namespace diffsched::testing {

using kernel::Cpumask;
using kernel::u64;

// Deadline domain. Window: live deadlines are drawn from [base, base + width),
// wrapping, with base anywhere in u64 (0, across 2^63, across 2^64, random)
// and a width small enough for many ties; the kernel's assumption (live
// deadlines within 2^63) holds. Unconstrained: any u64.
struct Domain {
  bool unconstrained = false;
  u64 base = 0;
  u64 width = 16;
};

inline void showValue(const Domain& d, std::ostream& os) {
  if (d.unconstrained)
    os << "unconstrained (any u64)";
  else
    os << "window base " << io::format_value(d.base) << " width " << io::format_value(d.width);
}

// Any u64 with the same chance at every size (RapidCheck scales arbitrary
// integers with the test size; deadlines near 2^63 and 2^64 must not be rare).
inline rc::Gen<u64> full_range_u64() {
  return rc::gen::resize(rc::kNominalSize, rc::gen::arbitrary<u64>());
}

inline rc::Gen<Domain> gen_window_domain() {
  return rc::gen::exec([] {
    Domain d;
    d.width = *rc::gen::element<u64>(4, 16, 1000, u64{1} << 32);
    const u64 half = d.width / 2;
    d.base = *rc::gen::weightedOneOf<u64>({
        {1, rc::gen::just<u64>(0)},
        {1, rc::gen::just<u64>((u64{1} << 63) - half)},  // straddles 2^63
        {1, rc::gen::just<u64>(u64{0} - half)},          // straddles 2^64 (wraps to 0)
        {2, full_range_u64()},
    });
    return d;
  });
}

inline rc::Gen<Domain> gen_unconstrained_domain() {
  return rc::gen::just(Domain{true, 0, 0});
}

// CPUs near word boundaries and the ends, where scans go wrong.
inline std::vector<unsigned> boundary_cpus(unsigned nr) {
  std::vector<unsigned> out;
  for (unsigned c : {0u, 1u, 62u, 63u, 64u, 65u, 127u, 128u, nr / 2, nr - 2, nr - 1})
    if (c < nr) out.push_back(c);
  return out;
}

inline Cpumask mask_of(const std::vector<unsigned>& cpus, unsigned nr) {
  Cpumask m{};
  for (unsigned c : cpus)
    if (c < nr) m.bits[c / 64] |= 1UL << (c % 64);
  return m;
}

inline Cpumask mask_range(unsigned lo, unsigned hi, unsigned nr) {
  Cpumask m{};
  for (unsigned c = lo; c <= hi && c < nr; ++c) m.bits[c / 64] |= 1UL << (c % 64);
  return m;
}

// Masks of nr_cpu_ids bits: lists of CPUs (biased to word boundaries),
// ranges, full and empty.
inline rc::Gen<Cpumask> gen_mask(unsigned nr) {
  auto cpu = rc::gen::weightedOneOf<unsigned>(
      {{2, rc::gen::inRange(0u, nr)}, {1, rc::gen::elementOf(boundary_cpus(nr))}});
  auto listed = rc::gen::map(rc::gen::container<std::vector<unsigned>>(cpu),
                             [nr](const std::vector<unsigned>& cpus) { return mask_of(cpus, nr); });
  auto ranged = rc::gen::map(rc::gen::pair(rc::gen::inRange(0u, nr), rc::gen::inRange(0u, nr)),
                             [nr](std::pair<unsigned, unsigned> p) {
                               return mask_range(std::min(p.first, p.second),
                                                 std::max(p.first, p.second), nr);
                             });
  return rc::gen::weightedOneOf<Cpumask>({
      {4, listed},
      {2, ranged},
      {1, rc::gen::just(mask_range(0, nr - 1, nr))},
      {1, rc::gen::just(Cpumask{})},
  });
}

// The generators of each field type, for FieldTraits<T>::generator(gens)
// (io/fields.h says which one a type takes). `gen_cpu` and `gen_dl` are the
// subject's CPU and deadline generators.
template <class GenCpu, class GenDl>
struct FieldGens {
  unsigned nr;
  GenCpu gen_cpu;
  GenDl gen_dl;
  auto cpu() const { return gen_cpu(); }
  auto heap_deadline() const { return gen_dl(); }
  auto task_deadline() const { return gen_dl(); }
  // Relative times: multiples of 64 up to 2048 ns (ratios near the
  // capacities), or any value below Duration::kLimit.
  rc::Gen<u64> duration() const {
    return rc::gen::weightedOneOf<u64>({
        {4, rc::gen::map(rc::gen::inRange<u64>(0, 33), [](u64 k) { return k * 64; })},
        {1, rc::gen::inRange<u64>(0, Duration::kLimit)},
    });
  }
  rc::Gen<bool> flag() const { return rc::gen::arbitrary<bool>(); }
  rc::Gen<Cpumask> mask() const { return gen_mask(nr); }
  rc::Gen<cpumask::Reg> reg() const {
    return rc::gen::map(rc::gen::inRange(0u, cpumask::kRegisters),
                        [](unsigned r) { return cpumask::Reg{r}; });
  }
};

// Fills every field of an op with the generator its type's traits name.
template <class OpT, class GenCpu, class GenDl>
OpT gen_op_fields(unsigned nr, GenCpu&& gen_cpu, GenDl&& gen_dl) {
  const FieldGens<GenCpu, GenDl> gens{nr, gen_cpu, gen_dl};
  OpT op{};
  for_each_field(op, [&](std::string_view, auto& v) {
    v = *io::FieldTraits<std::decay_t<decltype(v)>>::generator(gens);
  });
  return op;
}

}  // namespace diffsched::testing
