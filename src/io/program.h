// A .ops file: a subject, its configuration, an optional level, and ops.
//
//   # comment
//   subject cpudl        # or pick; inferred from the first op if absent
//   cpus 4               # nr_cpu_ids (default 8 for cpudl, 64 for pick)
//   level exact          # optional: the level this input is meant for
//   set 0 5
//   set 1 5
//
//   std::string error;
//   auto program = parse_program(text, &error);   // std::nullopt + error
//   std::string text2 = format_program(*program); // parses back to the same
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cpudl/lockstep.h"
#include "engine/verdict.h"
#include "pick/lockstep.h"

namespace diffsched::io {

template <class S>
struct Program {
  using Subject = S;
  typename S::Config config;
  std::optional<Level> level;
  std::vector<typename S::Op> ops;
};

using AnyProgram = std::variant<Program<cpudl::Subject>, Program<pick::Subject>>;

// Errors name the line: "line 3: 'set' takes 2 arguments, got 1".
std::optional<AnyProgram> parse_program(std::string_view text, std::string* error);

std::string format_program(const AnyProgram& program);

}  // namespace diffsched::io
