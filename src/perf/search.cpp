#include "perf/search.h"

namespace diffsched::perf {

std::size_t default_max_ops(const SubjectTool& subject) { return subject.perf_max_ops; }

double score_of(const SearchOptions& o, const Evaluation& e) {
  if (e.verdict.finding) return 0.0;
  const double r = ratio(e.cost(o.metric, o.side), e.cost(o.metric, 0));
  return o.worst ? r : 1.0 / r;
}

}  // namespace diffsched::perf
