// Applying a series without touching the user's tree (issue 25 section 1).
//
//   patch::Staged s;
//   if (std::string e = patch::stage(series, {.tree = dir, .base = rev, .root = tmp}, &s); !e.empty())
//     fail(e);                                   // one line
//   s.state(0) / "kernel/sched/cpudeadline.c"    // the base version
//   s.state(k) / "kernel/sched/cpudeadline.c"    // after patch k (1-based)
//
// Only the files the series touches are taken, and the tree's top Makefile
// when no patch names it (best effort: its VERSION and PATCHLEVEL set
// diffsched fn's era, fn/era.h). The base, in this order:
//   1. the first patch's `base-commit:` line, when the tree is a git
//      repository: the files as that commit has them (git cat-file); a
//      commit the repository does not have is an error, never a guess;
//   2. `--base REV` (a git tree only): the files at REV;
//   3. the tree as it is (files copied).
// Each patch is then applied to a copy of the state before it with
// `patch -p1 --dry-run`, then for real (both through tools::Command with a
// deadline). A hunk that does not apply is named: the file and its @@ line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "patch/patch.h"
#include "patch/workdir.h"

namespace diffsched::patch {

namespace fs = std::filesystem;

struct StageOptions {
  fs::path tree;      // the user's tree (read only)
  std::string base;   // --base REV, "" if not given
  fs::path root;      // an empty directory of ours (StageDir): states go in root/state-K
  double deadline = 60;  // seconds for each git or patch process
};

struct Staged {
  fs::path root;
  std::string base_desc;   // "base-commit 1a2b3c (from the patch)", "--base v6.1 (1a2b..)", "the tree as it is"
  std::vector<std::string> notes;  // e.g. "base-commit X not used: DIR is not a git tree"
  std::size_t patches = 0;
  // The directory of state k: 0 the base, k after patch k.
  fs::path state(std::size_t k) const { return StageDir{root}.state(k); }
};

// Stages the base and applies each patch. "" on success, else one line.
std::string stage(const Series& series, const StageOptions& options, Staged* out);

// `diffsched fn --git A..B` (git_range.cpp): the change of a commit range of
// the git tree that holds `dir`, as one plain diff (`git diff A B`, a/ b/
// prefixes, no rename detection, no external diff) written to `out`; *top
// is the top of that work tree and *base A's commit (B empty: HEAD). The
// diff is then staged like any patch, with *base as --base. "" on success,
// else one line (not a git tree, a range that is not A..B, a revision that
// is not a commit, an empty change).
std::string git_range_diff(const fs::path& dir, const std::string& range, const fs::path& out,
                           fs::path* top, std::string* base, double deadline = 60);

}  // namespace diffsched::patch
