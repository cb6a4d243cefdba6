// `diffsched race cpudl --exhaustive`: the lockless-reader analysis (race.h)
// over every program within verify's bounds (verify_bfs.h).
//
//   RaceBounds b{.cpus = 3, .deadlines = 2, .max_ops = 4};
//   RaceBoundedResult r = race_bounded(b, {ref.get(), opt.get()});
//   if (r.program) ...   // a shortest program with a class only a non-reference side reaches
//
// Breadth-first over the states both heap sides (and the model, for the
// callers' contract) reach from cpudl_init() with at most max_ops update ops
// of verify's op set (cpudl_ops(): every CPU, every heap deadline of the
// domain); each state is expanded once, restored by replaying its shortest
// path. At every (state, op) pair each side's reader answers are classified
// for the tasks of bounded_tasks(): every task deadline of verify's domain
// (one below the heap deadlines .. one above) and every affinity mask over
// the CPUs, with and without later_mask. A step where a non-reference side
// reaches a class the reference does not reach from the same state is a step
// difference; its program (the shortest path plus the op) is analysed whole
// with the same tasks, and the first whose whole-program analysis has a
// finding ends the search: by breadth-first order no shorter program has one.
// With same_state, each step starts every side from the reference's state.
// If no step differs, then within the bounds the reference's reader can see
// every class the others' can, at the same op from the same state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "subjects/cpudl/race.h"
#include "subjects/cpudl/verify_bfs.h"

namespace diffsched::cpudl::race {

struct RaceBounds {
  unsigned cpus = 3;       // 1..verify::CpudlBounds::kMaxCpus
  unsigned deadlines = 2;  // 1..kMaxDeadlines
  verify::Domain domain = verify::Domain::kWindow;
  unsigned max_ops = 4;    // program length bound (BFS depth), 1..16
  // Every side starts each step from the reference's state (Side::restore),
  // so only the heapify's stores differ, not the layout the sides reached
  // (the hole heap orders equal deadlines differently). A step difference is
  // then itself the finding: the op, from the state the program leaves the
  // reference in.
  bool same_state = false;
};

struct RaceBoundedResult {
  std::string error;
  std::uint64_t states = 0;       // distinct states reached (the initial one included)
  std::uint64_t transitions = 0;  // (state, update op) pairs analysed
  std::uint64_t tasks = 0;        // tasks per transition
  std::vector<std::uint64_t> states_by_depth;
  std::uint64_t step_differences = 0;
  std::vector<SideRace> totals;   // per side, summed over every transition
  std::optional<std::vector<Op>> program;  // shortest program with a finding
  RaceResult replay;              // its whole-program analysis
};

std::vector<Task> bounded_tasks(const RaceBounds& b);
RaceBoundedResult race_bounded(const RaceBounds& b, const std::vector<Side*>& sides);

}  // namespace diffsched::cpudl::race
