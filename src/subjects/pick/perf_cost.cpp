// The counting walks of the three destination picks (kernel/pick.cpp): the
// same word loops as kernel/cpumask.h's find_*_bit and bitmap_and over
// nr_cpu_ids bits, written out once more to count what each reads. Every
// mask word loaded is one `word`; every pass of a word loop, and every pass
// of for_each_cpu_and()'s body, is one `iteration`. Evaluator<pick> checks on
// every op that each walk answers what the real pick answered.
#include <bit>
#include <memory>
#include <variant>

#include "kernel/cpumask.h"
#include "engine/finding.h"
#include "engine/runner.h"
#include "subjects/pick/perf.h"
#include <fmt/format.h>

namespace diffsched::perf {

namespace {

using kernel::BITS_PER_LONG;
using kernel::Cpumask;
using kernel::nr_cpu_ids;

unsigned words_of(unsigned bits) { return (bits + BITS_PER_LONG - 1) / BITS_PER_LONG; }

unsigned long last_word_mask(unsigned bits) {
  return bits % BITS_PER_LONG ? ~0UL >> (BITS_PER_LONG - bits % BITS_PER_LONG) : ~0UL;
}

// find_next_and_bit(a, b, nr_cpu_ids, start), counted: two words per word visited.
unsigned next_and(const Cpumask& a, const Cpumask& b, unsigned start, Counts* c) {
  const unsigned size = nr_cpu_ids;
  if (start >= size) return size;
  unsigned idx = start / BITS_PER_LONG;
  c->words += 2;
  ++c->iterations;
  unsigned long tmp = a.bits[idx] & b.bits[idx] & (~0UL << (start % BITS_PER_LONG));
  while (!tmp) {
    ++idx;
    if (idx * BITS_PER_LONG >= size) return size;
    c->words += 2;
    ++c->iterations;
    tmp = a.bits[idx] & b.bits[idx];
  }
  const unsigned bit = idx * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(tmp));
  return bit < size ? bit : size;
}

// for_each_cpu_and(cpu, dst, cpus) { if (cpumask_test_cpu(cpu, allowed)) break; }
unsigned reference(const pick::Pick& op, Counts* c) {
  for (unsigned cpu = next_and(op.dst, op.cpus, 0, c); cpu < nr_cpu_ids;
       cpu = next_and(op.dst, op.cpus, cpu + 1, c)) {
    ++c->iterations;
    ++c->words;  // cpumask_test_cpu(cpu, allowed)
    if (op.allowed.bits[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG) & 1UL) return cpu;
  }
  return nr_cpu_ids;
}

// cpumask_and(&m, dst, cpus); cpumask_and(&m, &m, allowed); cpumask_first(&m).
unsigned optimized(const pick::Pick& op, Counts* c) {
  const unsigned n = words_of(nr_cpu_ids);
  c->words += 2u * 2u * n;  // two bitmap_and() of every word below nr_cpu_ids
  c->iterations += 2u * n;
  for (unsigned k = 0; k < n; ++k) {  // cpumask_first(), reading the result
    ++c->words;
    ++c->iterations;
    unsigned long w = op.dst.bits[k] & op.cpus.bits[k] & op.allowed.bits[k];
    if (k + 1 == n) w &= last_word_mask(nr_cpu_ids);
    if (w) return k * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(w));
  }
  return nr_cpu_ids;
}

// cpumask_first_and_and(dst, cpus, allowed): three words per word visited.
unsigned fused(const pick::Pick& op, Counts* c) {
  const unsigned n = words_of(nr_cpu_ids);
  for (unsigned k = 0; k < n; ++k) {
    c->words += 3;
    ++c->iterations;
    if (const unsigned long w = op.dst.bits[k] & op.cpus.bits[k] & op.allowed.bits[k]) {
      const unsigned bit = k * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(w));
      return bit < nr_cpu_ids ? bit : nr_cpu_ids;
    }
  }
  return nr_cpu_ids;
}

}  // namespace

unsigned counted_pick(std::size_t side, const pick::Pick& op, Counts* counts) {
  switch (side) {
    case 0: return reference(op, counts);
    case 1: return optimized(op, counts);
    default: return fused(op, counts);
  }
}

// ---- pick --------------------------------------------------------------------

Evaluator<pick::Subject>::Evaluator() : lockstep_(std::make_unique<pick::Lockstep>()) {}

Evaluation Evaluator<pick::Subject>::run(std::span<const pick::Op> ops,
                                         const pick::Config& config, bool per_op) {
  Evaluation e;
  e.side_count = 3;
  e.sides.assign(3, Counts{});
  if (per_op) e.per_op.reserve(ops.size() * 3);
  LockstepRun<pick::Subject> run(*lockstep_, config, pick::Subject::kDefaultLevel);
  std::size_t index = 0;
  for (const pick::Op& any : ops) {
    const pick::Pick& op = std::get<pick::Pick>(any);
    const bool ok = run.feed(any);
    for (std::size_t s = 0; s < 3; ++s) {
      Counts c;
      const unsigned cpu = counted_pick(s, op, &c);
      e.sides[s] += c;
      if (per_op) e.per_op.push_back(c);
      // The counting walk must answer as the real pick does, else it does not
      // count the code compared.
      if (ok && cpu != lockstep_->result(s) && !e.verdict.finding) {
        Finding f = make_finding<pick::Subject>(FindingKind::kDivergence, any, index,
                                                {kPickTool.perf_sides[s], "pick", "perf", "cpu"});
        f.detail = fmt::format("perf: the counting walk of side {} answered {} where the "
                               "pick answered {}",
                               kPickTool.perf_sides[s], cpu, lockstep_->result(s));
        e.verdict.finding = std::move(f);
      }
    }
    ++index;
  }
  run.finish();
  if (!e.verdict.finding) {
    e.verdict = run.verdict();
  } else {
    Verdict v = run.verdict();
    v.finding = std::move(e.verdict.finding);
    e.verdict = std::move(v);
  }
  return e;
}

}  // namespace diffsched::perf
