// Kernel scalar types and build-time constants, as in include/linux/types.h
// and a typical x86_64 distribution config (CONFIG_NR_CPUS=8192).
#pragma once

#include <cstdint>

namespace diffsched::kernel {

using u64 = std::uint64_t;
using s64 = std::int64_t;

// CONFIG_NR_CPUS of a large distribution kernel; struct cpumask always holds
// this many bits, whatever nr_cpu_ids is at run time.
inline constexpr unsigned NR_CPUS = 8192;
inline constexpr unsigned BITS_PER_LONG = 64;
static_assert(sizeof(unsigned long) * 8 == BITS_PER_LONG,
              "diffsched models an LP64 kernel");

constexpr unsigned BITS_TO_LONGS(unsigned nr) {
  return (nr + BITS_PER_LONG - 1) / BITS_PER_LONG;
}

}  // namespace diffsched::kernel
