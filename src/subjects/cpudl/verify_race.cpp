// race_bounded() (race_bounded.h): the lockless-reader analysis over every
// program within verify's bounds.
#include <deque>
#include <string>
#include <unordered_set>

#include <fmt/format.h>

#include "subjects/cpudl/model.h"
#include "subjects/cpudl/race_bounded.h"

namespace diffsched::cpudl::race {

namespace {

struct Node {
  std::size_t parent;
  std::size_t op;  // index into the op list
  unsigned depth;
};

std::vector<Op> path_of(const std::vector<Node>& nodes, std::size_t n, const std::vector<Op>& ops) {
  std::vector<Op> path;
  for (; n != 0; n = nodes[n].parent) path.push_back(ops[nodes[n].op]);
  return {path.rbegin(), path.rend()};
}

// The state both sides hold, canonical as verify_bfs.h's: per side the size,
// the slots 0..max(size,1)-1 and the free word (cpus <= 12: one word).
std::string encode(const std::vector<Side*>& sides) {
  std::string key;
  for (Side* s : sides) {
    const HeapView v = s->view();
    key.append(reinterpret_cast<const char*>(&v.size), sizeof v.size);
    for (int i = 0; i < std::max(v.size, 1); ++i) {
      key.append(reinterpret_cast<const char*>(&v.elements[i].cpu), sizeof(int));
      key.append(reinterpret_cast<const char*>(&v.elements[i].dl), sizeof(u64));
    }
    key.append(reinterpret_cast<const char*>(&v.free_cpus->bits[0]), sizeof(unsigned long));
  }
  return key;
}

void add_totals(std::vector<SideRace>& totals, const std::vector<SideRace>& step) {
  for (std::size_t s = 0; s < step.size(); ++s) {
    for (std::size_t c = 0; c < kClassCount; ++c) {
      totals[s].counts[c] += step[s].counts[c];
      for (std::size_t k = 0; k < std::variant_size_v<Op>; ++k)
        if (!totals[s].first[c][k] && step[s].first[c][k]) totals[s].first[c][k] = step[s].first[c][k];
    }
    totals[s].ops += step[s].ops;
    totals[s].stores += step[s].stores;
    totals[s].readers += step[s].readers;
  }
}

bool step_differs(const std::vector<SideRace>& step) {
  for (std::size_t c = kStale; c < kClassCount; ++c)
    for (std::size_t k = 0; k < std::variant_size_v<Op>; ++k)
      for (std::size_t s = 1; s < step.size(); ++s)
        if (step[s].first[c][k] && !step[0].first[c][k]) return true;
  return false;
}

}  // namespace

std::vector<Task> bounded_tasks(const RaceBounds& b) {
  verify::CpudlBounds vb;
  vb.cpus = b.cpus;
  vb.deadlines = b.deadlines;
  vb.domain = b.domain;
  std::vector<Task> tasks;
  for (u64 dl : verify::task_deadlines(vb))
    for (unsigned m = 1; m < (1u << b.cpus); ++m)
      for (bool with_mask : {true, false}) {
        Task t{dl, Cpumask{}, with_mask};
        t.affinity.bits[0] = m;
        tasks.push_back(t);
      }
  return tasks;
}

RaceBoundedResult race_bounded(const RaceBounds& b, const std::vector<Side*>& sides) {
  RaceBoundedResult r;
  if (b.cpus < 1 || b.cpus > verify::CpudlBounds::kMaxCpus || b.deadlines < 1 ||
      b.deadlines > verify::CpudlBounds::kMaxDeadlines || b.max_ops < 1 || b.max_ops > 16) {
    r.error = fmt::format("--cpus must be in 1..{}, --deadlines in 1..{} and --max-ops in 1..16",
                          verify::CpudlBounds::kMaxCpus, verify::CpudlBounds::kMaxDeadlines);
    return r;
  }
  verify::CpudlBounds vb;
  vb.cpus = b.cpus;
  vb.deadlines = b.deadlines;
  vb.domain = b.domain;
  Config config;
  config.nr_cpu_ids = b.cpus;
  kernel::NrCpuIdsScope scope(b.cpus);
  std::vector<Op> ops;
  for (const Op& op : verify::cpudl_ops(vb))
    if (std::visit([](const auto& o) { return UpdateOp<std::decay_t<decltype(o)>>; }, op))
      ops.push_back(op);
  const std::vector<Task> tasks = bounded_tasks(b);
  r.tasks = tasks.size();
  r.totals.resize(sides.size());
  for (std::size_t s = 0; s < sides.size(); ++s) r.totals[s].name = std::string(sides[s]->name());

  std::vector<Node> nodes{{0, 0, 0}};
  std::unordered_set<std::string> seen;
  Model model;
  const auto replay = [&](std::size_t n) {
    for (Side* s : sides) s->reset(b.cpus);
    model.reset(b.cpus);
    for (const Op& op : path_of(nodes, n, ops)) {
      model.apply(op);
      for (Side* s : sides) s->apply(op, nullptr);
    }
  };
  replay(0);
  seen.insert(encode(sides));
  r.states_by_depth.push_back(1);
  std::string why;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].depth >= b.max_ops) break;  // breadth-first: every later node is as deep
    for (std::size_t o = 0; o < ops.size(); ++o) {
      replay(n);
      if (!model.permits(ops[o], &why)) continue;
      if (b.same_state)
        for (std::size_t s = 1; s < sides.size(); ++s) sides[s]->restore(sides[0]->view());
      std::vector<SideRace> step(sides.size());
      if (!analyze_step(ops[o], nodes[n].depth, tasks, sides, step, &r.error)) return r;
      ++r.transitions;
      add_totals(r.totals, step);
      if (step_differs(step)) {
        ++r.step_differences;
        std::vector<Op> program = path_of(nodes, n, ops);
        program.push_back(ops[o]);
        if (b.same_state) {  // the step is the finding
          r.replay.sides = step;
          compare_sides(r.replay);
          r.program = std::move(program);
          r.states = seen.size();
          return r;
        }
        RaceResult whole = analyze_race(config, program, sides, &tasks);
        if (!whole.error.empty()) {
          r.error = whole.error;
          return r;
        }
        if (!whole.findings.empty()) {
          r.program = std::move(program);
          r.replay = std::move(whole);
          r.states = seen.size();
          return r;
        }
        replay(n);
        model.permits(ops[o], &why);
        for (Side* s : sides) s->apply(ops[o], nullptr);
      }
      if (seen.insert(encode(sides)).second) {
        nodes.push_back({n, o, nodes[n].depth + 1});
        if (r.states_by_depth.size() <= nodes.back().depth) r.states_by_depth.push_back(0);
        ++r.states_by_depth[nodes.back().depth];
      }
    }
  }
  r.states = seen.size();
  return r;
}

}  // namespace diffsched::cpudl::race
