// What a lockless cpudl_find() can see while an update runs (issue 26).
//
//   RaceResult r = analyze_race(config, ops, {ref.get(), opt.get()});
//   r.sides[1].counts[kTorn]        // distinct torn answers the optimized side shows
//   r.findings                      // classes only a non-reference side reaches
//
// The kernel (v6.1 kernel/sched/cpudeadline.c, cpudl_find()) reads, with no
// lock, the words of cp->free_cpus (cpumask_and(), word by word), then
// elements[0].cpu (cpudl_maximum()) and, if the task may run there,
// elements[0].dl: separate loads, while cpudl_set()/cpudl_clear() store under
// cp->lock. For every update op of a program, on each side (a side whose
// stores are all logged, kernel/store_log.h: the built-in heaps and their
// planted mutants), the states S_0 .. S_n between its n stores are rebuilt
// from the log, and a reader whose loads see S_tw (the free word that changes
// in the op, if any), S_tc (root cpu) and S_td (root dl) with
// 0 <= tw <= tc <= td <= n is evaluated for every such triple: every
// interleaving of the reader's loads with the writer's stores, for a reader
// starting at any point of the op.
//
// Memory model assumed: the reader's loads are ordered and each sees one
// state of the writer's stores in C order (sequential consistency of these
// accesses; x86-TSO gives it to the kernel's plain loads and stores, a weaker
// architecture such as arm64 need not, and may let a reader see more).
//
// Each distinct answer (return value and later_mask; for find_nomask the
// return value) of a task is put in one class, the first that fits:
//   consistent  the answer of S_0 or of S_n, at the deadline level: also
//               the one S_0 or S_n gives with another of its CPUs of the
//               same maximum deadline at the root (which tied CPU is the
//               root is the hole heap's known tie order, accepted at that
//               level by the lockstep too; callers re-check the CPU);
//   impossible  the root CPU read is out of range (< 0 or >= nr_cpu_ids):
//               cpumask_test_cpu() on it is out of bounds;
//   phantom     the root CPU read is in the heap neither in S_0 nor in S_n;
//   torn        the (cpu, dl) pair read is the root of no single state S_k;
//   stale       anything else: what an intermediate state S_k answers (its
//               root, or its free CPUs).
// The tasks: every find op's of the program, plus a fixed set (task_set()).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "subjects/cpudl/ops.h"
#include "subjects/cpudl/side.h"

namespace diffsched::cpudl::race {

enum ReaderClass : std::uint8_t { kConsistent, kStale, kTorn, kPhantom, kImpossible, kClassCount };
inline constexpr std::array<std::string_view, kClassCount> kClassNames = {
    "consistent", "stale", "torn", "phantom", "impossible"};
std::string_view class_name(ReaderClass c);
std::string_view op_kind_name(std::size_t kind);  // Op's alternative `kind`: "set", "clear", ...

// A task as cpudl_find() sees it: p->dl.deadline, p->cpus_mask, and whether
// a later_mask is passed.
struct Task {
  u64 dl = 0;
  Cpumask affinity{};
  bool with_mask = true;
};

// One reader answer and where it was seen.
struct Example {
  std::size_t op_index = 0;   // in the program
  std::size_t stores = 0;     // n: stores of the op on this side
  std::size_t tw = 0, tc = 0, td = 0;  // the states the loads saw (after tw.. stores)
  Task task;
  int ret = 0;
  bool free_branch = false;
  int cpu = -1;              // the root CPU read (max branch)
  u64 dl = 0;                // the root deadline read (if read)
  bool dl_read = false;
  std::string store_text;    // the store the answer first needs: "slot 0 .cpu = 3"
};

// Per side: distinct (op, task, answer) triples per class, and the first
// example of each class per op kind.
struct SideRace {
  std::string name;
  std::array<std::uint64_t, kClassCount> counts{};
  std::uint64_t ops = 0, stores = 0, readers = 0;  // update ops, stores, load triples tried
  std::array<std::array<std::optional<Example>, std::variant_size_v<Op>>, kClassCount> first;
  bool reaches(ReaderClass c, std::size_t op_kind) const { return first[c][op_kind].has_value(); }
};

// A class a non-reference side reaches at an op kind and the reference never
// does in the same program: signature cpudl:reader:CLASS:OP.
struct RaceFinding {
  std::string signature;
  ReaderClass cls = kConsistent;
  std::size_t op_kind = 0;
  std::size_t side = 1;
  Example example;
};

struct RaceResult {
  std::string error;  // a side without logged stores, a log overflow; else empty
  std::vector<SideRace> sides;
  std::vector<RaceFinding> findings;
  // (class, op kind) reached by every side: shared, reported, not findings.
  std::vector<std::pair<ReaderClass, std::size_t>> shared;
  // With a bound (analyze_race's max_readers): 0 if the whole program was
  // analysed, else 1 + the index of the op during which the load triples
  // tried passed the bound (the ops before it analysed on every side, that
  // op in part, side by side and task by task). `findings` of a cut run are
  // not the program's: the reference may reach a class later, or in the
  // part of the cut op it did not get to. A caller reports none of them
  // (kernel-check counts the input as cut).
  std::size_t cut_at = 0;
};

// The tasks tried at every op besides the program's own finds: affinity all
// CPUs and each single CPU (the first 16), deadline one below the earliest
// and equal to each distinct deadline the program sets (at most 8, spread).
std::vector<Task> task_set(const Config& config, const std::vector<Op>& ops);

// Runs the program on every side (side 0 the reference), each from
// cpudl_init(), and analyses every update op. O(ops * tasks * n^2).
// `tasks`: the tasks to try (null: task_set(config, ops)).
// `same_state`: before each update op, every side is restored to side 0's
// state (Side::restore), so only the heapify's stores differ, not the layout
// the sides reached (the hole heap orders equal deadlines differently).
// `max_readers` (0: none) bounds the load triples tried over all sides: the
// analysis stops after the task that passes it (RaceResult::cut_at).
RaceResult analyze_race(const Config& config, const std::vector<Op>& ops,
                        const std::vector<Side*>& sides, const std::vector<Task>* tasks = nullptr,
                        bool same_state = false, std::uint64_t max_readers = 0);

// One op from the sides' current states (every side must hold the state the
// caller wants): per side, the classes it reaches at this op, counted into
// `out[side]` (which must have one entry per side). Returns false (and sets
// `error`) if a side cannot be analysed.
// With max_readers (0: none), it stops after the task at which the load
// triples tried, summed over `out`, pass it, and sets *cut.
bool analyze_step(const Op& op, std::size_t op_index, const std::vector<Task>& tasks,
                  const std::vector<Side*>& sides, std::vector<SideRace>& out, std::string* error,
                  std::uint64_t max_readers = 0, bool* cut = nullptr);

// One answer a reader can give (what the caller sees) and its class.
struct ReaderAnswer {
  int ret = 0;              // -1: the root CPU read was out of range (impossible)
  bool free_branch = false;
  int cpu = -1;             // the root CPU read (max branch)
  std::vector<u64> later;   // free branch: later_mask's words below nr_cpu_ids
  ReaderClass cls = kConsistent;
};
// Applies `op` to `side` (from its current state) and returns, per task,
// every distinct answer a reader can give during it (both endpoints
// included). Empty and *error set if the side cannot be analysed.
std::vector<std::vector<ReaderAnswer>> reader_answers(Side* side, const Op& op,
                                                      const std::vector<Task>& tasks,
                                                      std::string* error);

// Findings and shared classes from per-side results.
void compare_sides(RaceResult& r);

// ddmin over the ops keeping `signature` (and nr_cpu_ids); `sides` reused.
std::vector<Op> minimize_race(const Config& config, std::vector<Op> ops,
                              const std::vector<Side*>& sides, const std::string& signature,
                              const std::vector<Task>* tasks = nullptr, bool same_state = false);

// The answer as text: "1 later_mask {3}", "0", "impossible cpu -1".
std::string answer_text(const Example& e);
std::string task_text(const Task& t);

}  // namespace diffsched::cpudl::race
