// diffsched fn --search-worst: the hill climb of worst.h.
#include "fn/worst.h"

#include <random>

#include <fmt/format.h>

#include "fn/minimize.h"

namespace diffsched::fn {

namespace {

// The metric's count of an observation the search may score.
bool count(const Observation& o, const std::string& key, std::uint64_t* n) {
  return cost_count(o, key, n);
}

// The metric searched: the one a limit is given for (memory operations
// first), else callback calls if any input made one, else memory operations.
std::string metric_of(const FnOptions& o, const std::vector<Observation>& b) {
  if (o.max_mem_ratio > 0) return "mem";
  if (o.max_cost_ratio > 0) return "cost";
  for (const Observation& x : b)
    if (std::uint64_t n = 0; count(x, "cost", &n) && n > 0) return "cost";
  return "mem";
}

double ratio(std::uint64_t p, std::uint64_t q) {
  return static_cast<double>(q) / static_cast<double>(p ? p : 1);
}

}  // namespace

bool search_worst(const FnOptions& o, const Side& old_side, const Side& new_side,
                  const WorkDir& work, FnLevel level, std::vector<Input>* inputs,
                  std::vector<Observation>* a, std::vector<Observation>* b, WorstSearch* s,
                  std::string* error) {
  const Layout& layout = old_side.layout;
  s->metric = metric_of(o, *b);
  long best = -1;
  for (std::size_t k = 0; k < inputs->size(); ++k) {
    const Observation &x = (*a)[k], &y = (*b)[k];
    if (!x.run || !y.run) break;
    if (x.fault || y.fault || !equal_at(layout, x, y, level, true)) return true;  // a finding already
    std::uint64_t p = 0, q = 0;
    if (!count(x, s->metric, &p) || !count(y, s->metric, &q)) continue;
    if (best < 0 || larger_ratio(p, q, s->from_old, s->from_new)) {
      best = static_cast<long>(k);
      s->from_old = p;
      s->from_new = q;
    }
  }
  if (best < 0) return true;
  s->run = true;
  s->to_old = s->from_old;
  s->to_new = s->from_new;
  Input at = (*inputs)[static_cast<std::size_t>(best)];
  Observation at_a, at_b;
  std::mt19937_64 rng(o.seed * 0x9e3779b97f4a7c15ULL + 1);
  const std::filesystem::path batch = work.search();
  for (std::size_t stale = 0; s->rounds < o.search_worst && stale < kPlateauRounds; ++s->rounds) {
    const std::vector<Input> next = grow_candidates(layout, at, rng, kGrowCandidates);
    if (next.empty()) break;
    std::vector<Observation> x, y;
    if (!write_batch(batch.string(), next)) {
      *error = "cannot write the search's batch file";
      return false;
    }
    if (!run_side(old_side, batch, next.size(), &x, error) ||
        !run_side(new_side, batch, next.size(), &y, error))
      return false;
    long gain = -1;
    for (std::size_t c = 0; c < next.size(); ++c) {
      if (!x[c].run || !y[c].run) break;
      ++s->tried;
      if (x[c].fault || y[c].fault || !equal_at(layout, x[c], y[c], level, true)) {
        inputs->push_back(next[c]);  // behaviour, not cost: the report judges it
        a->push_back(x[c]);
        b->push_back(y[c]);
        s->index = static_cast<long>(inputs->size() - 1);
        s->behavioural = true;
        ++s->rounds;
        return true;
      }
      std::uint64_t p = 0, q = 0;
      if (count(x[c], s->metric, &p) && count(y[c], s->metric, &q) &&
          larger_ratio(p, q, s->to_old, s->to_new)) {
        gain = static_cast<long>(c);
        s->to_old = p;
        s->to_new = q;
      }
    }
    stale = gain < 0 ? stale + 1 : 0;
    if (gain >= 0) {
      at = next[static_cast<std::size_t>(gain)];
      at_a = x[static_cast<std::size_t>(gain)];
      at_b = y[static_cast<std::size_t>(gain)];
    }
  }
  if (larger_ratio(s->to_old, s->to_new, s->from_old, s->from_new)) {
    inputs->push_back(at);
    a->push_back(at_a);
    b->push_back(at_b);
    s->index = static_cast<long>(inputs->size() - 1);
  }
  return true;
}

std::string search_text(const FnOptions& o, const WorstSearch& s, nlohmann::json* j) {
  if (o.search_worst == 0) return "";
  const char* what = s.metric == "cost" ? "callback calls" : "memory operations";
  if (!s.run) {
    (*j)["search"] = {{"run", false}};
    return "search-worst: not run (no generated input both sides ran alike, or a finding already)\n";
  }
  (*j)["search"] = {{"run", true}, {"metric", s.metric}, {"rounds", s.rounds}, {"tried", s.tried},
                    {"from", {{"old", s.from_old}, {"new", s.from_new}}},
                    {"to", {{"old", s.to_old}, {"new", s.to_new}}}, {"input", s.index},
                    {"behavioural", s.behavioural}};
  if (s.behavioural)
    return fmt::format("search-worst ({}): {} rounds, {} inputs run: input {} makes the sides differ "
                       "(appended; judged below)\n",
                       what, s.rounds, s.tried, s.index);
  const std::string where = s.index >= 0 ? fmt::format("input {}, appended", s.index)
                                         : std::string("no input beat the generated ones");
  return fmt::format("search-worst ({}): {} rounds, {} inputs run: the largest new/old {:.2f}x "
                     "(old {}, new {}), from {:.2f}x (old {}, new {}) among the generated inputs; {}\n",
                     what, s.rounds, s.tried, ratio(s.to_old, s.to_new), s.to_old, s.to_new,
                     ratio(s.from_old, s.from_new), s.from_old, s.from_new, where);
}

}  // namespace diffsched::fn
