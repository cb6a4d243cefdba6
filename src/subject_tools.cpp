#include "subject_tools.h"

#include <fmt/format.h>

namespace diffsched {

const SubjectTool* find_subject_tool(std::string_view name) {
  for (const SubjectTool* t : kSubjectTools)
    if (t->name == name) return t;
  return nullptr;
}

std::string subject_tool_names() {
  std::string out;
  for (const SubjectTool* t : kSubjectTools) out += (out.empty() ? "" : ", ") + std::string(t->name);
  return out;
}

std::vector<std::string_view> subject_tool_words() {
  std::vector<std::string_view> out;
  for (const SubjectTool* t : kSubjectTools) out.push_back(t->name);
  return out;
}

const FuzzTarget* lockstep_target(const SubjectTool& tool, Level level) {
  const FuzzTarget* fallback = nullptr;
  for (const FuzzTarget& t : kFuzzTargets) {
    if (t.subject != tool.name) continue;
    if (t.level == level) return &t;
    if (fallback == nullptr && t.level == tool.default_level) fallback = &t;
  }
  return fallback;
}

namespace {

// The deadlines the exhaustive check draws from, in order: the wrap's ends
// first (kshim/harness/harness_exhaustive.cpp has the values).
constexpr std::string_view kExhaustiveDeadlineNames[] = {"0", "1", "2^64-1", "2", "2^63"};

}  // namespace

std::string check_equiv_bounds(const SubjectTool& tool, const std::vector<unsigned>& b) {
  if (tool.shape == CandidateShape::kFunction)
    return b.size() == 1 && b[0] <= 6 ? "" : "--equiv-bounds for pick is N: CPUs, 1..6";
  return b.size() == 3 && b[1] <= 5
             ? ""
             : "--equiv-bounds for cpudl is N D K: CPUs 1..8, deadlines 1..5, ops 1..8";
}

std::uint64_t exhaustive_programs(const SubjectTool& tool, const std::vector<unsigned>& b) {
  // A pick: one call over every dst/cpus/allowed mask triple of N CPUs.
  if (tool.shape == CandidateShape::kFunction)
    return b.size() == 1 ? std::uint64_t{1} << (3 * b[0]) : 0;
  // cpudl: K ops, each a set (D deadlines), clear, set/clear_freecpu of one
  // of N CPUs, or a find (D deadlines, every non-empty affinity).
  if (b.size() != 3) return 0;
  const std::uint64_t n = b[0], d = b[1], choices = n * (d + 3) + d * ((1u << n) - 1);
  std::uint64_t p = 1;
  for (unsigned i = 0; i < b[2]; ++i) p *= choices;
  return p;
}

std::string exhaustive_bounds_text(const SubjectTool& tool, const std::vector<unsigned>& b) {
  if (tool.shape == CandidateShape::kFunction)
    return fmt::format("{} programs of 1 pick, {} CPUs, every dst/cpus/allowed mask",
                       exhaustive_programs(tool, b), b.at(0));
  std::string dls;
  for (unsigned i = 0; i < b.at(1) && i < std::size(kExhaustiveDeadlineNames); ++i)
    dls += (dls.empty() ? "" : ", ") + std::string(kExhaustiveDeadlineNames[i]);
  return fmt::format("{} programs of <= {} ops, {} CPUs, {} deadlines ({})",
                     exhaustive_programs(tool, b), b.at(2), b.at(0), b.at(1), dls);
}

}  // namespace diffsched
