// RapidCheck properties of the pick subject: reference loop, optimized
// (two cpumask_and + cpumask_first) and fused (cpumask_first_and_and) picks
// against each other and a bitset model, for several nr_cpu_ids.
#include "engine/runner.h"
#include "kernel/pick.h"
#include "io/text.h"
#include "subjects/pick/lockstep.h"
#include "support/generators.h"

namespace diffsched::testing {
namespace {

// A pick op from the op table's fields; half the time one CPU is planted in
// all three masks so that matches happen in every word, not only by chance.
rc::Gen<pick::Pick> gen_pick(unsigned nr) {
  return rc::gen::exec([nr] {
    auto op = gen_op_fields<pick::Pick>(
        nr, [] { return rc::gen::just(0); }, [] { return rc::gen::just(u64{0}); });
    if (*rc::gen::arbitrary<bool>()) {
      const unsigned c = *rc::gen::weightedOneOf<unsigned>(
          {{2, rc::gen::inRange(0u, nr)}, {1, rc::gen::elementOf(boundary_cpus(nr))}});
      for (Cpumask* m : {&op.dst, &op.cpus, &op.allowed}) m->bits[c / 64] |= 1UL << (c % 64);
    }
    return op;
  });
}

void pick_variants_agree(unsigned nr) {
  const auto picks = *rc::gen::container<std::vector<pick::Pick>>(gen_pick(nr));
  pick::Lockstep ls;
  LockstepRun<pick::Subject> run(ls, pick::Config{nr}, Level::kExact);
  for (const auto& p : picks) {
    if (!run.feed(p)) RC_FAIL(run.verdict().finding->describe());
  }
}

#define PICK_PROPERTY(N)                                                              \
  RC_GTEST_PROP(PickVariants, PickIsFirstCpuInAllThreeMasksWith##N##CpuIds, ()) {     \
    pick_variants_agree(N);                                                           \
  }

PICK_PROPERTY(1)
PICK_PROPERTY(2)
PICK_PROPERTY(3)
PICK_PROPERTY(63)
PICK_PROPERTY(64)
PICK_PROPERTY(65)
PICK_PROPERTY(256)
PICK_PROPERTY(8192)

// The model's std::bitset<64> scan answers what a plain bit-by-bit loop does.
unsigned bit_by_bit(const pick::Pick& op, unsigned nr) {
  for (unsigned c = 0; c < nr; ++c)
    if (kernel::cpumask_test_cpu(c, &op.dst) && kernel::cpumask_test_cpu(c, &op.cpus) &&
        kernel::cpumask_test_cpu(c, &op.allowed))
      return c;
  return nr;
}

RC_GTEST_PROP(PickModel, BitsetScanIsTheFirstCommonCpu, ()) {
  const unsigned nr = *rc::gen::element(1u, 2u, 63u, 64u, 65u, 127u, 256u, 8192u);
  kernel::NrCpuIdsScope scope(nr);
  const auto op = *gen_pick(nr);
  RC_ASSERT(pick::model_pick(op, nr) == bit_by_bit(op, nr));
}

// Broken picks: the word-wise fast pass must hand each to the detailed
// checks, which name it (an invariant finding on the broken side).
unsigned pick_ignores_allowed(const Cpumask* dst, const Cpumask* cpus, const Cpumask*) {
  Cpumask both;
  kernel::cpumask_and(&both, dst, cpus);
  return kernel::cpumask_first(&both);
}
unsigned pick_skips_word_zero(const Cpumask* dst, const Cpumask* cpus, const Cpumask* allowed) {
  const unsigned c = kernel::pick_fused(dst, cpus, allowed);
  if (c >= 64 || c == kernel::nr_cpu_ids) return c;
  Cpumask rest = *dst;
  rest.bits[0] = 0;
  return kernel::pick_fused(&rest, cpus, allowed);
}
unsigned pick_none_is_last(const Cpumask* dst, const Cpumask* cpus, const Cpumask* allowed) {
  const unsigned c = kernel::pick_fused(dst, cpus, allowed);
  return c == kernel::nr_cpu_ids ? c - 1 : c;
}

TEST(PickChecks, WordWiseChecksHandEveryBrokenPickToTheDetailedChecks) {
  const pick::PickFn broken[] = {pick_ignores_allowed, pick_skips_word_zero, pick_none_is_last};
  for (const unsigned nr : {2u, 64u, 65u, 256u, 8192u}) {
    for (const pick::PickFn fn : broken) {
      const pick::PickSide sides[] = {{"reference", kernel::pick_reference}, {"broken", fn}};
      pick::Lockstep ls{std::span<const pick::PickSide>(sides)};
      LockstepRun<pick::Subject> run(ls, pick::Config{nr}, Level::kExact);
      // Every CPU of word 0 / the last word in dst and cpus; allowed varies.
      std::vector<pick::Pick> ops;
      for (unsigned c : {0u, 1u, nr / 2, nr - 1}) {
        pick::Pick op;
        for (unsigned x = 0; x < nr; ++x) {
          kernel::cpumask_set_cpu(x, &op.dst);
          kernel::cpumask_set_cpu(x, &op.cpus);
        }
        kernel::cpumask_set_cpu(c, &op.allowed);
        ops.push_back(op);
        op.allowed = Cpumask{};  // no common CPU
        ops.push_back(op);
        op.dst = Cpumask{};
        kernel::cpumask_set_cpu(c, &op.dst);
        kernel::cpumask_set_cpu((c + 1) % nr, &op.allowed);
        ops.push_back(op);
      }
      for (const auto& op : ops)
        if (!run.feed(op)) break;
      const Verdict& v = run.verdict();
      ASSERT_TRUE(v.finding.has_value()) << "nr " << nr;
      EXPECT_EQ(v.finding->kind, FindingKind::kInvariant) << v.finding->describe();
      EXPECT_EQ(v.finding->side, "broken") << v.finding->describe();
    }
  }
}

}  // namespace
}  // namespace diffsched::testing
