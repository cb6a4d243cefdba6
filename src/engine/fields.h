// Strong field types: what an op field means comes from its type, and each
// type has one traits definition (io/fields.h: parse, print, decode, encode,
// shrink, generate, BFS domain) that the text and binary codecs, the
// minimiser, the RapidCheck generators and the exhaustive verifier all use.
//
//   struct Set { Cpu cpu; Deadline dl; ... };       // not int, u64
//
// They convert to and from their plain value, so kernel calls and arithmetic
// read as before (kernel::cpudl_set(&cp, o.cpu, o.dl)).
//
//   Cpu           a CPU below nr_cpu_ids                      int
//   Deadline      a heap deadline, cpudl_set()'s dl (ns)      u64
//   TaskDeadline  a task's absolute deadline p->dl.deadline   u64
//   Duration      a task's relative time (dl_runtime,         u64, below 2^53
//                 dl_deadline; ns)
//   Flag          bool; Mask: kernel::Cpumask; cpumask::Reg   (as they are)
#pragma once

#include <fmt/format.h>

#include "kernel/cpumask.h"
#include "kernel/types.h"

namespace diffsched {

template <class Tag, class T>
struct StrongValue {
  T value{};
  constexpr StrongValue() = default;
  constexpr StrongValue(T v) : value(v) {}  // NOLINT: implicit on purpose
  constexpr operator T() const { return value; }  // NOLINT
};

struct Cpu : StrongValue<Cpu, int> {
  using StrongValue::StrongValue;
};
struct Deadline : StrongValue<Deadline, kernel::u64> {
  using StrongValue::StrongValue;
};
struct TaskDeadline : StrongValue<TaskDeadline, kernel::u64> {
  using StrongValue::StrongValue;
};
struct Duration : StrongValue<Duration, kernel::u64> {
  using StrongValue::StrongValue;
  // Relative times stay below this (the kernel bounds dl_deadline far lower),
  // so dl_deadline * capacity (<= 1024) never overflows a u64.
  static constexpr kernel::u64 kLimit = kernel::u64{1} << 53;
};

using Flag = bool;
using Mask = kernel::Cpumask;

}  // namespace diffsched

template <class T>
  requires std::is_base_of_v<diffsched::StrongValue<T, int>, T> ||
           std::is_base_of_v<diffsched::StrongValue<T, diffsched::kernel::u64>, T>
struct fmt::formatter<T> : fmt::formatter<decltype(T{}.value)> {
  template <class Ctx>
  auto format(const T& v, Ctx& ctx) const {
    return fmt::formatter<decltype(T{}.value)>::format(v.value, ctx);
  }
};
