// RapidCheck properties of the pick subject: reference loop, optimized
// (two cpumask_and + cpumask_first) and fused (cpumask_first_and_and) picks
// against each other and a bitset model, for several nr_cpu_ids.
#include "engine/runner.h"
#include "io/text.h"
#include "pick/lockstep.h"
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

}  // namespace
}  // namespace diffsched::testing
