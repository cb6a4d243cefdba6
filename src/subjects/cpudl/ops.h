// The ops of the cpudl subject: the one list that drives the text format,
// the printers, the RapidCheck commands and the fuzz decoder.
//
//   set 1 100          cpudl_set(cp, 1, 100)
//   clear 1            cpudl_clear(cp, 1)               (v4.9 .. v6.18)
//   clear_online 1 0   cpudl_clear(cp, 1, false)        (v6.19+)
//   set_freecpu 2      cpudl_set_freecpu(cp, 2)         (v4.9 .. v6.18)
//   clear_freecpu 2    cpudl_clear_freecpu(cp, 2)       (v4.9 .. v6.18)
//   find 50 0-3        cpudl_find(cp, p, later_mask)    p->dl.deadline = 50,
//                                                       p->cpus_mask = 0-3
//   find_nomask 50 0-3 cpudl_find(cp, p, NULL)          (check_preempt_equal_dl)
//   find_cap 50 0-3 1 512 1024
//                      cpudl_find(cp, p, later_mask)    with asymmetric capacity on:
//                                                       task_cpu 1, dl_runtime 512,
//                                                       dl_deadline 1024 (v5.9+)
//   cpu_down 2         CPU hotplug takes CPU 2 down:   set_cpu_active(2, false),
//                      rq_offline_dl() (cpudl_clear + cpudl_clear_freecpu;
//                      v6.19: cpudl_clear(cp, 2, false)), set_cpu_online(2, false)
//   cpu_up 2           and brings it back:             set_cpu_online(2, true),
//                      set_cpu_active(2, true), rq_online_dl() without -dl
//                      tasks (cpudl_set_freecpu; v6.19: cpudl_clear(cp, 2, true))
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/fields.h"
#include "engine/op.h"

#include "kernel/cpumask.h"
#include "kernel/types.h"

namespace diffsched::cpudl {

using kernel::Cpumask;
using kernel::u64;

// Op traits. Every op is an update (changes the heap, answers nothing) or a
// find (a query: cpudl_find() with the arguments find_args() returns, checked
// against the reference and the model and printed in traces). Each op struct
// says which, and the generic code asks the trait, never the op's type:
//   static constexpr bool kUpdate = true;     // an update op
//   FindArgs find_args() const;               // a find op
// The task fields dl_task_fits_capacity() reads (v5.9 .. v5.19:
// cap_scale(p->dl.dl_deadline, cap) >= p->dl.dl_runtime) and task_cpu(p).
struct CapTask {
  int cpu = 0;          // task_cpu(p): wins a tie of largest capacities
  u64 dl_runtime = 0;   // p->dl.dl_runtime
  u64 dl_deadline = 0;  // p->dl.dl_deadline (relative)
};

struct FindArgs {
  u64 dl = 0;                        // p->dl.deadline
  const Cpumask* affinity = nullptr; // p->cpus_mask
  bool with_mask = true;             // later_mask passed (else NULL)
  std::optional<CapTask> cap;        // asymmetric capacity on (find_cap)
};

template <class T>
concept FindOp = requires(const T& op) {
  { op.find_args() } -> std::same_as<FindArgs>;
};
template <class T>
concept UpdateOp = requires { requires T::kUpdate; };

struct Set {
  static constexpr std::uint8_t kCode = 0;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "set";
  static constexpr std::string_view kKernel = "cpudl_set(cp, cpu, dl)";
  Cpu cpu = 0;
  Deadline dl = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
    f("dl", op.dl);
  }
};

struct Clear {
  static constexpr std::uint8_t kCode = 1;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "clear";
  static constexpr std::string_view kKernel = "cpudl_clear(cp, cpu)";
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
  }
};

struct ClearOnline {
  static constexpr std::uint8_t kCode = 2;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "clear_online";
  static constexpr std::string_view kKernel = "cpudl_clear(cp, cpu, online)";
  Cpu cpu = 0;
  bool online = true;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
    f("online", op.online);
  }
};

struct SetFreecpu {
  static constexpr std::uint8_t kCode = 3;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "set_freecpu";
  static constexpr std::string_view kKernel = "cpudl_set_freecpu(cp, cpu)";
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
  }
};

struct ClearFreecpu {
  static constexpr std::uint8_t kCode = 4;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "clear_freecpu";
  static constexpr std::string_view kKernel = "cpudl_clear_freecpu(cp, cpu)";
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
  }
};

struct Find {
  static constexpr std::uint8_t kCode = 5;  // stable binary op code
  static constexpr std::string_view kName = "find";
  static constexpr std::string_view kKernel = "cpudl_find(cp, p, later_mask)";
  TaskDeadline dl = 0;
  Cpumask affinity{};
  FindArgs find_args() const { return {dl, &affinity, true, std::nullopt}; }
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("dl", op.dl);
    f("affinity", op.affinity);
  }
};

struct FindNomask {
  static constexpr std::uint8_t kCode = 6;  // stable binary op code
  static constexpr std::string_view kName = "find_nomask";
  static constexpr std::string_view kKernel = "cpudl_find(cp, p, NULL)";
  TaskDeadline dl = 0;
  Cpumask affinity{};
  FindArgs find_args() const { return {dl, &affinity, false, std::nullopt}; }
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("dl", op.dl);
    f("affinity", op.affinity);
  }
};

// cpudl_find(cp, p, later_mask) with asymmetric CPU capacity on (v5.9+;
// sched_asym_cpucap_active()), as of v5.9 .. v5.19, whose dl_task_fits_capacity()
// is cap_scale(dl_deadline, capacity) >= dl_runtime (v6.0 compares
// capacity >= dl_density >> (BW_SHIFT - SCHED_CAPACITY_SHIFT) instead, which
// rounds differently). Capacities are the Config's. Free branch: later_mask
// keeps the free CPUs of the affinity the task fits; if none fits, the one of
// largest capacity (a tie goes to the task's CPU, else the lowest). Max
// branch: as find.
struct FindCap {
  static constexpr std::uint8_t kCode = 7;  // stable binary op code
  static constexpr std::string_view kName = "find_cap";
  static constexpr std::string_view kKernel =
      "cpudl_find(cp, p, later_mask), asymmetric capacity (v5.9+)";
  TaskDeadline dl = 0;
  Cpumask affinity{};
  Cpu cpu = 0;             // task_cpu(p)
  Duration runtime = 0;    // p->dl.dl_runtime
  Duration deadline = 0;   // p->dl.dl_deadline
  FindArgs find_args() const {
    return {dl, &affinity, true, CapTask{cpu, runtime, deadline}};
  }
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("dl", op.dl);
    f("affinity", op.affinity);
    f("cpu", op.cpu);
    f("runtime", op.runtime);
    f("deadline", op.deadline);
  }
};

// CPU hotplug as it reaches cpudl, in the order of v6.19 (the same since
// v3.19 as cpudl sees it): the active and online masks are state of a run
// (the model's, and the kernel shim's cpu_active_mask/cpu_online_mask). An
// op naming a CPU that is down, or cpu_down of a down CPU / cpu_up of an up
// one, is not something the kernel does: the model skips it (Model::permits).
struct CpuDown {
  static constexpr std::uint8_t kCode = 8;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "cpu_down";
  static constexpr std::string_view kKernel =
      "set_cpu_active(cpu, false); rq_offline_dl(); set_cpu_online(cpu, false)";
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
  }
};

struct CpuUp {
  static constexpr std::uint8_t kCode = 9;  // stable binary op code
  static constexpr bool kUpdate = true;
  static constexpr std::string_view kName = "cpu_up";
  static constexpr std::string_view kKernel =
      "set_cpu_online(cpu, true); set_cpu_active(cpu, true); rq_online_dl()";
  Cpu cpu = 0;
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("cpu", op.cpu);
  }
};

using Op = std::variant<Set, Clear, ClearOnline, SetFreecpu, ClearFreecpu, Find, FindNomask,
                        FindCap, CpuDown, CpuUp>;

// The find arguments of `op`, or nullopt for an update. An op that is
// neither does not compile here.
inline std::optional<FindArgs> find_args(const Op& op) {
  return std::visit(
      []<class T>(const T& o) -> std::optional<FindArgs> {
        static_assert(FindOp<T> != UpdateOp<T>, "a cpudl op is exactly one of update, find");
        if constexpr (FindOp<T>)
          return o.find_args();
        else if constexpr (UpdateOp<T>)
          return std::nullopt;
        else
          static_assert(kUnhandled<T>, "cpudl op neither update nor find");
      },
      op);
}
inline bool is_find(const Op& op) {
  return std::visit([]<class T>(const T&) { return FindOp<T>; }, op);
}

inline constexpr unsigned kCapacityScale = 1024;  // SCHED_CAPACITY_SCALE
inline constexpr std::size_t kMaxCapacities = 31;  // values in a capacity list

struct Config {
  unsigned nr_cpu_ids = 4;  // also the heap's capacity (cpudl_init)
  // CPU capacities (arch_scale_cpu_capacity(), 1..1024) for find_cap: the
  // list repeats over the CPUs (CPU c has capacity[c % size]); empty: all 1024.
  std::vector<std::uint16_t> capacity;

  unsigned long capacity_of(int cpu) const {
    return capacity.empty() ? kCapacityScale
                            : capacity[static_cast<std::size_t>(cpu) % capacity.size()];
  }
};

}  // namespace diffsched::cpudl
