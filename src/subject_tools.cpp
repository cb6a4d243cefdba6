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

std::string check_equiv_bounds(const SubjectTool& tool, const std::vector<unsigned>& b) {
  std::string r;
  with_tool_subject(tool, [&]<class S>(std::type_identity<S>) { r = equiv_bounds_error<S>(b); });
  return r;
}

std::uint64_t exhaustive_programs(const SubjectTool& tool, const std::vector<unsigned>& b) {
  std::uint64_t r = 0;
  with_tool_subject(tool, [&]<class S>(std::type_identity<S>) { r = equiv_programs<S>(b); });
  return r;
}

std::string exhaustive_bounds_text(const SubjectTool& tool, const std::vector<unsigned>& b) {
  std::string r;
  with_tool_subject(tool, [&]<class S>(std::type_identity<S>) { r = equiv_bounds_text<S>(b); });
  return r;
}

bool mutates_function(const SubjectTool& tool, std::string_view name, std::string_view function) {
  bool r = false;
  with_tool_subject(tool,
                    [&]<class S>(std::type_identity<S>) { r = mutates_function<S>(name, function); });
  return r;
}

std::string mutate_scope(const SubjectTool& tool, std::string_view function) {
  std::string r;
  with_tool_subject(tool, [&]<class S>(std::type_identity<S>) { r = mutate_scope<S>(function); });
  return r;
}

}  // namespace diffsched
