#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"
#include "io/load.h"
#include "util/text.h"

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

std::unique_ptr<io::Input> open_input(const std::string& path, const io::LoadOptions& options) {
  std::string error;
  auto in = io::Input::open(path, options, &error);
  if (!in) fmt::print(stderr, "diffsched: error: {}\n", error);
  return in;
}

std::optional<io::AnyProgram> load_input(const std::string& path, const io::LoadOptions& options) {
  std::string error;
  auto program = io::load_program(path, options, &error);
  if (!program) fmt::print(stderr, "diffsched: error: {}\n", error);
  return program;
}

bool check_level(const std::string& name, std::string_view subject, Level level) {
  if (io::subject_has_level(subject, level)) return true;
  fmt::print(stderr,
             "diffsched: error: --level {} means nothing for {} (subject {}; its levels: {})\n",
             level_name(level), name, subject, io::subject_levels(subject));
  return false;
}

void add_max_input_bytes(CLI::App* sub, std::size_t* max_bytes) {
  sub->add_option("--max-input-bytes", *max_bytes,
                  "most bytes of a binary or raw input, and most memory of ops held whole "
                  "(sizes like 256MiB; .ops text that is streamed has no cap)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
}

std::string self_command() { return util::self_command(); }

}  // namespace diffsched::cli
