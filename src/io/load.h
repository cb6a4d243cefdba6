// Loading an input file of any form into a program.
//
//   std::string error;
//   auto p = load_program("crash-1234", find_target("cpudl"), &error);
//
//   - a file starting with "DSCH" is the binary file form (version checked);
//   - with a target, any other file is that target's raw fuzzer input (a body);
//   - otherwise it is .ops text.
// Errors are one line: missing, empty, truncated, wrong version, bad line.
#pragma once

#include <optional>
#include <string>

#include "io/program.h"
#include "targets.h"

namespace diffsched::io {

std::optional<AnyProgram> load_program(const std::string& path, const FuzzTarget* target,
                                       std::string* error);

// Writes bytes or text; false with a reason.
bool write_file(const std::string& path, std::string_view contents, std::string* error);

}  // namespace diffsched::io
