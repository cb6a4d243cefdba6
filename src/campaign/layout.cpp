#include "campaign/layout.h"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "campaign/util.h"

namespace diffsched::campaign {

fs::path TargetLayout::engine_log(std::size_t k) const {
  return k == 0 ? log : dir / fmt::format("engine-{}.log", k);
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

bool prepare_out(const Layout& layout, bool force, std::string* error) {
  std::error_code ec;
  std::vector<std::string> foreign;
  bool marked = false;
  for (const auto& e : fs::directory_iterator(layout.out, ec)) {
    const std::string name = e.path().filename().string();
    marked = marked || name == Layout::kMarker;
    if (!Layout::owned(name)) foreign.push_back(name);
  }
  std::sort(foreign.begin(), foreign.end());
  if (!marked && !foreign.empty() && !force) {
    *error = fmt::format(
        "--out {}: not empty and not a campaign's output directory (it holds '{}'); give a new "
        "or empty directory, or --force to replace only the campaign's files in it ({})",
        layout.out.string(), foreign.front(), fmt::join(Layout::kOwned, ", "));
    return false;
  }
  fs::create_directories(layout.corpus, ec);
  if (ec) {
    *error = fmt::format("--corpus {}: cannot create the directory: {}", layout.corpus.string(),
                         ec.message());
    return false;
  }
  for (const auto name : Layout::kOwned) fs::remove_all(layout.out / name, ec);
  fs::create_directories(layout.findings(), ec);
  if (!ec) fs::create_directories(layout.work(), ec);
  if (!ec)
    std::ofstream(layout.marker()) << "diffsched campaign output directory: a later "
                                      "campaign with this --out replaces "
                                   << fmt::format("{}\n", fmt::join(Layout::kOwned, ", "));
  if (ec) {
    *error = fmt::format("--out {}: cannot create the directory: {}", layout.out.string(),
                         ec.message());
    return false;
  }
  return true;
}

void prepare_target(const TargetLayout& t, const fs::path& seeds) {
  std::error_code ec;
  fs::remove_all(t.dir, ec);
  fs::create_directories(t.found, ec);
  fs::create_directories(t.crashes, ec);
  if (!fs::exists(t.corpus)) {
    fs::create_directories(t.corpus, ec);
    for (const auto& f : regular_files(seeds)) fs::copy_file(f, t.corpus / f.filename(), ec);
  }
  for (const auto& e : fs::directory_iterator(t.corpus.parent_path(), ec))
    if (e.path().filename().string().starts_with(t.staging_prefix())) fs::remove_all(e.path(), ec);
}

}  // namespace diffsched::campaign
