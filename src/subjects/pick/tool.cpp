// pick's part of the tools' descriptor functions (subject_tools.h): the
// bounds of the exhaustive check (kernel-check --exhaustive, mutate's
// survivors) and the function mutate changes.
#include <fmt/format.h>

#include "subject_tools.h"

namespace diffsched {

template <>
std::string equiv_bounds_error<pick::Subject>(const std::vector<unsigned>& b) {
  return b.size() == 1 && b[0] <= 6
             ? ""
             : fmt::format("--equiv-bounds for {} is N: CPUs, 1..6", pick::Subject::kName);
}

// One call over every dst/cpus/allowed mask triple of N CPUs.
template <>
std::uint64_t equiv_programs<pick::Subject>(const std::vector<unsigned>& b) {
  return b.size() == 1 ? std::uint64_t{1} << (3 * b[0]) : 0;
}

template <>
std::string equiv_bounds_text<pick::Subject>(const std::vector<unsigned>& b) {
  return fmt::format("{} programs of 1 pick, {} CPUs, every dst/cpus/allowed mask",
                     equiv_programs<pick::Subject>(b), b.at(0));
}

// The one function named by --function.
template <>
bool mutates_function<pick::Subject>(std::string_view name, std::string_view function) {
  return name == function;
}

template <>
std::string mutate_scope<pick::Subject>(std::string_view function) {
  return fmt::format("function {}() (--function)", function);
}

}  // namespace diffsched
