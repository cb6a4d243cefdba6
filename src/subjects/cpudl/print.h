// cpudl's trace printers: one op's lines for `diffsched replay` (io::TextTrace)
// and its JSON object (io::JsonTrace, `replay --json`). io/trace.h and
// io/json.h call them unqualified, so they are found here by argument-dependent
// lookup: io/ knows no subject.
#pragma once

#include <cstddef>
#include <cstdio>

#include <nlohmann/json_fwd.hpp>

#include "subjects/cpudl/lockstep.h"

namespace diffsched::cpudl {

void print_step(std::FILE* out, std::size_t index, const Op& op, const Lockstep& ls);
nlohmann::json step_json(std::size_t index, const Op& op, const Lockstep& ls);

// The heaps of every side drawn as trees, each beside the reference's, with
// slots that differ from the reference marked "*" (`replay --trees`).
void print_trees(std::FILE* out, const Lockstep& ls);

}  // namespace diffsched::cpudl
