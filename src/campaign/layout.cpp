#include "campaign/layout.h"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "campaign/util.h"
#include "util/owned_dir.h"
#include "util/text.h"

namespace diffsched::campaign {

fs::path TargetLayout::engine_log(std::size_t k) const {
  return k == 0 ? log : dir / fmt::format("engine-{}.log", k);
}

fs::path TargetLayout::afl_queue_copy(const AflInstance& instance, const fs::path& file) const {
  return afl_queue / fmt::format("{}-{}", instance.name(), file.filename().string());
}

fs::path TargetLayout::afl_crash_copy(const AflInstance& instance, const fs::path& file) const {
  return crashes / fmt::format("afl-{}-{}", instance.name(), file.filename().string());
}

std::string TargetLayout::staging_prefix() const { return "." + target + ".merge-"; }

fs::path TargetLayout::staging(long pid) const {
  return corpus.parent_path() / fmt::format("{}{}", staging_prefix(), pid);
}

fs::path Layout::build_log(std::string_view preset) const {
  return out / fmt::format("build-{}.log", preset);
}

fs::path Layout::reproducer(std::string_view target, unsigned serial, std::string_view ext) const {
  return findings() / fmt::format("{}-{}{}", target, serial, ext);
}

TargetLayout Layout::target(std::string_view name) const {
  TargetLayout t;
  t.target = std::string(name);
  t.dir = work() / t.target;
  t.found = t.dir / "found";
  t.crashes = t.dir / "crashes";
  t.log = t.dir / "engine.log";
  t.afl_out = t.dir / "afl";
  t.afl_queue = t.dir / "afl-queue";
  t.merge_log = t.dir / "merge.log";
  t.corpus = corpus / t.target;
  return t;
}

bool Layout::owned(std::string_view entry) {
  return entry == kMarker || std::find(std::begin(kOwned), std::end(kOwned), entry) != std::end(kOwned);
}

bool prepare_out(const Layout& layout, bool force, std::string* error,
                 const std::vector<fs::path>& inputs) {
  std::error_code ec;
  // The marker is the campaign's manifest (util::OwnedDir). One an older
  // diffsched wrote (a line of prose) still marks a campaign's directory.
  std::string mode;
  const bool legacy = fs::is_regular_file(layout.marker(), ec) &&
                      (util::parse_manifest(util::read_text(layout.marker()), &mode), mode.empty());
  std::vector<util::OwnedEntry> claim;
  for (const auto name : Layout::kOwned)
    claim.push_back({name.find('.') == std::string_view::npos ? util::OwnedEntry::kTree
                                                              : util::OwnedEntry::kFile,
                     fs::path(name)});
  std::vector<fs::path> protect = inputs;
  protect.push_back(layout.corpus);
  util::OwnedDir out;
  if (!out.open(layout.out,
                {.manifest = std::string(Layout::kMarker), .mode = "campaign", .option = "--out",
                 .what = "a campaign's output directory",
                 .inputs = protect, .claim = claim, .force = force || legacy},
                error) ||
      !out.clean(error))
    return false;
  fs::create_directories(layout.corpus, ec);
  if (ec) {
    *error = fmt::format("--corpus {}: cannot create the directory: {}", layout.corpus.string(),
                         ec.message());
    return false;
  }
  for (const auto& e : claim) e.kind == util::OwnedEntry::kTree ? out.tree(e.rel) : out.file(e.rel);
  if (!out.ok(error)) {
    *error = fmt::format("--out {}: {}", layout.out.string(), *error);
    return false;
  }
  return true;
}

void prepare_target(const TargetLayout& t, const fs::path& seeds) {
  std::error_code ec;
  fs::remove_all(t.dir, ec);
  fs::create_directories(t.found, ec);
  fs::create_directories(t.crashes, ec);
  if (!fs::exists(fs::symlink_status(t.corpus, ec))) {
    fs::create_directories(t.corpus, ec);
    for (const auto& f : regular_files(seeds)) fs::copy_file(f, t.corpus / f.filename(), ec);
  }
  for (const auto& e : fs::directory_iterator(t.corpus.parent_path(), ec))
    if (e.path().filename().string().starts_with(t.staging_prefix())) fs::remove_all(e.path(), ec);
}

}  // namespace diffsched::campaign
