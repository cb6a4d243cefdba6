// The one libFuzzer entry point, built once per fuzz target of the registry
// (src/registry.def) with DIFFSCHED_FUZZ_TARGET set to the target's name; the
// property each target checks is written there, next to its name.
#include "targets.h"

#ifndef DIFFSCHED_FUZZ_TARGET
#error "build with -DDIFFSCHED_FUZZ_TARGET=\"name\" (fuzz/CMakeLists.txt does)"
#endif

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  diffsched::init_fuzz_target(*argc, *argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target(DIFFSCHED_FUZZ_TARGET);
  return diffsched::fuzz_one(*target, {data, size});
}
