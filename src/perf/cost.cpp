// The metrics (perf/cost.h): one vocabulary of counts, each subject naming
// the ones it counts (its descriptor's perf_metrics).
#include "perf/cost.h"

#include <array>
#include <string>

namespace diffsched::perf {

namespace {

struct MetricInfo {
  Metric metric;
  std::string_view name;
};

constexpr std::array<MetricInfo, 7> kMetrics{{
    {Metric::kAccesses, "accesses"},
    {Metric::kLoads, "loads"},
    {Metric::kStores, "stores"},
    {Metric::kCompares, "compares"},
    {Metric::kWork, "work"},
    {Metric::kWords, "words"},
    {Metric::kIterations, "iterations"},
}};

bool counts(const SubjectTool& subject, std::string_view name) {
  for (std::string_view m : subject.perf_metrics)
    if (m == name) return true;
  return false;
}

}  // namespace

std::string_view metric_name(Metric m) {
  for (const MetricInfo& i : kMetrics)
    if (i.metric == m) return i.name;
  return "?";
}

std::optional<Metric> parse_metric(const SubjectTool& subject, std::string_view name) {
  for (const MetricInfo& i : kMetrics)
    if (i.name == name && counts(subject, name)) return i.metric;
  return std::nullopt;
}

Metric default_metric(const SubjectTool& subject) {
  return parse_metric(subject, subject.perf_metric).value_or(Metric::kAccesses);
}

std::string metric_names(const SubjectTool& subject) {
  std::string out;
  for (std::string_view m : subject.perf_metrics) {
    if (!out.empty()) out += ", ";
    out += m;
  }
  return out;
}

u64 metric_value(Metric m, const Counts& c) {
  switch (m) {
    case Metric::kAccesses: return c.loads + c.stores + c.compares;
    case Metric::kLoads: return c.loads;
    case Metric::kStores: return c.stores;
    case Metric::kCompares: return c.compares;
    case Metric::kWork: return c.words + c.iterations;
    case Metric::kWords: return c.words;
    case Metric::kIterations: return c.iterations;
  }
  return 0;
}

std::span<const std::string_view> side_names(const SubjectTool& subject) {
  return subject.perf_sides;
}

}  // namespace diffsched::perf
