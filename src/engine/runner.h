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
// A subject S provides: kName, Op (a std::variant), Config (with nr_cpu_ids),
// and Lockstep with reset(const Config&), step(op, index, level, Verdict&),
// in_domain(). The runner never allocates; findings do (they are rare).
#pragma once

#include <cstddef>
#include <span>

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

template <class S>
Verdict run_lockstep(typename S::Lockstep& lockstep, const typename S::Config& config,
                     std::span<const typename S::Op> ops, Level level,
                     Observer<S>* observer = nullptr) {
  kernel::NrCpuIdsScope scope(config.nr_cpu_ids);
  lockstep.reset(config);
  Verdict verdict;
  verdict.subject = S::kName;
  verdict.level = level;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    lockstep.step(ops[i], i, level, verdict);
    ++verdict.ops_run;
    if (verdict.finding && !lockstep.in_domain()) {
      Finding& f = *verdict.finding;
      f.detail = fmt::format(
          "found as {} while the live deadlines do not fit in a 2^63 window, "
          "which the kernel assumes (dl_time_before is not an order then)",
          finding_kind_name(f.kind));
      f.kind = FindingKind::kOutOfDomain;
    }
    if (observer) observer->on_op(i, ops[i], lockstep, verdict);
    if (verdict.finding) break;
  }
  return verdict;
}

}  // namespace diffsched
