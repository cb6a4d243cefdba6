// diffsched fn --exhaustive: every input within small bounds instead of
// random ones (docs/fn.md "Bounded exhaustive run").
//
//   Bounds b;                                   // nr_cpu_ids 1..4, -2..3, arrays <= 2
//   std::string why;
//   if (!parse_int_range("-2..3", &b, &why)) fail(why);          // exit 2
//   Count c = exhaustive_count(layout, b);      // exact, before anything runs
//   if (c.saturated || c.total > b.max_inputs) refuse(c);         // exit 2
//   std::vector<Input> all = exhaustive_inputs(layout, b);        // c.total of them
//
// The order: nr_cpu_ids ascending (1..max_nr_cpus, or only --nr-cpus), then
// the slots of the value stream (model.h) as an odometer, the last slot
// fastest. Within a slot: a scalar ascending over its domain (its type's
// range within the spec's, within the int range; when they do not meet, the
// spec domain's end nearest to the int range); a mask by its value as a
// number (0, {0}, {1}, {0-1}, ...); a struct field by field, the last
// fastest; an array by length ascending (its spec's range within
// 0..max_array_len), then its elements as an odometer; `nested` arrays of
// masks only where each mask holds the one before, `heap` arrays only where
// the elements after the first are a min-heap of their keys.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fn/model.h"

namespace diffsched::fn {

struct Bounds {
  unsigned max_nr_cpus = 4;   // masks at nr_cpu_ids 1..this
  unsigned only_nr_cpus = 0;  // > 0 (--nr-cpus): at this nr_cpu_ids only
  std::int64_t int_lo = -2, int_hi = 3;
  std::int64_t max_array_len = 2;
  std::uint64_t max_inputs = 1000000;
};

// Parses "LO..HI" (LO <= HI, each a 64-bit integer) into b; false with
// *error one line.
bool parse_int_range(const std::string& text, Bounds* b, std::string* error);

struct Count {
  unsigned __int128 total = 0;
  bool saturated = false;  // above 2^100: too many to say
  std::string text() const;  // "4680", or "more than 2^100"
};

// The exact number of inputs exhaustive_inputs() makes.
Count exhaustive_count(const Layout& layout, const Bounds& b);

// Every input within the bounds, in the order above. Call only when the
// count is at most b.max_inputs.
std::vector<Input> exhaustive_inputs(const Layout& layout, const Bounds& b);

// "nr_cpu_ids 1..4, integers -2..3, array lengths 0..2": one line.
std::string bounds_text(const Bounds& b);
nlohmann::json bounds_json(const Bounds& b);

// The refusal when the count is above b.max_inputs: one line naming the
// count and the flag whose lowering by one step shrinks it most.
std::string too_many_line(const Layout& layout, const Bounds& b, const Count& c);

}  // namespace diffsched::fn
