// diffsched fn: a finding's input made smaller (minimize_run.h).
#include "fn/minimize_run.h"

#include <string>
#include <vector>

namespace diffsched::fn {

namespace fs = std::filesystem;

// Greedy: each round runs every smaller neighbour of the input on both sides
// (one batch each) and keeps the first on which `keeps` holds.
Minimized minimize_while(const Side& old_side, const Side& new_side, const WorkDir& dir,
                         const Input& start, const Observation& a, const Observation& b,
                         bool keep_nr_cpu_ids, const Keeps& keeps) {
  const Layout& layout = old_side.layout;
  Minimized m{start, a, b};
  const fs::path batch = dir.shrink();
  for (int round = 0; round < kMaxShrinkRounds; ++round) {
    const std::vector<Input> next = shrink_candidates(layout, m.input, keep_nr_cpu_ids);
    std::vector<Observation> x, y;
    std::string error;
    if (next.empty() || !write_batch(batch.string(), next) ||
        !run_side(old_side, batch, next.size(), &x, &error) ||
        !run_side(new_side, batch, next.size(), &y, &error))
      break;
    m.tried += next.size();
    std::size_t c = 0;
    while (c < next.size() && !(x[c].run && y[c].run && keeps(x[c], y[c]))) ++c;
    if (c == next.size()) break;
    const Input before = m.input;
    m.input = next[c];
    m.old_obs = x[c];
    m.new_obs = y[c];
    ++m.rounds;
    // Every other candidate that kept the finding and only changed values in
    // place (the same stream length and nr_cpu_ids) is an edit independent
    // of the stream's shape: all of them at once, tried as one more
    // candidate, save a round each when they still keep it together (a big
    // struct's fields each moved to 0 in one round instead of one a round).
    const Input& base = m.input;
    Input merged = base;
    std::size_t edits = 0;
    auto in_place = [&](const Input& in) {
      return in.nr_cpu_ids == before.nr_cpu_ids && in.values.size() == before.values.size();
    };
    for (std::size_t k = c + 1; in_place(base) && k < next.size(); ++k) {
      if (!(x[k].run && y[k].run) || !in_place(next[k]) || !keeps(x[k], y[k])) continue;
      bool took = false;  // k's edit: where it differs from the input both came from,
      for (std::size_t i = 0; i < before.values.size(); ++i)  // at words no edit taken changed
        if (next[k].values[i] != before.values[i] && merged.values[i] == before.values[i]) {
          merged.values[i] = next[k].values[i];
          took = true;
        }
      edits += took;
    }
    std::vector<Observation> mx, my;
    if (edits == 0 || !in_domain(layout, merged) || !write_batch(batch.string(), {merged}) ||
        !run_side(old_side, batch, 1, &mx, &error) || !run_side(new_side, batch, 1, &my, &error))
      continue;
    ++m.tried;
    if (mx[0].run && my[0].run && keeps(mx[0], my[0])) {
      m.input = merged;
      m.old_obs = mx[0];
      m.new_obs = my[0];
    }
  }
  return m;
}

// A finding's input made smaller, keeping its signature.
Minimized minimize(const Side& old_side, const Side& new_side, const WorkDir& dir,
                   const Input& start, const Observation& a, const Observation& b, FnLevel level,
                   bool keep_nr_cpu_ids) {
  const std::string signature = finding_signature(old_side.layout, a, b, level);
  if (signature.empty()) return Minimized{start, a, b};
  return minimize_while(old_side, new_side, dir, start, a, b, keep_nr_cpu_ids,
                        [&](const Observation& x, const Observation& y) {
                          return finding_signature(old_side.layout, x, y, level) == signature;
                        });
}

}  // namespace diffsched::fn
