// The one libFuzzer entry point, built once per fuzz target of the registry
// (src/registry.def) with DIFFSCHED_FUZZ_TARGET set to the target's name; the
// property each target checks is written there, next to its name.
#include "targets.h"

#ifdef DIFFSCHED_CUSTOM_MUTATOR
#include "mutator/mutator.h"
#endif

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

#ifdef DIFFSCHED_CUSTOM_MUTATOR
// libFuzzer only (its LLVMFuzzerMutate): mutations of the op list, half the
// time, else libFuzzer's own (src/mutator/mutator.h).
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  static const auto* target = diffsched::find_target(DIFFSCHED_FUZZ_TARGET);
  return diffsched::mutator::mutate_input(*target, data, size, max_size, seed,
                                          diffsched::mutator::options_from_env(LLVMFuzzerMutate));
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* a, std::size_t a_size,
                                                 const std::uint8_t* b, std::size_t b_size,
                                                 std::uint8_t* out, std::size_t max_out,
                                                 unsigned int seed) {
  static const auto* target = diffsched::find_target(DIFFSCHED_FUZZ_TARGET);
  return diffsched::mutator::cross_over_inputs(*target, {a, a_size}, {b, b_size}, out, max_out,
                                               seed, diffsched::mutator::options_from_env(LLVMFuzzerMutate));
}
#endif
