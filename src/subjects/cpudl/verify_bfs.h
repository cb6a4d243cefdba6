// Bounded exhaustive verification of the cpudl subject: breadth-first search
// over the product state (every heap side and the model) from cpudl_init().
//
//   CpudlBounds b{.cpus = 5, .deadlines = 4, .domain = Domain::kWindow};
//   cpudl::Lockstep lockstep;                 // reference + optimized
//   CpudlResult r = verify_cpudl(b, lockstep);
//   if (r.counterexample) ...                 // a shortest failing op sequence
//
// Transitions: every op of the one op list (subjects/cpudl/ops.h) with every value of
// its fields within the bounds (cpudl_ops()): CPUs 0..cpus-1, heap deadlines
// from the domain, task deadlines from one below the domain to one above it,
// every affinity mask over the CPUs, online 0 and 1. An op that breaks the
// kernel callers' contract in a state (Model::permits: set_freecpu of a CPU in
// the heap) is not generated there. Every (state, op) pair is one transition,
// checked by Lockstep::step: each side's invariants, each side against the
// reference at the level, each side against the model.
//
// Every reachable state is expanded once: the visited set holds a canonical
// encoding of the state, and the search goes depth by depth, so the first
// failing transition ends a shortest failing sequence. The encoding, per side:
// size, slots 0..max(size,1)-1 (cpu, deadline), free mask. Not stored, because
// they are functions of what is: the back-pointers (in a state where every
// check passed, idx-of-slot and idx-of-cpu fix them from the slots), the
// model (it then equals side 0's members, deadlines and free mask), and slots
// at or beyond max(size,1) (no kernel function reads such a slot unless it
// wrote it in the same call; cpudl_find() reads slot 0 even on an empty heap,
// so slot 0 is kept). States are restored (Lockstep::restore), not replayed.
// A counterexample is then replayed from cpudl_init() through run_lockstep()
// and reported only if it reproduces the same finding (`confirmed`).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "subjects/cpudl/lockstep.h"
#include "engine/verdict.h"
#include "io/program.h"
#include "verify/progress.h"

namespace diffsched::verify {

// Where the heap deadlines lie. Only dl_time_before() and equality see them,
// so K values in a 2^63 window behave like any other K values in the same
// order; the domains differ in the raw bits a buggy side might misuse.
enum class Domain : std::uint8_t {
  kWindow,  // base 1000: 1000 .. 1000+K-1
  kWrap63,  // straddling 2^63:  2^63 - K/2 .. 2^63 - K/2 + K-1
  kWrap64,  // straddling 2^64:  2^64 - K/2 .. wrapping through 0
};

std::string_view domain_name(Domain domain);
std::optional<Domain> parse_domain(std::string_view name);

struct CpudlBounds {
  unsigned cpus = 3;       // nr_cpu_ids, 1..kMaxCpus
  unsigned deadlines = 2;  // K heap deadline values, 1..kMaxDeadlines
  Domain domain = Domain::kWindow;
  Level level = Level::kDeadline;
  unsigned max_depth = 0;  // expand states up to this depth; 0: no limit
  // CPU capacities of find_cap (repeated): two sizes, so that with the
  // durations below a task fits all, some or none of the free CPUs, and
  // CPUs of equal largest capacity tie.
  std::vector<std::uint16_t> capacity = {1024, 512};

  static constexpr unsigned kMaxCpus = 12;
  static constexpr unsigned kMaxDeadlines = 15;
};

// The K heap deadlines, and the K+2 task deadlines find ops use (one below,
// the K values, one above: with consecutive values every relation of a task
// deadline to a live deadline occurs).
std::vector<kernel::u64> heap_deadlines(const CpudlBounds& bounds);
std::vector<kernel::u64> task_deadlines(const CpudlBounds& bounds);
// The relative times find_cap is tried with (dl_runtime, dl_deadline): 512
// and 1024, so runtime/deadline is 1/2, 1 or 2.
std::vector<kernel::u64> bfs_durations();

// Every op tried from every state, in the order tried (op-list order, then
// field values in order, first field slowest). Needs nr_cpu_ids == cpus.
std::vector<cpudl::Op> cpudl_ops(const CpudlBounds& bounds);

struct CpudlResult {
  std::string error;  // bounds out of range or an internal failure; else empty

  std::uint64_t states = 0;       // distinct states reached, the initial one included
  std::uint64_t transitions = 0;  // (state, op) pairs checked
  std::uint64_t ops_per_state = 0;
  std::vector<std::uint64_t> states_by_depth;  // new states first reached at each depth
  bool complete = false;  // no new state was left unexpanded: all reachable states checked
  double seconds = 0;
  // Transitions on which the run noted each NoteKind (tie-accepted, ...).
  std::array<std::uint64_t, static_cast<std::size_t>(NoteKind::kCount)> notes{};

  // A shortest op sequence whose last op fails a check, as a .ops program,
  // and the verdict of replaying it from cpudl_init() (run_lockstep).
  std::optional<io::Program<cpudl::Subject>> counterexample;
  Verdict replayed;
  bool confirmed = false;  // the replay found the same finding at the last op
};

// An up-front estimate of a run's size, for progress lines and for refusing
// bounds that will not fit (docs/verification.md, "How big a bound is"):
//   states      S = (K+2)^N * g(N), at most sum_{j<=D} ops^j with --max-depth D
//               (of which those within D-1 ops are expanded).
//               Per CPU: not in the heap (free or not) or in it with one of K
//               deadlines; g(N) is the number of heap layouts both sides reach
//               per such assignment, measured for N <= 5 and extrapolated by
//               g(N) = 1.5 N g(N-1).
//   transitions expanded states * ops_per_state (the contract prunes a few)
//   bytes       S * kBytesPerState (visited set, parents, hash table, growth)
//   seconds     transitions / kTransitionsPerSecond
struct CpudlEstimate {
  double states = 0;
  std::uint64_t ops_per_state = 0;
  double transitions = 0;
  double bytes = 0;
  double seconds = 0;

  static constexpr double kBytesPerState = 100;
  static constexpr double kTransitionsPerSecond = 2e6;  // one core of the reference machine
};
CpudlEstimate estimate_cpudl(const CpudlBounds& bounds);

// Explores every state reachable within the bounds. O(states * ops_per_state
// * checks); memory about 48 bytes per state.
CpudlResult verify_cpudl(const CpudlBounds& bounds, cpudl::Lockstep& lockstep,
                         const ProgressFn& progress = {});

}  // namespace diffsched::verify
