// Property: any bytes given to the input front end (src/io: text parser,
// binary file and raw body loaders, with and without a target) come out as a
// program or a one-line error, never a crash, hang or unbounded allocation;
// and a loaded program's .ops text and binary file read back to the same
// program (io::check_loading).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto* target = diffsched::find_target("inputs");
  return diffsched::fuzz_one(*target, {data, size});
}
