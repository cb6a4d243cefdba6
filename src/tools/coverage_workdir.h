// Every path of `diffsched coverage`, named once (as campaign/layout.h names
// a campaign's): the coverage preset's binary and its work directory. The
// corpus it replays (--corpus, default SOURCE/corpus) is a CorpusTree
// (kcheck/work.h).
//
//   const CoverageWork w{options.work};
//   run({.argv = merge, .log = w.merge_log()});
//
//   CORPUS/<target>/                 raw inputs, replayed with --target
//   CORPUS/seeds/<target>/*.ops      seeds
//   CORPUS/regressions/<subject>/*.ops   regressions (--check-expect)
//   build-coverage/diffsched         the instrumented CLI
//   build-coverage/diffsched-coverage/   the work directory (CoverageWork):
//     build.log, replay-<n>.log      building the preset, each replay batch
//     profiles/<pid>.profraw         the replays' raw profiles
//     merged.profdata, merge.log     llvm-profdata merge
//     export.json, export.log        llvm-cov export (stdout, stderr)
//     html/, html.log                llvm-cov show -format=html (default --html)
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "kcheck/work.h"
#include "tools/process.h"

namespace diffsched::tools {

// The coverage preset's build tree and coverage's work directory in it.
struct CoverageWork {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static path binary() { return preset_dir("coverage") / "diffsched"; }
  static CoverageWork default_dir() { return {preset_dir("coverage") / "diffsched-coverage"}; }
  path build_log() const { return dir / "build.log"; }
  path profiles() const { return dir / "profiles"; }
  // LLVM_PROFILE_FILE: one raw profile per replay process.
  path profile_pattern() const { return profiles() / "%p.profraw"; }
  path replay_log(std::size_t n) const { return dir / fmt::format("replay-{}.log", n); }
  path merged_profdata() const { return dir / "merged.profdata"; }
  path merge_log() const { return dir / "merge.log"; }
  path export_json() const { return dir / "export.json"; }
  path export_log() const { return dir / "export.log"; }
  path html() const { return dir / "html"; }  // the default --html
  path html_log() const { return dir / "html.log"; }
  static path html_index(const path& html) { return html / "index.html"; }
};

}  // namespace diffsched::tools
