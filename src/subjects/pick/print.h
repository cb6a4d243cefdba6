// pick's trace printers: one op's lines for `diffsched replay` (io::TextTrace)
// and its JSON object (io::JsonTrace, `replay --json`). io/trace.h and
// io/json.h call them unqualified, so they are found here by argument-dependent
// lookup: io/ knows no subject.
#pragma once

#include <cstddef>
#include <cstdio>

#include <nlohmann/json_fwd.hpp>

#include "subjects/pick/lockstep.h"

namespace diffsched::pick {

void print_step(std::FILE* out, std::size_t index, const Op& op, const Lockstep& ls);
nlohmann::json step_json(std::size_t index, const Op& op, const Lockstep& ls);

}  // namespace diffsched::pick
