// run_lockstep(): the one engine every front end calls.
//
//   CpudlSubject::Lockstep lockstep;          // big; keep one and reuse it
//   Verdict v = run_lockstep<CpudlSubject>(lockstep, config, ops, Level::kDeadline);
//
// For each op in order: apply it to every side (reference, optimized, ...,
// and the simple model), check each side's invariants separately, compare
// every side with the reference at `level`, and check each side's answers
// against the model. Stops at the first finding. A finding made while the
// live deadlines do not fit in a 2^63 window (dl_time_before is then not an
// order) is re-labelled out-of-domain. The observer sees every op, for traces.
//
// A subject S is anything that satisfies the concept Subject (engine/subject.h:
// the whole contract, checked by the compiler). The runner never allocates;
// findings do (they are rare).
#pragma once

#include <cstddef>
#include <span>

#include "engine/subject.h"
#include "engine/verdict.h"
#include <fmt/format.h>

#include "kernel/cpumask.h"

namespace diffsched {

template <class S>
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_op(std::size_t index, const typename S::Op& op,
                     const typename S::Lockstep& lockstep, const Verdict& verdict) = 0;
};

// Calls f(op) for each op in order until it returns false, asking the
// cache for an op two ahead: an op variant is as large as its largest
// alternative (a cpudl find holds a 1 KiB cpumask), so a program is a
// stream of kilobytes whose first and last bytes (fields, variant index)
// each op reads. Both the checked runs and replay --stats' bare runs go
// through it, so the check overhead compares like with like.
template <class Op, class F>
void for_each_prefetched(std::span<const Op> ops, F&& f) {
  constexpr std::size_t kAhead = 2;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (i + kAhead < ops.size()) {
      // The head (fields), and the tail: the variant index in the last
      // bytes and the fields a find_cap keeps after its cpumask, which
      // straddle a line boundary for about half the ops (sizeof(Op) is not
      // a multiple of 64).
      const auto* end = reinterpret_cast<const char*>(&ops[i + kAhead] + 1);
      __builtin_prefetch(&ops[i + kAhead]);
      __builtin_prefetch(end - 32);
      __builtin_prefetch(end - 1);
    }
    if (!f(ops[i])) return;
  }
}

// One run in progress, fed op by op (RapidCheck commands use this directly;
// run_lockstep() feeds a whole sequence). Holds nr_cpu_ids for its lifetime.
template <Subject S>
class LockstepRun {
 public:
  LockstepRun(typename S::Lockstep& lockstep, const typename S::Config& config, Level level,
              Observer<S>* observer = nullptr)
      : lockstep_(lockstep), scope_(config.nr_cpu_ids), observer_(observer) {
    lockstep_.reset(config);
    verdict_.subject = S::kName;
    verdict_.level = level;
  }

  // Applies one op and checks everything; returns false once there is a finding
  // (further ops are ignored).
  bool feed(const typename S::Op& op) {
    if (verdict_.finding) return false;
    const std::size_t i = verdict_.ops_run++;
    lockstep_.step(op, i, verdict_.level, verdict_);
    if (verdict_.finding && !lockstep_.in_domain()) {
      Finding& f = *verdict_.finding;
      f.detail = fmt::format(
          "found as {} in a run where the live deadlines did not always fit in a "
          "2^63 window, which the kernel assumes (dl_time_before is not an order then; "
          "a heap built meanwhile may break later)",
          finding_kind_name(f.kind));
      f.kind = FindingKind::kOutOfDomain;
    }
    if (observer_) observer_->on_op(i, op, lockstep_, verdict_);
    return !verdict_.finding;
  }

  // Closes the sequence: the subject's final full check (subjects that check
  // incrementally). Call once after the last feed().
  void finish() {
    if (verdict_.finding || verdict_.ops_run == 0) return;
    lockstep_.close(verdict_.ops_run - 1, verdict_.level, verdict_);
  }

  const Verdict& verdict() const { return verdict_; }
  const typename S::Lockstep& lockstep() const { return lockstep_; }

 private:
  typename S::Lockstep& lockstep_;
  kernel::NrCpuIdsScope scope_;
  Observer<S>* observer_;
  Verdict verdict_;
};

template <Subject S>
Verdict run_lockstep(typename S::Lockstep& lockstep, const typename S::Config& config,
                     std::span<const typename S::Op> ops, Level level,
                     Observer<S>* observer = nullptr) {
  LockstepRun<S> run(lockstep, config, level, observer);
  for_each_prefetched(ops, [&](const typename S::Op& op) { return run.feed(op); });
  run.finish();
  return run.verdict();
}

}  // namespace diffsched
