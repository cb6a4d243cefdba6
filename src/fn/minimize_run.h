// diffsched fn: a finding's input made smaller by running candidates on
// both sides (minimize.h makes the candidates), keeping what makes it a
// finding: its signature, or a perf limit still exceeded.
//
//   Minimized m = minimize(old_side, new_side, dir, input, a, b, level, false);
//   // m.input: the smallest input found; m.old_obs/new_obs: the sides on it
#pragma once

#include <cstddef>
#include <functional>

#include "fn/check.h"
#include "fn/minimize.h"
#include "fn/model.h"
#include "fn/sides.h"
#include "fn/workdir.h"

namespace diffsched::fn {

// A finding's input made smaller (minimize.h), with what each side did on it.
struct Minimized {
  Input input;
  Observation old_obs, new_obs;
  int rounds = 0;         // rounds that made it smaller
  std::size_t tried = 0;  // candidates run
};

// Rounds of shrinking at most: each runs both sides once over its candidates.
inline constexpr int kMaxShrinkRounds = 48;

using Keeps = std::function<bool(const Observation&, const Observation&)>;

// Greedy: each round runs every smaller neighbour of the input on both sides
// (one batch each) and keeps the first on which `keeps` holds, then tries
// the other kept candidates' in-place edits together as one more.
Minimized minimize_while(const Side& old_side, const Side& new_side, const WorkDir& dir,
                         const Input& start, const Observation& a, const Observation& b,
                         bool keep_nr_cpu_ids, const Keeps& keeps);

// A finding's input made smaller, keeping its signature (finding_signature()).
Minimized minimize(const Side& old_side, const Side& new_side, const WorkDir& dir,
                   const Input& start, const Observation& a, const Observation& b, FnLevel level,
                   bool keep_nr_cpu_ids);

}  // namespace diffsched::fn
