// diffsched fn --search-worst R: beyond the generated inputs, a search for
// the input on which new costs the largest multiple of old (docs/fn.md,
// "Cost"). Hill climbing from the generated input of the largest ratio:
// each round runs up to kGrowCandidates of its growing neighbours
// (minimize.h, grow_candidates) on both sides, one batch each, and moves to
// the one of the largest ratio if it beats the current; it stops after R
// rounds or kPlateauRounds rounds without a gain. Only inputs on which the
// sides agree at the level and neither faults are scored; a candidate on
// which they do not is a behavioural finding, kept and the search ended.
// The inputs it keeps (the best, or that finding) are appended to the run's
// inputs, so the report compares, costs and minimises them like the rest.
//
//   WorstSearch s;
//   if (!search_worst(o, old_side, new_side, work, level, &inputs, &a, &b, &s, &error)) ...
//   text += search_text(s, &j);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fn/check.h"
#include "fn/sides.h"
#include "fn/workdir.h"

namespace diffsched::fn {

constexpr std::size_t kGrowCandidates = 64;
constexpr std::size_t kPlateauRounds = 4;

// q_new/q_old > p_new/p_old, without dividing (an old count of 0 counts as 1).
inline bool larger_ratio(std::uint64_t q_old, std::uint64_t q_new, std::uint64_t p_old,
                         std::uint64_t p_new) {
  const auto one = [](std::uint64_t x) { return static_cast<unsigned __int128>(x ? x : 1); };
  return static_cast<unsigned __int128>(q_new) * one(p_old) > static_cast<unsigned __int128>(p_new) * one(q_old);
}

struct WorstSearch {
  bool run = false;
  std::string metric;      // "cost" (callback calls) or "mem" (memory operations)
  std::size_t rounds = 0;  // rounds run
  std::size_t tried = 0;   // candidate inputs run on both sides
  std::uint64_t from_old = 0, from_new = 0;  // the generated inputs' largest ratio
  std::uint64_t to_old = 0, to_new = 0;      // the search's
  long index = -1;         // the input it appended (its index in the run), -1: none
  bool behavioural = false;  // that input is a behavioural finding, not a cost
};

// Runs the search on the first `compared` inputs' observations; false with
// *error only if a side cannot run. Nothing to search (no input scored, a
// finding among the generated inputs) is not an error: s->run stays false.
bool search_worst(const FnOptions& o, const Side& old_side, const Side& new_side,
                  const WorkDir& work, FnLevel level, std::vector<Input>* inputs,
                  std::vector<Observation>* a, std::vector<Observation>* b, WorstSearch* s,
                  std::string* error);

// "search-worst (memory operations): ..." and the JSON's "search"; "" when
// it did not run.
std::string search_text(const FnOptions& o, const WorstSearch& s, nlohmann::json* j);

}  // namespace diffsched::fn
