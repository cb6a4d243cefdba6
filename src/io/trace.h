// Human-readable op-by-op traces of a lockstep run (for `diffsched replay`).
//
//   CpudlTrace trace(stdout);
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
#include "pick/lockstep.h"

namespace diffsched::io {

class CpudlTrace final : public Observer<cpudl::Subject> {
 public:
  explicit CpudlTrace(std::FILE* out) : out_(out) {}
  void on_op(std::size_t index, const cpudl::Op& op, const cpudl::Lockstep& ls,
             const Verdict& verdict) override;

 private:
  std::FILE* out_;
};

class PickTrace final : public Observer<pick::Subject> {
 public:
  explicit PickTrace(std::FILE* out) : out_(out) {}
  void on_op(std::size_t index, const pick::Op& op, const pick::Lockstep& ls,
             const Verdict& verdict) override;

 private:
  std::FILE* out_;
};

// The notes of a verdict, one line each ("note: ..."), or nothing.
void print_notes(std::FILE* out, const Verdict& verdict);

}  // namespace diffsched::io
