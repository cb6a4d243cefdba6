// cpudl's part of the tools' descriptor functions (subject_tools.h): the
// bounds of the exhaustive check (kernel-check --exhaustive, mutate's
// survivors) and the functions mutate changes.
#include <fmt/format.h>

#include "subject_tools.h"

namespace diffsched {

namespace {

// The deadlines the exhaustive check draws from, in order: the wrap's ends
// first (kshim/harness/harness_exhaustive.cpp has the values).
constexpr std::string_view kExhaustiveDeadlineNames[] = {"0", "1", "2^64-1", "2", "2^63"};

}  // namespace

template <>
std::string equiv_bounds_error<cpudl::Subject>(const std::vector<unsigned>& b) {
  return b.size() == 3 && b[1] <= 5
             ? ""
             : "--equiv-bounds for cpudl is N D K: CPUs 1..8, deadlines 1..5, ops 1..8";
}

// K ops, each a set (D deadlines), clear, set/clear_freecpu of one of N CPUs,
// or a find (D deadlines, every non-empty affinity).
template <>
std::uint64_t equiv_programs<cpudl::Subject>(const std::vector<unsigned>& b) {
  if (b.size() != 3) return 0;
  const std::uint64_t n = b[0], d = b[1], choices = n * (d + 3) + d * ((1u << n) - 1);
  std::uint64_t p = 1;
  for (unsigned i = 0; i < b[2]; ++i) p *= choices;
  return p;
}

template <>
std::string equiv_bounds_text<cpudl::Subject>(const std::vector<unsigned>& b) {
  std::string dls;
  for (unsigned i = 0; i < b.at(1) && i < std::size(kExhaustiveDeadlineNames); ++i)
    dls += (dls.empty() ? "" : ", ") + std::string(kExhaustiveDeadlineNames[i]);
  return fmt::format("{} programs of <= {} ops, {} CPUs, {} deadlines ({})",
                     equiv_programs<cpudl::Subject>(b), b.at(2), b.at(0), b.at(1), dls);
}

// Every function of the file named with the descriptor's prefix (cpudl_*).
template <>
bool mutates_function<cpudl::Subject>(std::string_view name, std::string_view) {
  return name.starts_with(tool_of<cpudl::Subject>().mutate_prefix);
}

template <>
std::string mutate_scope<cpudl::Subject>(std::string_view) {
  return fmt::format("{}* function", tool_of<cpudl::Subject>().mutate_prefix);
}

}  // namespace diffsched
