// A .ops file: a subject, its configuration, an optional level, and ops.
//
//   # comment
//   subject cpudl        # cpudl, pick or cpumask; inferred from the first op if absent
//   cpus 4               # nr_cpu_ids (default: the subject's kDefaultCpus)
//   level exact          # optional: the level this input is meant for
//   # expect: exact cpudl:divergence:exact:slot.cpu:set   (regressions, see below)
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

#include "engine/verdict.h"
#include "subjects.h"

namespace diffsched::io {

// "# expect: exact cpudl:divergence:exact:slot.cpu:set" or
// "# expect: deadline equivalent": the verdict a regression input must keep.
struct Expectation {
  Level level;
  std::string verdict;  // "equivalent" or a finding signature
};

template <class S>
struct Program {
  using Subject = S;
  typename S::Config config;
  std::optional<Level> level;
  std::vector<typename S::Op> ops;
  std::vector<Expectation> expectations;  // text form only
};

template <class Tuple>
struct ProgramVariant;
template <class... S>
struct ProgramVariant<std::tuple<S...>> {
  using type = std::variant<Program<S>...>;
};
using AnyProgram = ProgramVariant<Subjects>::type;

std::string_view subject_name(const AnyProgram& program);

// Errors name the line: "line 3: 'set' takes 2 arguments, got 1".
std::optional<AnyProgram> parse_program(std::string_view text, std::string* error);

std::string format_program(const AnyProgram& program);

}  // namespace diffsched::io
