// Property (expected to fail): the hole-based cpudl heap equals the swap-based
// one at the exact level (same slots, back-pointers, free mask). It does not
// with equal deadlines, so this target is a self-check: libFuzzer must find
// the known tie divergence within seconds.
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target("cpudl_exact");
  return diffsched::fuzz_one(*target, {data, size});
}
