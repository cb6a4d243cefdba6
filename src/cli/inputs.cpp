#include <fmt/format.h>

#include "cli/commands.h"
#include "io/load.h"

namespace diffsched::cli {

bool resolve_target(const std::string& name, const FuzzTarget** out) {
  *out = nullptr;
  if (name.empty()) return true;
  *out = find_target(name);
  if (!*out)
    fmt::print(stderr, "diffsched: error: unknown target '{}' (known: {})\n", name,
               target_names());
  return *out != nullptr;
}

std::optional<io::AnyProgram> load_input(const std::string& path, const FuzzTarget* target) {
  std::string error;
  auto program = io::load_program(path, target, &error);
  if (!program) fmt::print(stderr, "diffsched: error: {}\n", error);
  return program;
}

}  // namespace diffsched::cli
