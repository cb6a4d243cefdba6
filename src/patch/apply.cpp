// patch::stage: the base and each patch applied, in a directory of ours (apply.h).
#include <algorithm>
#include <fstream>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "patch/apply.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::patch {

namespace {

// Runs argv with its output into `log`; the exit status (-1: could not start).
int run(const std::vector<std::string>& argv, const fs::path& log, double deadline,
        const fs::path& cwd = {}) {
  return tools::run({.argv = argv, .log = log, .cwd = cwd, .deadline = deadline, .stdin_null = true});
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// The first line of a log, for an error message.
std::string first_line(const fs::path& log) {
  std::string t = util::read_text(log);
  if (const auto nl = t.find('\n'); nl != std::string::npos) t.resize(nl);
  return t.size() > 160 ? t.substr(0, 160) + "..." : t;
}

bool write_text(const fs::path& file, const std::string& text) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream f(file, std::ios::binary | std::ios::trunc);
  f << text;
  f.flush();
  return static_cast<bool>(f);
}

// The tree is the top of a git work tree (not a folder inside another repository).
bool is_git_top(const fs::path& tree, const StageDir& scratch, double deadline) {
  const fs::path log = scratch.git_toplevel_log();
  if (run({"git", "-C", tree.string(), "rev-parse", "--show-toplevel"}, log, deadline) != 0) return false;
  std::error_code ec1, ec2;
  return fs::equivalent(trimmed(util::read_text(log)), tree, ec1) && !ec1 && !ec2;
}

// The commit REV names in the tree, or "".
std::string resolve(const fs::path& tree, const std::string& rev, const StageDir& scratch,
                    double deadline) {
  const fs::path log = scratch.git_rev_parse_log();
  if (run({"git", "-C", tree.string(), "rev-parse", "--verify", "--quiet", "--end-of-options",
           rev + "^{commit}"},
          log, deadline) != 0)
    return {};
  return trimmed(util::read_text(log));
}

// Every path the series reads from its base: each file's old path that no
// earlier patch of the series created.
std::vector<std::string> base_paths(const Series& series) {
  std::set<std::string> created, out;
  for (const Patch& p : series.patches)
    for (const FileDiff& f : p.files) {
      if (!f.old_path.empty() && !created.count(f.old_path)) out.insert(f.old_path);
      if (f.is_new) created.insert(f.new_path);
    }
  return {out.begin(), out.end()};
}

// The tree's top Makefile is staged beside the files the series reads (when
// no patch names it): its VERSION and PATCHLEVEL tell diffsched fn which
// kernel the staged files are (fn/era.h, tree_version); a patch that bumps
// them changes the patched state's.
bool series_names(const Series& series, const std::string& path) {
  for (const Patch& p : series.patches)
    for (const FileDiff& f : p.files)
      if (f.old_path == path || f.new_path == path) return true;
  return false;
}

// Best effort: a Makefile missing, not a regular file or unreadable is left
// out (fn then chooses the era as for a file outside a tree).
void stage_makefile(const StageOptions& o, const fs::path& base, const std::string& commit,
                    double deadline) {
  const fs::path to = base / "Makefile";
  std::error_code ec;
  if (!commit.empty()) {
    if (run({"git", "-C", o.tree.string(), "cat-file", "blob", commit + ":Makefile"}, to, deadline) != 0)
      fs::remove(to, ec);
  } else if (fs::is_regular_file(o.tree / "Makefile", ec)) {
    fs::copy_file(o.tree / "Makefile", to, fs::copy_options::overwrite_existing, ec);
    if (ec) fs::remove(to, ec);
  }
}

std::string stage_base(const Series& series, const StageOptions& o, const fs::path& base,
                       const std::string& commit, double deadline) {
  for (const std::string& path : base_paths(series)) {
    const fs::path to = base / path;
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (!commit.empty()) {
      // `git cat-file blob COMMIT:PATH` into the file; a missing one is left
      // out (the patch that needs it then fails and is named).
      if (run({"git", "-C", o.tree.string(), "cat-file", "blob", commit + ":" + path}, to, deadline) != 0)
        fs::remove(to, ec);
      continue;
    }
    const fs::path from = o.tree / path;
    if (!fs::exists(from, ec)) continue;
    if (!fs::is_regular_file(from, ec))
      return fmt::format("{} in the tree {} is not a regular file", path, o.tree.string());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec) return fmt::format("cannot copy {}: {}", from.string(), ec.message());
  }
  if (!series_names(series, "Makefile")) stage_makefile(o, base, commit, deadline);
  return {};
}

// Names the first hunk of patch `p` that does not apply to `dir`: each
// file's hunks are tried cumulatively (up to hunk h) in a dry run.
std::string failing_hunk(const Patch& p, std::size_t index, const fs::path& dir,
                         const StageDir& scratch, double deadline) {
  for (std::size_t f = 0; f < p.files.size(); ++f)
    for (std::size_t h = 0; h < p.files[f].hunks.size(); ++h) {
      const fs::path diff = scratch.one_hunk_diff();
      write_text(diff, unified_diff(p, static_cast<long>(f), static_cast<long>(h)));
      const int rc = run({"patch", "-p1", "--dry-run", "--batch", "--forward", "--fuzz=0", "-s",
                          "-d", dir.string(), "-i", diff.string()},
                         scratch.one_hunk_log(), deadline);
      if (rc != 0)
        return fmt::format("patch {} does not apply: {} hunk {} '{}'", index, p.files[f].path(),
                           h + 1, p.files[f].hunks[h].header);
    }
  return fmt::format("patch {} does not apply: {}", index, first_line(scratch.patch_log()));
}

// git's renames and copies of patch k, in `dir` (a copy of the state before
// it): the old file moved or copied to the new path, before any hunk.
std::string stage_renames(const Patch& p, std::size_t k, const fs::path& dir) {
  for (const FileDiff& f : p.files) {
    if (!f.is_rename && !f.is_copy) continue;
    std::error_code ec;
    const fs::path from = dir / f.old_path, to = dir / f.new_path;
    if (!fs::is_regular_file(from, ec))
      return fmt::format("patch {} {}s {}, which is not in the tree", k, f.is_rename ? "rename" : "copie",
                         f.old_path);
    if (fs::exists(to, ec))
      return fmt::format("patch {} {}s {} to {}, which is already in the tree", k,
                         f.is_rename ? "rename" : "copie", f.old_path, f.new_path);
    fs::create_directories(to.parent_path(), ec);
    if (f.is_rename) fs::rename(from, to, ec);
    else fs::copy_file(from, to, ec);
    if (ec) return fmt::format("patch {}: cannot stage {} -> {}: {}", k, f.old_path, f.new_path, ec.message());
  }
  return {};
}

std::string copy_state(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  return ec ? fmt::format("cannot copy {} to {}: {}", from.string(), to.string(), ec.message()) : "";
}

std::string choose_base(const Series& series, const StageOptions& o, Staged* out, std::string* commit) {
  const StageDir scratch{o.root};
  const bool git = is_git_top(o.tree, scratch, o.deadline);
  const std::string& stated = series.patches.front().base_commit;
  if (!stated.empty() && git) {
    *commit = resolve(o.tree, stated, scratch, o.deadline);
    if (commit->empty())
      return fmt::format("the patch's base-commit {} is not in the git tree {} (fetch it, or "
                         "check against another base with --base REV after removing the line)",
                         stated, o.tree.string());
    out->base_desc = fmt::format("base-commit {} (from the patch)", *commit);
    if (!o.base.empty()) out->notes.push_back(fmt::format("--base {} not used: the patch states its base-commit", o.base));
    return {};
  }
  if (!stated.empty())
    out->notes.push_back(fmt::format("base-commit {} not used: {} is not the top of a git tree",
                                     stated, o.tree.string()));
  if (!o.base.empty()) {
    if (!git) return fmt::format("--base {}: {} is not the top of a git tree", o.base, o.tree.string());
    *commit = resolve(o.tree, o.base, scratch, o.deadline);
    if (commit->empty()) return fmt::format("--base {} is not a commit of the git tree {}", o.base, o.tree.string());
    out->base_desc = fmt::format("--base {} ({})", o.base, *commit);
    return {};
  }
  out->base_desc = "the tree as it is";
  return {};
}

}  // namespace

std::string stage(const Series& series, const StageOptions& o, Staged* out) {
  std::error_code ec;
  out->root = o.root;
  const StageDir scratch{o.root};
  if (!fs::is_directory(o.tree, ec)) return fmt::format("the tree {} is not a directory", o.tree.string());
  if (series.patches.empty()) return "no patch to apply";
  fs::create_directories(o.root, ec);
  if (ec) return fmt::format("cannot create {}: {}", o.root.string(), ec.message());
  for (const Patch& p : series.patches)
    for (const FileDiff& f : p.files)
      if (f.binary) return fmt::format("{}: a binary diff, which check-patch cannot apply", f.path());
  std::string commit;
  if (std::string e = choose_base(series, o, out, &commit); !e.empty()) return e;
  fs::create_directories(out->state(0), ec);
  if (std::string e = stage_base(series, o, out->state(0), commit, o.deadline); !e.empty()) return e;
  for (std::size_t k = 1; k <= series.patches.size(); ++k) {
    const Patch& p = series.patches[k - 1];
    const fs::path dir = out->state(k);
    if (std::string e = copy_state(out->state(k - 1), dir); !e.empty()) return e;
    if (std::string e = stage_renames(p, k, dir); !e.empty()) return e;
    const fs::path diff = scratch.patch_diff(k);
    const std::string text = unified_diff(p);
    if (text.empty()) continue;  // only mode changes or renames: no content changes
    if (!write_text(diff, text)) return fmt::format("cannot write {}", diff.string());
    const std::vector<std::string> common = {"patch", "-p1", "--batch", "--forward", "--fuzz=0",
                                             "-s", "--no-backup-if-mismatch", "-d", dir.string(),
                                             "-i", diff.string()};
    std::vector<std::string> dry = common;
    dry.insert(dry.begin() + 1, "--dry-run");
    const fs::path log = scratch.patch_log();
    const int rc = run(dry, log, o.deadline);
    if (rc == -1 || rc == tools::kExitNotExecuted) return "cannot run patch (install GNU patch)";
    if (rc != 0) return failing_hunk(p, k, dir, scratch, o.deadline);  // dir: renames staged, no hunk
    if (run(common, log, o.deadline) != 0)
      return fmt::format("patch {} did not apply after its dry run: {}", k, first_line(log));
  }
  out->patches = series.patches.size();
  return {};
}

}  // namespace diffsched::patch
