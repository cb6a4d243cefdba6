// `diffsched mutate SUBJECT`: the options that depend on the candidate's
// form are the subject package's (src/subjects/<name>/cli_mutate.cpp, the
// specialisation of add_mutate_form_options<S>); cmd_mutate.cpp adds the
// common ones and calls it for each subject of ToolSubjects (a missing one is
// a link error).
#pragma once

#include <filesystem>
#include <string>

#include "cli/commands.h"

namespace diffsched::cli {

struct MutateFormOptions {
  std::string function = "select_dst_cpu";  // pick: the function under test (--function)
  std::string api, header;                  // cpudl: kernel-check's --api and --header
  std::string capacity = "auto";            // cpudl: auto, off, or kernel-check's --capacity
};

template <class S>
void add_mutate_form_options(CLI::App& cmd, MutateFormOptions& o);
// The header kernel-check would stage beside `candidate` without --header
// (cpudl: its directory's cpudeadline.h), or an empty path.
template <class S>
std::filesystem::path mutate_header_beside(const std::filesystem::path& candidate);

}  // namespace diffsched::cli
