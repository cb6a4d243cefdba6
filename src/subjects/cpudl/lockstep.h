// The cpudl subject: reference heap, optimized heap and the model in lockstep.
//
//   Lockstep ls;                                   // reference + optimized
//   Verdict v = run_lockstep<Subject>(ls, Config{8}, ops, Level::kDeadline);
//
// Per op (see engine/runner.h): skip it with a note if it breaks the kernel
// callers' contract; apply it to every side and the model; then check, in
// this order, each side's invariants, each side against the reference at the
// level, and each side against the model. The first failure is the finding.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include <boost/container/static_vector.hpp>
#include <span>
#include <string>
#include <vector>

#include "subjects/cpudl/invariants.h"
#include "subjects/cpudl/model.h"
#include "subjects/cpudl/ops.h"
#include "subjects/cpudl/side.h"
#include "engine/verdict.h"
#include "kernel/store_log.h"

namespace diffsched::cpudl {

// How much of the state each op checks.
//   kIncremental (default): the elements each side changed, their
//     neighbours, the CPUs involved and the op's CPU, plus O(1) summaries
//     (size, root deadline) and the free mask word by word. What a side
//     changed comes from its store log (Side::logs_stores(): every element
//     store the op made, with the value it overwrote; O(log size) per op), or,
//     for a side without one, from diffing its elements against a copy
//     (O(nr_cpu_ids)). Sound by induction from the checked initial state, and
//     every sequence is closed by a full check (close()).
//   kFull: every slot and CPU of every side after every op.
// Both give the same verdicts; on any failure the ordered detailed checks
// name the finding.
enum class CheckMode : std::uint8_t { kIncremental, kFull };

class Lockstep {
 public:
  Lockstep();  // reference and optimized
  explicit Lockstep(std::vector<std::unique_ptr<Side>> sides);

  void reset(const Config& config);
  void step(const Op& op, std::size_t index, Level level, Verdict& verdict);
  // The full check that closes a sequence (a no-op in kFull mode).
  void close(std::size_t last_index, Level level, Verdict& verdict);
  // Set it before reset(), not during a run.
  void set_check_mode(CheckMode mode) { mode_ = mode; }
  // Applies `op` to the sides only: no contract check, no model, no checks,
  // no store logs (replay --stats' bare figure; the caller passes only ops a
  // checked run did not skip). The state is not checked afterwards.
  void apply_bare(const Op& op);
  CheckMode check_mode() const { return mode_; }
  // The live deadlines fitted a 2^63 window after every op so far.
  bool in_domain() const { return model_.always_in_domain(); }
  // Puts side i into states[i] (Side::restore) and the model into the state
  // side 0's view describes: its CPUs with their deadlines, its free mask.
  // For the exhaustive verifier, which only stores states in which every
  // check passed, so side 0 and the model agree. O(nr_cpu_ids log size).
  void restore(std::span<const HeapView> states);

  std::size_t side_count() const { return sides_.size(); }
  const Side& side(std::size_t i) const { return *sides_[i]; }
  const FindResult& find_result(std::size_t i) const { return results_[i]; }
  const Model& model() const { return model_; }
  // Whether the last op was skipped (contract) and why.
  bool last_skipped() const { return skipped_; }
  // Formatted on demand (a trace asks; a fuzz run does not).
  const std::string& skip_reason() const;

 private:
  // True when every state check below would pass: one fused pass per side
  // (O(size) plus a branch-free pass over nr_cpu_ids), allocation-free.
  bool fast_state_ok(Level level) const;
  // Size, root deadline and free mask of one side against the model (O(1) and
  // O(NR_CPUS / 64) word compares); both fast passes start with it.
  bool summary_ok(const HeapView& h, std::optional<u64> max, bool check_tail = true) const;
  // The detailed checks, in the order that names the finding. With
  // check_state false only the find answers are compared.
  bool check_side_invariants(const Op& op, std::size_t index, Verdict& v);
  bool compare_with_reference(const Op& op, std::size_t index, Level level, Verdict& v,
                              bool check_state);
  // find: the op's find arguments, null for an update (and for close()'s
  // check, which compares states only).
  bool compare_with_model(const Op& op, const FindArgs* find, std::size_t index, Verdict& v,
                          bool check_state);
  // same_[i]: side i's find answer is side 0's (computed once per step,
  // read by the reference and model comparisons); true if every side's is.
  bool note_same_answers();

  std::vector<std::unique_ptr<Side>> sides_;
  bool any_side_warns_ = false;  // some side's can_warn(): poll take_warning() per op
  bool any_capacity_aware_ = false;  // some side's capacity_aware()
  // Incremental mode: true when every check on what changed passes; then
  // takes the new snapshots.
  // op_cpu: the CPU an update op names (Model::ContractCheck::cpu), -1 for a find
  // (find_cap's task CPU is not one it may change).
  bool incremental_state_ok(int op_cpu, Level level);
  bool changes_ok(const HeapView& h) const;
  // Fills changed_slots_ / changed_cpus_ with what side `side` changed (from
  // its store log, or by diffing against its snapshot); false when it cannot
  // tell (a log overflowed, a store outside the elements).
  bool collect_changes(std::size_t side, const HeapView& h, int op_cpu);
  void take_snapshots();  // also after an op checked in full (collect_changes() moves them on)
  void init_sides();

  struct Snapshot {
    int size = 0;
    boost::container::static_vector<kernel::cpudl_item<kernel::Uncounted>, kernel::NR_CPUS> el;
  };

  std::vector<FindResult> results_;
  FindArgs find_args_;  // the last op's, when it was a find (Model::contract_and_apply)
  std::string find_why_;  // find_permits()' reason, written only when it fails (step())
  std::vector<char> same_;  // note_same_answers()
  Model model_;
  CheckMode mode_ = CheckMode::kIncremental;
  std::vector<Snapshot> snapshots_;  // one per side (elements only for sides without a log)
  std::vector<char> log_stores_;     // per side: Side::logs_stores()
  std::vector<char> tail_guarded_;   // per side: Side::free_tail_guarded()
  std::unique_ptr<kernel::StoreLog[]> logs_;  // one per side
  boost::container::static_vector<int, kernel::NR_CPUS> changed_slots_, changed_cpus_,
      ref_changed_slots_, ref_changed_cpus_;
  // collect_changes(): which slots and CPUs it listed in its call number
  // epoch_ (each at most once, so the lists hold at most NR_CPUS).
  std::array<std::uint32_t, kernel::NR_CPUS> slot_stamp_{}, cpu_stamp_{};
  std::uint32_t epoch_ = 0;
  bool skipped_ = false;
  Model::ContractCheck skip_rule_;      // the contract rule the last op broke, if any
  mutable std::string skip_reason_;     // its text, or find_cap's reason
};

struct Subject {
  static constexpr std::string_view kName = "cpudl";
  // Binary format v1 (frozen): its number of op kinds (io/binary.h).
  static constexpr unsigned kV1OpKinds = 7;
  static constexpr unsigned kDefaultCpus = 8;  // .ops files without `cpus`
  static constexpr Level kDefaultLevel = Level::kDeadline;
  // The levels that mean something for this subject (.ops `level`, --level).
  static constexpr std::array<Level, 2> kLevels{Level::kExact, Level::kDeadline};
  using Op = cpudl::Op;
  using Config = cpudl::Config;
  using Lockstep = cpudl::Lockstep;
  // The race fuzz target (role race, src/registry.def): the body's program
  // through race::analyze_race() with every step from the reference's state
  // (race_target.cpp); a finding is a class only the hole heap reaches.
  static Verdict reader_race(std::span<const std::uint8_t> body);
  // The classes a reader finding (cpudl:reader:CLASS:OP) can name: race.h's
  // classes but consistent.
  static std::span<const std::string_view> reader_classes();
};

// One-line state of a side for traces: "size 3 [0:100 2:90 1:50] free 4-7".
std::string format_state(const HeapView& heap);

}  // namespace diffsched::cpudl
