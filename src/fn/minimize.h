// diffsched fn: one call's input as a tree of values, made smaller while a
// finding keeps its signature, and written and read as one line of text
// (docs/input-format.md "fn: one call").
//
//   std::vector<Input> c = shrink_candidates(layout, input);  // each smaller, all in the domain
//   std::string sig = finding_signature(layout, old_obs, new_obs, level);
//   std::string line = show_input(layout, input);              // model.h
//   Input back; parse_input(layout, line, &back, &error);       // the same input
//
// A candidate is the input with one thing made smaller, in this order:
// nr_cpu_ids lowered (masks keep their bits below it), an array shortened
// (the last element dropped, the first, the second half), a mask emptied or
// with bits cleared, a scalar moved towards 0 (or its domain's end nearest
// 0). Candidates outside the layout's domain (a scalar outside its type or
// the spec's range, an array length outside its range, nested masks that
// stop nesting, a heap that stops being one) are never returned: a
// minimised finding is one the generator could have drawn.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "fn/check.h"
#include "fn/model.h"

namespace diffsched::fn {

// At most this many candidates per round: every place's first edits (the
// nearest to the goal first), then the scalars' finer steps.
constexpr std::size_t kMaxShrinkCandidates = 256;

// keep_nr_cpu_ids: never lower nr_cpu_ids (the user fixed it, --nr-cpus).
std::vector<Input> shrink_candidates(const Layout& layout, const Input& input, bool keep_nr_cpu_ids = false);

// The other way (`--search-worst`): up to `max` neighbours of the input,
// each in the domain and none twice, with one or two edits drawn from the
// rng: an array longer (an element's copy appended, its contents repeated)
// or harder (every key equal, sorted either way, reversed), a scalar at its
// domain's ends, doubled, one off or drawn anew, a mask full or with a bit
// more. nr_cpu_ids is kept.
std::vector<Input> grow_candidates(const Layout& layout, const Input& input, std::mt19937_64& rng,
                                   std::size_t max);

// Whether `input` is one the generator could have drawn: its stream has the
// layout's shape, and every value is within its type and the spec.
bool in_domain(const Layout& layout, const Input& input);

// What a finding is, for minimisation: "fault:old:AddressSanitizer:
// heap-buffer-overflow", "fault:both", or "differs:ROW" with ROW the first
// observation that differs at the level ("return", "*env", a global,
// "WARN_ON"), never one the spec declares intended. "" when the two
// observations agree at the level.
std::string finding_signature(const Layout& layout, const Observation& old_side,
                              const Observation& new_side, FnLevel level);

// Reads show_input()'s line back. false with *error one line naming the
// slot and what was expected, and *outside true when the line parses but a
// value is outside its domain (exit 3, not 2); the result is in the domain.
bool parse_input(const Layout& layout, const std::string& text, Input* input, std::string* error,
                 bool* outside = nullptr);

}  // namespace diffsched::fn
