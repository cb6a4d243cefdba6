// Every path of check-patch's work directory, named once (as
// campaign/layout.h names a campaign's):
//
//   WORK/states/                   the staged series (StageDir)
//     state-<k>/                   the files after patch k (0: the base)
//     patch-<k>.diff, patch.log    patch k as applied, `patch`'s output
//     one-hunk.diff, one-hunk.log  a dry run up to one hunk (naming the one that fails)
//     git-toplevel.log, git-rev-parse.log   the git questions about the tree
//   WORK/checks/                   one entry per check (ChecksDir)
//     <id>/, <id>.verdict.json, <id>.min.ops, <id>.log   a kernel-check child
//     <name>-fn-<function>[-exhaustive]/   an fn child (FnCheckDir)
//     applied.diff                 a change as applied (diff -u -N of two states)
//
//   const WorkDir w{work};
//   stage(series, {.tree = tree, .root = w.states()}, &staged);
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace diffsched::patch {

// Where patch::stage() stages a series (StageOptions::root).
struct StageDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path state(std::size_t k) const { return dir / fmt::format("state-{}", k); }
  path patch_diff(std::size_t k) const { return dir / fmt::format("patch-{}.diff", k); }
  path patch_log() const { return dir / "patch.log"; }
  path one_hunk_diff() const { return dir / "one-hunk.diff"; }
  path one_hunk_log() const { return dir / "one-hunk.log"; }
  path git_toplevel_log() const { return dir / "git-toplevel.log"; }
  path git_rev_parse_log() const { return dir / "git-rev-parse.log"; }
};

// An fn child's directory (FnCall::work).
struct FnCheckDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path verdict() const { return dir / "fn.verdict.json"; }
  path log() const { return dir / "fn.log"; }
  // fn --exhaustive beside it.
  FnCheckDir exhaustive() const { return {dir.string() + "-exhaustive"}; }
};

// The checks' directory.
struct ChecksDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  // A kernel-check child `id`: its --work-dir, --verdict-json, -o and output.
  path kernel_check(const std::string& id) const { return dir / id; }
  path verdict(const std::string& id) const { return dir / (id + ".verdict.json"); }
  path minimized(const std::string& id) const { return dir / (id + ".min.ops"); }
  path log(const std::string& id) const { return dir / (id + ".log"); }
  FnCheckDir fn(std::string_view name, std::string_view function) const {
    return {dir / fmt::format("{}-fn-{}", name, function)};
  }
  path applied_diff() const { return dir / "applied.diff"; }
};

// check-patch's work directory (--work-dir, or a temporary one).
struct WorkDir {
  std::filesystem::path dir;

  // mkdtemp's template under the temporary directory.
  static constexpr std::string_view kTemplate = "diffsched-check-patch-XXXXXX";
  StageDir states() const { return {dir / "states"}; }
  ChecksDir checks() const { return {dir / "checks"}; }
};

}  // namespace diffsched::patch
