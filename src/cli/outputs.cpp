// Option checks shared by the subcommands: output paths that never clobber
// an input, the fixed value lists, the version string.
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.h"

#ifndef DIFFSCHED_VERSION
#define DIFFSCHED_VERSION "0.0.0"
#endif
#ifndef DIFFSCHED_GIT_DESCRIBE
#define DIFFSCHED_GIT_DESCRIBE ""
#endif

namespace diffsched::cli {

namespace fs = std::filesystem;

CLI::Validator output_file(bool stdout_ok) {
  return CLI::Validator(
      [stdout_ok](std::string& name) -> std::string {
        if (name.empty()) return "empty file name";
        if (name == "-")
          return stdout_ok ? std::string()
                           : std::string("'-' (standard output) is not supported here; name a file");
        std::error_code ec;
        if (fs::is_directory(name, ec)) return fmt::format("{} is a directory, not a file", name);
        if (name.ends_with('/')) return fmt::format("{} names a directory, not a file", name);
        return {};
      },
      stdout_ok ? "FILE|-" : "FILE");
}

namespace {

// True if a and b name the same file: the same inode when both exist (so
// symlinks and hard links count), else the same normalised path.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    const bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  const auto ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const auto cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return !ec && ca == cb;
}

}  // namespace

void check_outputs(const std::vector<std::string>& outputs,
                   const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string& out = outputs[i];
    if (out.empty() || out == "-") continue;
    for (const auto& in : inputs)
      if (!in.empty() && in != "-" && same_file(out, in))
        throw CLI::ValidationError(fmt::format(
            "output {} is the input {}: refusing to overwrite an input", out, in));
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].empty() && outputs[j] != "-" && same_file(out, outputs[j]))
        throw CLI::ValidationError(
            fmt::format("outputs {} and {} are the same file", outputs[j], out));
  }
}

CLI::Validator level_names() { return CLI::IsMember({"exact", "deadline"}); }

namespace {
CLI::Validator number_at_least(bool zero_ok) {
  return CLI::Validator(
      [zero_ok](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v) || std::isnan(v))
          return fmt::format("'{}' is not a number", text);
        if (v < 0 || (!zero_ok && v == 0))
          return fmt::format("must be {} 0, got '{}'", zero_ok ? "at least" : "greater than",
                             text);
        return {};
      },
      zero_ok ? "NUMBER>=0" : "NUMBER>0");
}
}  // namespace

CLI::Validator positive() { return number_at_least(false); }
CLI::Validator non_negative() { return number_at_least(true); }

CLI::Validator target_choice() {
  std::vector<std::string> names;
  const std::string all = target_names();
  for (std::size_t pos = 0; pos < all.size();) {
    const std::size_t comma = all.find(", ", pos);
    names.push_back(all.substr(pos, comma - pos));
    pos = comma == std::string::npos ? all.size() : comma + 2;
  }
  return CLI::IsMember(names);
}

int bad_input(const std::string& message) {
  fmt::print(stderr, "diffsched: error: {}\n", message);
  return kExitBadInput;
}

std::string version_string() {
  const std::string describe = DIFFSCHED_GIT_DESCRIBE;
  return fmt::format("diffsched {}{}", DIFFSCHED_VERSION,
                     describe.empty() ? std::string() : fmt::format(" (git {})", describe));
}

}  // namespace diffsched::cli
