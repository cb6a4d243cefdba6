#include "campaign/arguments.h"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

namespace diffsched::campaign {

namespace fs = std::filesystem;

std::optional<std::vector<const FuzzTarget*>> resolve_targets(const CampaignOptions& o,
                                                              std::string* error) {
  std::vector<const FuzzTarget*> targets;
  if (o.targets.empty())
    for (const auto& t : kFuzzTargets) targets.push_back(&t);
  for (const auto& name : o.targets) {
    const FuzzTarget* t = find_target(name);
    if (!t) {
      *error = fmt::format("unknown target '{}' (known: {})", name, target_names());
      return std::nullopt;
    }
    // Twice would run twice in one work directory (issue 22): refused.
    if (std::find(targets.begin(), targets.end(), t) != targets.end()) {
      *error = fmt::format("--targets: '{}' is given twice (name each target once)", name);
      return std::nullopt;
    }
    targets.push_back(t);
  }
  return targets;
}

namespace {

// A directory given by `flag`: if it exists it must be a writable directory
// (`writable`), else it must be absent (and is created later) or, with
// !may_create, an error.
bool check_dir_arg(std::string_view flag, const fs::path& dir, bool may_create, bool writable,
                   std::string* error) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory) {
    // a symlink loop, no permission: said as it is, not as an overlap
    *error = fmt::format("{} {}: {}", flag, dir.string(), ec.message());
    return false;
  }
  if (fs::is_directory(st)) {
    if (writable && ::access(dir.c_str(), W_OK | X_OK) != 0) {
      *error = fmt::format("{} {}: directory is not writable", flag, dir.string());
      return false;
    }
    return true;
  }
  if (fs::exists(st)) {
    *error = fmt::format("{} {}: not a directory (expected a directory{})", flag, dir.string(),
                         may_create ? ", or a path where one can be created" : "");
    return false;
  }
  if (!may_create) {
    *error = fmt::format("{} {}: no such directory", flag, dir.string());
    return false;
  }
  fs::path existing = fs::absolute(dir, ec);  // the nearest existing ancestor
  while (!fs::exists(existing, ec) && existing.has_relative_path())
    existing = existing.parent_path();
  if (!fs::is_directory(existing, ec)) {
    *error = fmt::format("{} {}: cannot create the directory: {} is not a directory", flag,
                         dir.string(), existing.string());
    return false;
  }
  return true;
}

}  // namespace

bool check_binary_dir(std::string_view flag, const fs::path& dir, std::string_view preset,
                      const std::vector<const FuzzTarget*>& targets, std::string* error) {
  if (!check_dir_arg(flag, dir, false, false, error)) return false;
  for (const FuzzTarget* t : targets) {
    const fs::path bin = dir / std::string(t->name);
    std::error_code ec;
    if (!fs::is_regular_file(bin, ec) || ::access(bin.c_str(), X_OK) != 0) {
      *error = fmt::format("{} {}: no executable fuzz binary '{}' in it (expected the {} "
                           "preset's binaries, build-{}/fuzz)",
                           flag, dir.string(), t->name, preset, preset);
      return false;
    }
  }
  return true;
}

namespace {

// True if `inner` is `outer` or lies below it.
bool path_within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(inner, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(outer, ec), ec);
  auto ia = a.begin();
  for (auto ib = b.begin(); ib != b.end(); ++ib, ++ia)
    if (ib->empty() && std::next(ib) == b.end()) return true;  // trailing "/"
    else if (ia == a.end() || *ia != *ib) return false;
  return true;
}

}  // namespace

bool check_paths(const CampaignOptions& o, const std::vector<const FuzzTarget*>& targets,
                 std::string* error) {
  if (!o.fuzz_dir.empty() && !check_binary_dir("--fuzz-dir", o.fuzz_dir, "fuzz", targets, error))
    return false;
  if (!o.afl_dir.empty() && o.engine != "afl") {
    *error = fmt::format("--afl-dir {}: only used with --engine afl", o.afl_dir.string());
    return false;
  }
  if (!o.afl_dir.empty() && !check_binary_dir("--afl-dir", o.afl_dir, "afl", targets, error))
    return false;
  if (!check_dir_arg("--corpus", o.corpus, true, true, error) ||
      !check_dir_arg("--out", o.out, true, true, error))
    return false;
  bool overlap = path_within(o.out, o.corpus) && path_within(o.corpus, o.out);  // the same
  for (const FuzzTarget* t : targets) {
    if (!check_dir_arg("--corpus", o.corpus / std::string(t->name), true, true, error)) return false;
    overlap = overlap || path_within(o.out, o.corpus / std::string(t->name));
  }
  for (const auto owned : {"work", "findings"})
    overlap = overlap || path_within(o.corpus, o.out / owned);
  if (overlap) {
    *error = fmt::format("--out {} and --corpus {} overlap (give them separate directories)",
                         o.out.string(), o.corpus.string());
    return false;
  }
  return true;
}

}  // namespace diffsched::campaign
