#include <filesystem>

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

std::string self_command() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "diffsched";
  const auto rel = std::filesystem::relative(self, std::filesystem::current_path(), ec);
  if (!ec && !rel.empty() && !rel.string().starts_with(".."))
    return rel.string().find('/') == std::string::npos ? "./" + rel.string() : rel.string();
  return self.string();
}

}  // namespace diffsched::cli
