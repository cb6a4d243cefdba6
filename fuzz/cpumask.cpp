// Property: the kernel cpumask model (set/clear/test, and, first, next,
// first_and, first_and_and, weight, empty, for_each_cpu_and) matches a naive
// std::bitset on every op, and never sets a bit at or beyond nr_cpu_ids.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target("cpumask");
  return diffsched::fuzz_one(*target, {data, size});
}
