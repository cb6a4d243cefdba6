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

#include "engine/runner.h"

namespace diffsched::io {

// A subject's printers (src/subjects/<name>/print.h: print_step(), and
// print_trees() for a subject whose state is a heap) are found by
// argument-dependent lookup where a trace is instantiated; io/ includes no
// subject.
template <class S>
class TextTrace final : public Observer<S> {
 public:
  // With `trees` (a subject with print_trees(): cpudl), heaps are drawn as
  // trees after each op.
  explicit TextTrace(std::FILE* out, bool trees = false) : out_(out), trees_(trees) {}
  void on_op(std::size_t index, const typename S::Op& op, const typename S::Lockstep& ls,
             const Verdict&) override {
    print_step(out_, index, op, ls);
    if constexpr (requires { print_trees(out_, ls); })
      if (trees_ && !ls.last_skipped()) print_trees(out_, ls);
  }

 private:
  std::FILE* out_;
  bool trees_;
};

// The notes of a verdict, one line each ("note: ..."), or nothing.
void print_notes(std::FILE* out, const Verdict& verdict);

}  // namespace diffsched::io
