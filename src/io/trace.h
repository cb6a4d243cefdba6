// Human-readable op-by-op traces of a lockstep run (for `diffsched replay`).
//
//   TextTrace<cpudl::Subject> trace(stdout);
//   run_lockstep<cpudl::Subject>(ls, cfg, ops, level, &trace);
//
// Each op prints its index and text, then every side's state (heap slots as
// cpu:dl, masks as cpulists) with sides whose state differs from the
// reference marked "*", then find/pick answers. Findings are printed by the
// caller from the Verdict.
#pragma once

#include <cstdio>

#include "cpudl/lockstep.h"
#include "engine/runner.h"
#include "cpumask/lockstep.h"
#include "pick/lockstep.h"

namespace diffsched::io {

// One op's lines for each subject.
void print_step(std::FILE* out, std::size_t index, const cpudl::Op& op, const cpudl::Lockstep& ls);
void print_step(std::FILE* out, std::size_t index, const pick::Op& op, const pick::Lockstep& ls);
void print_step(std::FILE* out, std::size_t index, const cpumask::Op& op,
                const cpumask::Lockstep& ls);

// The heaps of every side drawn as trees, each beside the reference's, with
// slots that differ from the reference marked "*".
void print_trees(std::FILE* out, const cpudl::Lockstep& ls);

template <class S>
class TextTrace final : public Observer<S> {
 public:
  // With `trees` (cpudl only), heaps are drawn as trees after each op.
  explicit TextTrace(std::FILE* out, bool trees = false) : out_(out), trees_(trees) {}
  void on_op(std::size_t index, const typename S::Op& op, const typename S::Lockstep& ls,
             const Verdict&) override {
    print_step(out_, index, op, ls);
    if constexpr (std::is_same_v<S, cpudl::Subject>)
      if (trees_ && !ls.last_skipped()) print_trees(out_, ls);
  }

 private:
  std::FILE* out_;
  bool trees_;
};

// The notes of a verdict, one line each ("note: ..."), or nothing.
void print_notes(std::FILE* out, const Verdict& verdict);

}  // namespace diffsched::io
