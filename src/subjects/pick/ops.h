// The ops of the pick subject (can_migrate_task()'s destination CPU pick).
//
//   pick dst=0-3,64 cpus=0-127 allowed=64-70
//       new_dst_cpu for env->dst_grpmask, env->cpus, p->cpus_ptr
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>

#include "kernel/cpumask.h"

namespace diffsched::pick {

using kernel::Cpumask;

struct Pick {
  static constexpr std::uint8_t kCode = 0;  // stable binary op code
  static constexpr std::string_view kName = "pick";
  static constexpr std::string_view kKernel =
      "can_migrate_task(): new_dst_cpu from dst_grpmask & cpus & p->cpus_ptr";
  static constexpr bool kNamedArgs = true;
  Cpumask dst{};
  Cpumask cpus{};
  Cpumask allowed{};
  template <class Self, class F>
  static constexpr void fields(Self& op, F&& f) {
    f("dst", op.dst);
    f("cpus", op.cpus);
    f("allowed", op.allowed);
  }
};

using Op = std::variant<Pick>;

struct Config {
  unsigned nr_cpu_ids = 64;
};

}  // namespace diffsched::pick
