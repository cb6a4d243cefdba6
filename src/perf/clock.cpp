#include "perf/clock.h"

namespace diffsched::perf {

ClockResult summarise_clock(const std::vector<double>& ref, const std::vector<double>& side) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < ref.size(); ++i) ratios.push_back(side[i] / ref[i]);
  return {tools::summarize(ref), tools::summarize(side), tools::summarize(ratios)};
}

}  // namespace diffsched::perf
