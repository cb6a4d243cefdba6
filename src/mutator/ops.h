// The op-level mutations' common parts (mutator.h): a seeded random source,
// the sizes and CPUs worth reaching, the mutations any op list takes, and
// each subject package's own mutations (subjects/<name>/mutator.cpp).
//
//   Rng rng(seed);
//   OpBudget budget{.max_ops = 600, .nr_cpus = {}};
//   mutate_runs(program.ops, rng, budget);         // duplicate, repeat, delete a run
//   mutate_subject(program, rng, budget);          // the subject's own, or false
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "io/program.h"
#include "kernel/types.h"

namespace diffsched::mutator {

using kernel::u64;

class Rng {
 public:
  explicit Rng(u64 seed) : g_(seed) {}
  u64 next() { return g_(); }
  // Uniform in [0, n); 0 when n is 0.
  u64 below(u64 n) { return n == 0 ? 0 : g_() % n; }
  bool one_in(u64 n) { return below(n) == 0; }
  template <class T>
  const T& pick(std::span<const T> items) { return items[below(items.size())]; }
  template <class T>
  void shuffle(std::vector<T>& v) { std::shuffle(v.begin(), v.end(), g_); }

 private:
  std::mt19937_64 g_;
};

// What a mutation may produce.
struct OpBudget {
  std::size_t max_ops = 0;            // ops the output may hold (from max_size)
  std::span<const unsigned> nr_cpus;  // nr_cpu_ids allowed (empty: any)
};

// A heap or mask size worth reaching, at most `limit` (>= 1): around the
// powers of two (a slot's depth changes there: 31, 32, 63, 64, ...) half of
// the time, else uniform in [1, limit].
unsigned interesting_count(Rng& rng, unsigned limit);

// A CPU below nr worth reaching: 0, 1, nr-1, nr-2, a word edge (63, 64, 127,
// ...), a power of two and its neighbours, or a random one.
unsigned boundary_cpu(Rng& rng, unsigned nr);

// A nr_cpu_ids to move to: one of `allowed` if given, else the format's table
// values, word counts of every residue mod 4 (65..256 and beyond), a word
// edge +-1, or a random value in 1..8192.
unsigned mutate_nr_cpus(Rng& rng, unsigned nr, std::span<const unsigned> allowed);

// Duplicates a run of ops elsewhere, repeats one in place, or deletes one.
// False when the list is empty.
template <class Op>
bool mutate_runs(std::vector<Op>& ops, Rng& rng, const OpBudget& b) {
  if (ops.empty()) return false;
  const std::size_t n = ops.size();
  const std::size_t i = rng.below(n);
  std::size_t len = 1 + rng.below(std::min<std::size_t>(n - i, rng.one_in(2) ? 4 : 32));
  const std::vector<Op> run(ops.begin() + static_cast<std::ptrdiff_t>(i),
                            ops.begin() + static_cast<std::ptrdiff_t>(i + len));
  switch (rng.below(3)) {
    case 0: {  // duplicate elsewhere
      if (n + len > b.max_ops) return false;
      const std::size_t at = rng.below(n + 1);
      ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(at), run.begin(), run.end());
      return true;
    }
    case 1: {  // repeat in place, 1..15 more times
      std::size_t times = 1 + rng.below(rng.one_in(2) ? 3 : 15);
      while (times > 0 && n + times * len > b.max_ops) --times;
      if (times == 0) return false;
      for (std::size_t t = 0; t < times; ++t)
        ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(i + len), run.begin(), run.end());
      return true;
    }
    default:  // delete
      if (len == n && n > 1) --len;
      ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i),
                ops.begin() + static_cast<std::ptrdiff_t>(i + len));
      return true;
  }
}

// Splices: a prefix of `a`, then a run of `b`, then (sometimes) the rest of a.
template <class Op>
std::vector<Op> splice_ops(const std::vector<Op>& a, const std::vector<Op>& b, Rng& rng,
                           std::size_t max_ops) {
  const std::size_t cut = rng.below(a.size() + 1);
  std::vector<Op> out(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(cut));
  if (!b.empty()) {
    const std::size_t from = rng.below(b.size());
    const std::size_t len = 1 + rng.below(b.size() - from);
    out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from),
               b.begin() + static_cast<std::ptrdiff_t>(from + len));
  }
  if (rng.one_in(2)) out.insert(out.end(), a.begin() + static_cast<std::ptrdiff_t>(cut), a.end());
  if (out.size() > max_ops) out.resize(max_ops);
  return out;
}

// Each subject package's own mutations (false: none made). The generic
// fallback (cpumask) has none; cpudl's and pick's are in their packages.
template <class P>
bool mutate_subject(P&, Rng&, const OpBudget&) {
  return false;
}
bool mutate_subject(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b);
bool mutate_subject(io::Program<pick::Subject>& p, Rng& rng, const OpBudget& b);

// A subject's heap filled first, to a size drawn up to nr_cpu_ids (false:
// the subject has no heap). cpudl's is in its package.
template <class P>
bool fill_first(P&, Rng&, const OpBudget&) {
  return false;
}
bool fill_first(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b);

}  // namespace diffsched::mutator
