// `diffsched mutate cpudl`'s own options (cli/mutate.h): the file's form
// (kernel-check's --api, --header) and the capacities of its runs.
#include "cli/mutate.h"
#include "kcheck/work.h"
#include "subjects.h"

namespace diffsched::cli {

template <>
void add_mutate_form_options<cpudl::Subject>(CLI::App& cmd, MutateFormOptions& o) {
  cmd.add_option("--api", o.api, "kernel-check --api");
  cmd.add_option("--header", o.header, "kernel-check --header")->check(CLI::ExistingFile);
  cmd.add_option("--capacity", o.capacity,
                 "auto (default: 1024,512 when cpudl_find() has a capacity branch), off, or "
                 "kernel-check's --capacity LIST; the original file is then the baseline");
}

template <>
std::filesystem::path mutate_header_beside<cpudl::Subject>(const std::filesystem::path& candidate) {
  std::error_code e;
  const std::filesystem::path near = tools::CandidateStage::header_beside(candidate);
  return std::filesystem::exists(near, e) ? near : std::filesystem::path();
}

}  // namespace diffsched::cli
