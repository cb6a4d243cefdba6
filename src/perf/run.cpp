#include "perf/run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "io/program.h"
#include "perf/clock.h"
#include "perf/search.h"
#include "util/text.h"

namespace diffsched::perf {

namespace fs = std::filesystem;

std::vector<std::size_t> sides_of(const SubjectTool& subject, const std::string& side) {
  const auto names = side_names(subject);
  std::vector<std::size_t> out;
  for (std::size_t i = 1; i < names.size(); ++i)
    if (side == "all" || side == names[i]) out.push_back(i);
  return out;
}

std::string replay_command(const std::string& self, const SubjectTool& subject, Metric metric,
                           const std::string& file) {
  return fmt::format("{} perf {} --metric {} --replay {}", self, subject.name, metric_name(metric),
                     util::shell_path(file));
}

std::optional<Report> run(const PerfSettings& o, std::string* error) {
  std::optional<Report> report;
  with_tool_subject(*o.subject,
                    [&]<class S>(std::type_identity<S>) { report = run_subject<S>(o, error); });
  return report;
}

}  // namespace diffsched::perf
