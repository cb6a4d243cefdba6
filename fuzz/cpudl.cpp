// Property: for every op sequence in the window deadline domain, the
// hole-based cpudl heap (seed 000, v4.9+) equals the swap-based one at the
// deadline level (membership, deadline per CPU, maximum, find's answer), every
// invariant holds on both, and both agree with the cpu -> deadline model.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target("cpudl");
  return diffsched::fuzz_one(*target, {data, size});
}
