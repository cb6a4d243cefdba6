// RapidCheck properties of the cpumask model against a naive std::bitset,
// so that the pick oracle rests on a checked mask.
#include <bitset>

#include "io/text.h"
#include "kernel/cpumask.h"
#include "support/generators.h"

namespace diffsched::testing {
namespace {

using kernel::NR_CPUS;
using Bits = std::bitset<NR_CPUS>;

Bits bits(const Cpumask& m, unsigned nr) {
  Bits b;
  for (unsigned c = 0; c < nr; ++c)
    if ((m.bits[c / 64] >> (c % 64)) & 1UL) b.set(c);
  return b;
}

unsigned naive_first(const Bits& b, unsigned from, unsigned nr) {
  for (unsigned c = from; c < nr; ++c)
    if (b[c]) return c;
  return nr;
}

void cpumask_matches_bitset(unsigned nr) {
  kernel::NrCpuIdsScope scope(nr);
  const Cpumask a = *gen_mask(nr), b = *gen_mask(nr), c = *gen_mask(nr);
  const unsigned n = *rc::gen::inRange(0u, nr);
  const Bits A = bits(a, nr), B = bits(b, nr), C = bits(c, nr);

  RC_ASSERT(kernel::cpumask_test_cpu(n, &a) == A[n]);
  RC_ASSERT(kernel::cpumask_first(&a) == naive_first(A, 0, nr));
  RC_ASSERT(kernel::cpumask_next(static_cast<int>(n), &a) == naive_first(A, n + 1, nr));
  RC_ASSERT(kernel::cpumask_next(-1, &a) == naive_first(A, 0, nr));
  RC_ASSERT(kernel::cpumask_first_and(&a, &b) == naive_first(A & B, 0, nr));
  RC_ASSERT(kernel::cpumask_first_and_and(&a, &b, &c) == naive_first(A & B & C, 0, nr));
  RC_ASSERT(kernel::cpumask_weight(&a) == A.count());
  RC_ASSERT(kernel::cpumask_empty(&a) == A.none());

  Cpumask dst;  // uninitialised, as a kernel stack mask
  const bool nonempty = kernel::cpumask_and(&dst, &a, &b);
  RC_ASSERT(nonempty == (A & B).any());
  RC_ASSERT(bits(dst, nr) == (A & B));

  unsigned visited = 0, cpu;
  Bits seen;
  for_each_cpu_and(cpu, &a, &b) {
    seen.set(cpu);
    ++visited;
  }
  RC_ASSERT(seen == (A & B));
  RC_ASSERT(visited == (A & B).count());

  Cpumask m = a;
  kernel::cpumask_set_cpu(n, &m);
  RC_ASSERT(bits(m, nr) == (Bits(A).set(n)));
  kernel::cpumask_clear_cpu(n, &m);
  RC_ASSERT(bits(m, nr) == (Bits(A).reset(n)));

  // Text form, both ways.
  Cpumask back{};
  std::string error;
  RC_ASSERT(kernel::cpulist_parse(kernel::cpumask_to_cpulist(a), &back, &error));
  RC_ASSERT(bits(back, nr) == A);
}

#define CPUMASK_PROPERTY(N)                                                  \
  RC_GTEST_PROP(Cpumask, KernelSemanticsMatchNaiveBitsetWith##N##CpuIds, ()) { \
    cpumask_matches_bitset(N);                                               \
  }

CPUMASK_PROPERTY(1)
CPUMASK_PROPERTY(2)
CPUMASK_PROPERTY(3)
CPUMASK_PROPERTY(63)
CPUMASK_PROPERTY(64)
CPUMASK_PROPERTY(65)
CPUMASK_PROPERTY(256)
CPUMASK_PROPERTY(8192)

}  // namespace
}  // namespace diffsched::testing
