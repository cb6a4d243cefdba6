// Property: for all masks and nr_cpu_ids, the reference loop, the optimized
// two-cpumask_and pick (seed 004) and the fused cpumask_first_and_and pick
// (v6.15) return the same CPU: the first in all three masks, or nr_cpu_ids.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target("pick");
  return diffsched::fuzz_one(*target, {data, size});
}
