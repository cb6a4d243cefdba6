// The verifier must find what is there and only that: small instances of
// `diffsched verify`, checked against an independent naive search and
// against planted bugs, so that a regression in the verifier is caught.
#include <algorithm>
#include <deque>
#include <set>

#include <gtest/gtest.h>

#include "subjects/cpudl/kernel_side.h"
#include "engine/runner.h"
#include "io/text.h"
#include "kernel/pick.h"
#include "subjects/cpudl/verify_bfs.h"
#include "subjects/pick/verify_check.h"

namespace diffsched::testing {
namespace {

using verify::CpudlBounds;
using verify::Domain;

// ---- an independent naive search: replays every path from cpudl_init() ---

// The state as text, from every side's view and the model: slots below
// size, slot 0 when empty (cpudl_find reads it), free mask.
std::string naive_key(const cpudl::Lockstep& ls) {
  std::string key;
  for (std::size_t s = 0; s < ls.side_count(); ++s) {
    const cpudl::HeapView h = ls.side(s).view();
    key += cpudl::format_state(h);
    if (h.size == 0)
      key += fmt::format(" stale {}:{}", h.elements[0].cpu, h.elements[0].dl);
    key += " | ";
  }
  return key;
}

struct NaiveResult {
  std::size_t states = 0;
  std::uint64_t transitions = 0;
  std::optional<std::vector<cpudl::Op>> counterexample;
};

NaiveResult naive_bfs(const CpudlBounds& b,
                      const std::function<std::unique_ptr<cpudl::Lockstep>()>& make) {
  kernel::NrCpuIdsScope scope(b.cpus);
  const cpudl::Config config{b.cpus, b.capacity};
  const auto ops = verify::cpudl_ops(b);
  auto ls = make();
  std::set<std::string> seen;
  std::deque<std::vector<cpudl::Op>> queue{{}};
  run_lockstep<cpudl::Subject>(*ls, config, std::span<const cpudl::Op>(), b.level);
  seen.insert(naive_key(*ls));
  NaiveResult out;
  while (!queue.empty()) {
    const std::vector<cpudl::Op> path = std::move(queue.front());
    queue.pop_front();
    for (const auto& op : ops) {
      run_lockstep<cpudl::Subject>(*ls, config, std::span<const cpudl::Op>(path), b.level);
      std::string why;
      if (!ls->model().permits(op, &why)) continue;
      ++out.transitions;
      std::vector<cpudl::Op> next = path;
      next.push_back(op);
      const Verdict v =
          run_lockstep<cpudl::Subject>(*ls, config, std::span<const cpudl::Op>(next), b.level);
      if (v.finding) {
        out.states = seen.size();
        out.counterexample = next;
        return out;
      }
      if (seen.insert(naive_key(*ls)).second) queue.push_back(std::move(next));
    }
  }
  out.states = seen.size();
  return out;
}

std::unique_ptr<cpudl::Lockstep> default_lockstep() { return std::make_unique<cpudl::Lockstep>(); }

// ---- a planted bug: the optimized heapify_down never looks at the right child

struct HoleHeapifyDownIgnoresRightChild : kernel::HoleHeapify {
  template <class CP>
  static void cpudl_heapify_down(CP* cp, int idx) {
    int orig_cpu = cp->elements[idx].cpu;
    kernel::u64 orig_dl = cp->elements[idx].dl;
    if (kernel::left_child(idx) >= cp->size) return;
    while (true) {
      int l = kernel::left_child(idx), largest = idx;
      if (l < cp->size && kernel::dl_time_before(orig_dl, cp->elements[l].dl)) largest = l;
      // BUG: the right child is never compared
      if (largest == idx) break;
      cp->elements[idx].cpu = cp->elements[largest].cpu;
      cp->elements[idx].dl = cp->elements[largest].dl;
      cp->elements[cp->elements[idx].cpu].idx = idx;
      idx = largest;
    }
    cp->elements[idx].cpu = orig_cpu;
    cp->elements[idx].dl = orig_dl;
    cp->elements[cp->elements[idx].cpu].idx = idx;
  }
};

std::unique_ptr<cpudl::Lockstep> mutant_lockstep() {
  std::vector<std::unique_ptr<cpudl::Side>> sides;
  sides.push_back(std::make_unique<cpudl::KernelModelSide<kernel::SwapHeapify>>("reference"));
  sides.push_back(
      std::make_unique<cpudl::KernelModelSide<HoleHeapifyDownIgnoresRightChild>>("optimized"));
  return std::make_unique<cpudl::Lockstep>(std::move(sides));
}

std::vector<std::string> texts(const std::vector<cpudl::Op>& ops, unsigned cpus) {
  kernel::NrCpuIdsScope scope(cpus);
  std::vector<std::string> out;
  for (const auto& op : ops) out.push_back(io::format_op(op));
  return out;
}

TEST(CpudlVerify, OpListHasEveryFieldValueOfTheBounds) {
  const CpudlBounds b{.cpus = 3, .deadlines = 2};
  kernel::NrCpuIdsScope scope(b.cpus);
  // set 3*2, clear 3, clear_online 3*2, set_freecpu 3, clear_freecpu 3,
  // find and find_nomask 4 task deadlines * 8 masks each.
  // find_cap: 4 task deadlines x 8 masks x 3 task CPUs x 2 runtimes x 2 deadlines
  // (not cpu_down and cpu_up: they reach no new state, see cpudl_ops()).
  EXPECT_EQ(verify::cpudl_ops(b).size(), 6u + 3 + 6 + 3 + 3 + 2 * 4 * 8 + 4 * 8 * 3 * 2 * 2);
  EXPECT_EQ(verify::heap_deadlines({.deadlines = 4, .domain = Domain::kWrap64}),
            (std::vector<kernel::u64>{~0ULL - 1, ~0ULL, 0, 1}));
  EXPECT_EQ(verify::task_deadlines({.deadlines = 2, .domain = Domain::kWrap63}),
            (std::vector<kernel::u64>{(1ULL << 63) - 2, (1ULL << 63) - 1, 1ULL << 63,
                                      (1ULL << 63) + 1}));
}

TEST(CpudlVerify, ExactLevelGivesTheTwoOpTieCounterexample) {
  const CpudlBounds b{.cpus = 3, .deadlines = 2, .level = Level::kExact};
  cpudl::Lockstep ls;
  const auto r = verify::verify_cpudl(b, ls);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.counterexample);
  EXPECT_TRUE(r.confirmed);
  EXPECT_EQ(texts(r.counterexample->ops, 3),
            (std::vector<std::string>{"set 0 1000", "set 1 1000"}));
  ASSERT_TRUE(r.replayed.finding);
  EXPECT_EQ(r.replayed.finding->signature(), "cpudl:divergence:exact:slot.cpu:set");
}

// The state count is pinned, and must equal the naive search's, which shares
// nothing with the verifier but the op list and the lockstep.
TEST(CpudlVerify, DeadlineLevelVisitsEveryReachableStateOnceInEveryDomain) {
  for (Domain d : {Domain::kWindow, Domain::kWrap63, Domain::kWrap64}) {
    const CpudlBounds b{.cpus = 3, .deadlines = 2, .domain = d};
    cpudl::Lockstep ls;
    const auto r = verify::verify_cpudl(b, ls);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.counterexample) << verify::domain_name(d);
    EXPECT_TRUE(r.complete);
    const auto naive = naive_bfs(b, default_lockstep);
    EXPECT_FALSE(naive.counterexample);
    EXPECT_EQ(r.states, naive.states) << verify::domain_name(d);
    EXPECT_EQ(r.transitions, naive.transitions) << verify::domain_name(d);
    if (d == Domain::kWindow) {
      EXPECT_EQ(r.states, 260u);
    }
  }
}

TEST(CpudlVerify, MaxDepthBoundsTheSearch) {
  const CpudlBounds b{.cpus = 3, .deadlines = 2, .max_depth = 2};
  cpudl::Lockstep ls;
  const auto r = verify::verify_cpudl(b, ls);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.counterexample);
  EXPECT_EQ(r.states_by_depth, (std::vector<std::uint64_t>{1, 9, 45}));
}

TEST(CpudlVerify, PlantedHeapifyBugGivesAShortestCounterexampleThatReplays) {
  const CpudlBounds b{.cpus = 3, .deadlines = 2};
  auto ls = mutant_lockstep();
  const auto r = verify::verify_cpudl(b, *ls);
  ASSERT_TRUE(r.counterexample);
  EXPECT_TRUE(r.confirmed);
  ASSERT_TRUE(r.replayed.finding);
  EXPECT_EQ(r.replayed.finding->side, "optimized");
  EXPECT_EQ(r.replayed.finding->op_index + 1, r.counterexample->ops.size());
  // Three CPUs in the heap, then a later root deadline made earlier: 4 ops.
  const auto naive = naive_bfs(b, mutant_lockstep);
  ASSERT_TRUE(naive.counterexample);
  EXPECT_EQ(r.counterexample->ops.size(), naive.counterexample->size());
  EXPECT_EQ(r.counterexample->ops.size(), 4u);
  std::cout << "counterexample:\n";
  for (const auto& t : texts(r.counterexample->ops, 3)) std::cout << "  " << t << "\n";
  std::cout << r.replayed.finding->describe() << "\n";
}

// ---- pick ------------------------------------------------------------------

// fused, but only the first word is scanned: right for nr_cpu_ids <= 64.
unsigned fused_first_word_only(const kernel::Cpumask* a, const kernel::Cpumask* b,
                               const kernel::Cpumask* c) {
  const unsigned long v = a->bits[0] & b->bits[0] & c->bits[0];
  const unsigned n = kernel::nr_cpu_ids;
  return v ? std::min(static_cast<unsigned>(std::countr_zero(v)), n) : n;
}

TEST(PickVerify, SmallBoundsAreVerifiedAndTheWordLemmasProved) {
  const auto r = pick::verify::verify_pick({.bits = 4, .boundary_cpus = 70}, pick::default_sides());
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.counterexample);
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(r.checks[0].triples, 8u + 64 + 512 + 4096);
  ASSERT_EQ(r.lemmas.size(), 5u);
  for (const auto& l : r.lemmas)
    EXPECT_EQ(l.status, pick::verify::Lemma::Status::kProved) << l.name << ": " << l.detail;
  EXPECT_TRUE(r.transcription.mismatch.empty()) << r.transcription.mismatch;
  EXPECT_TRUE(r.ok());
}

TEST(PickVerify, ScanThatStopsAtTheFirstWordIsCaughtAtCpu64) {
  static constexpr pick::PickSide kSides[] = {
      {"reference", kernel::pick_reference},
      {"optimized", kernel::pick_optimized},
      {"fused", fused_first_word_only},
  };
  const auto r = pick::verify::verify_pick({.bits = 3, .boundary_cpus = 70, .z3 = false}, kSides);
  ASSERT_TRUE(r.counterexample);
  EXPECT_EQ(r.counterexample->config.nr_cpu_ids, 65u);  // the first n with a second word
  ASSERT_TRUE(r.replayed.finding);
  EXPECT_EQ(r.replayed.finding->side, "fused");
  kernel::NrCpuIdsScope scope(65);
  EXPECT_EQ(io::format_op(r.counterexample->ops[0]), "pick dst=64 cpus=64 allowed=64");
}

TEST(PickVerify, TranscriptionCheckNoticesCodeThatDiffersFromTheWordModel) {
  static constexpr pick::PickSide kSides[] = {
      {"reference", kernel::pick_reference},
      {"optimized", kernel::pick_optimized},
      {"fused", fused_first_word_only},
  };
  const auto t = pick::verify::transcription_check(kSides, 200);
  EXPECT_NE(t.mismatch, "");
}

}  // namespace
}  // namespace diffsched::testing
