// Building a Finding: the one helper every subject's Lockstep uses.
//
//   Finding f = make_finding<Subject>(FindingKind::kDivergence, op, index,
//                                     {"optimized", "reference", "exact", "slot.cpu"});
//   v.finding = warning_finding<Subject>(op, index, side_name, std::move(warning));
//
// The op's kind and text come from the op (io::format_op), the check's source
// location from the call site (__builtin_FILE/LINE), unless given.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/op.h"
#include "engine/verdict.h"
#include "io/text.h"

namespace diffsched {

// Who broke what: the parts of a finding that name the check.
struct FindingWhat {
  std::string_view side;     // "optimized", "kernel"
  std::string_view against;  // "reference", "model", "" (invariants)
  std::string_view check;    // level name, invariant name, "model", "WARN_ON"
  std::string_view field;    // "slot.cpu", "find.ret", "cpu", "warning"
};

template <class S>
Finding make_finding(FindingKind kind, const typename S::Op& op, std::size_t index,
                     const FindingWhat& what, const char* file = __builtin_FILE(),
                     unsigned line = __builtin_LINE()) {
  Finding f;
  f.check_file = file;
  f.check_line = line;
  f.kind = kind;
  f.subject = S::kName;
  f.op_index = index;
  f.op_kind = std::string(op_name(op));
  f.op_text = io::format_op(op);
  f.side = std::string(what.side);
  f.against = std::string(what.against);
  f.check = std::string(what.check);
  f.field = std::string(what.field);
  return f;
}

// A WARN_ON() (WARN, BUG_ON, cpumask_check(), unbalanced locking) a side's
// kernel code raised during op `index`, as an invariant finding "WARN_ON".
template <class S>
Finding warning_finding(const typename S::Op& op, std::size_t index, std::string_view side,
                        std::string warning, const char* file = __builtin_FILE(),
                        unsigned line = __builtin_LINE()) {
  Finding f = make_finding<S>(FindingKind::kInvariant, op, index,
                              {side, "", "WARN_ON", "warning"}, file, line);
  f.actual = std::move(warning);
  f.detail = "the side's kernel code warned during this op (WARN_ON/WARN/BUG_ON, a "
             "cpumask_check() of a CPU beyond nr_cpu_ids, or unbalanced locking)";
  return f;
}

}  // namespace diffsched
