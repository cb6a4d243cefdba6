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

// Fills every field of an op with the generator for its type; `gen_int`
// and `gen_u64` are the subject's CPU and deadline generators.
template <class OpT, class GenCpu, class GenDl>
OpT gen_op_fields(unsigned nr, GenCpu&& gen_cpu, GenDl&& gen_dl) {
  OpT op{};
  for_each_field(op, [&](std::string_view, auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, int>)
      v = *gen_cpu();
    else if constexpr (std::is_same_v<T, u64>)
      v = *gen_dl();
    else if constexpr (std::is_same_v<T, bool>)
      v = *rc::gen::arbitrary<bool>();
    else if constexpr (std::is_same_v<T, Cpumask>)
      v = *gen_mask(nr);
    else
      static_assert(sizeof(T) == 0, "no generator for this field type");
  });
  return op;
}

}  // namespace diffsched::testing
