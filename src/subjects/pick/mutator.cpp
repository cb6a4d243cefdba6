// pick's op-level mutations (src/mutator/mutator.h): masks made of runs,
// bits at word edges, the first CPU common to the three masks moved into a
// later word (the last, partial one included), masks aliased to one another,
// and new picks made from these. nr_cpu_ids with each word count mod 4 comes
// from the generic mutations (mutate_nr_cpus).
#include <algorithm>
#include <vector>

#include "mutator/ops.h"
#include "subjects/pick/ops.h"

namespace diffsched::mutator {

namespace {

using kernel::Cpumask;

void set_bit(Cpumask& m, unsigned c) { m.bits[c / 64] |= 1UL << (c % 64); }
void clear_below(Cpumask& m, unsigned c) {
  for (unsigned w = 0; w < c / 64; ++w) m.bits[w] = 0;
  if (c % 64) m.bits[c / 64] &= ~((1UL << (c % 64)) - 1);
}
void set_run(Cpumask& m, unsigned from, unsigned to) {  // [from, to)
  for (unsigned c = from; c < to; ++c) set_bit(m, c);
}

template <class P>  // pick::Pick, const or not
auto& field(P& op, u64 which) {
  return which == 0 ? op.dst : which == 1 ? op.cpus : op.allowed;
}

// A mask: empty, full, a run between boundary CPUs, a word-edge bit, or the
// last (partial) word only.
Cpumask fresh_mask(Rng& rng, unsigned nr) {
  Cpumask m{};
  switch (rng.below(5)) {
    case 0: break;
    case 1: set_run(m, 0, nr); break;
    case 2: {
      unsigned a = boundary_cpu(rng, nr), b = boundary_cpu(rng, nr);
      if (a > b) std::swap(a, b);
      set_run(m, a, b + 1);
      break;
    }
    case 3: set_bit(m, boundary_cpu(rng, nr)); break;
    default: set_run(m, (nr - 1) / 64 * 64, nr); break;
  }
  return m;
}

// The first common CPU becomes `c`: every mask gets c, one (or all) lose
// everything below it.
void common_at(pick::Pick& op, unsigned c, Rng& rng) {
  const bool all = rng.one_in(2);
  const u64 which = rng.below(3);
  for (u64 f = 0; f < 3; ++f) {
    set_bit(field(op, f), c);
    if (all || f == which) clear_below(field(op, f), c);
  }
}

bool mutate_one_pick(pick::Pick& op, const std::vector<pick::Op>& others, Rng& rng,
                     unsigned nr) {
  switch (rng.below(6)) {
    case 0: field(op, rng.below(3)) = fresh_mask(rng, nr); return true;
    case 1: {  // a word-edge bit flips
      Cpumask& m = field(op, rng.below(3));
      const unsigned c = boundary_cpu(rng, nr);
      m.bits[c / 64] ^= 1UL << (c % 64);
      return true;
    }
    case 2: common_at(op, boundary_cpu(rng, nr), rng); return true;
    case 3: {  // in the last word, partial or not
      const unsigned lo = (nr - 1) / 64 * 64;
      common_at(op, lo + static_cast<unsigned>(rng.below(nr - lo)), rng);
      return true;
    }
    case 4: {  // aliasing: a mask copied from another field or another pick
      const u64 to = rng.below(3);
      if (!others.empty() && rng.one_in(2))
        field(op, to) = field(std::get<pick::Pick>(others[rng.below(others.size())]), rng.below(3));
      else
        field(op, to) = field(op, (to + 1 + rng.below(2)) % 3);
      return true;
    }
    default: {  // one mask shifted by a word
      Cpumask& m = field(op, rng.below(3));
      const unsigned words = (nr + 63) / 64;
      if (words < 2) return false;
      if (rng.one_in(2))
        for (unsigned w = words - 1; w > 0; --w) m.bits[w] = m.bits[w - 1];
      else
        for (unsigned w = 0; w + 1 < words; ++w) m.bits[w] = m.bits[w + 1];
      if (nr % 64) m.bits[words - 1] &= (1UL << (nr % 64)) - 1;
      return true;
    }
  }
}

}  // namespace

bool mutate_subject(io::Program<pick::Subject>& p, Rng& rng, const OpBudget& b) {
  const unsigned nr = p.config.nr_cpu_ids;
  if (p.ops.empty() || (rng.one_in(4) && p.ops.size() < b.max_ops)) {
    pick::Pick op{fresh_mask(rng, nr), fresh_mask(rng, nr), fresh_mask(rng, nr)};
    if (rng.one_in(2)) common_at(op, boundary_cpu(rng, nr), rng);
    p.ops.insert(p.ops.begin() + static_cast<std::ptrdiff_t>(rng.below(p.ops.size() + 1)), op);
    return true;
  }
  auto& op = std::get<pick::Pick>(p.ops[rng.below(p.ops.size())]);
  return mutate_one_pick(op, p.ops, rng, nr);
}

}  // namespace diffsched::mutator
