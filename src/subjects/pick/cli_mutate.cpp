// `diffsched mutate pick`'s own options (cli/mutate.h): the function under test.
#include "cli/mutate.h"
#include "subjects.h"

namespace diffsched::cli {

template <>
void add_mutate_form_options<pick::Subject>(CLI::App& cmd, MutateFormOptions& o) {
  cmd.add_option("--function", o.function, "the pick function (default select_dst_cpu)");
}

// A pick file's headers are the shim's own.
template <>
std::filesystem::path mutate_header_beside<pick::Subject>(const std::filesystem::path&) {
  return {};
}

}  // namespace diffsched::cli
