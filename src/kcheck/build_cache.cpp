// The candidate build cache (kcheck/build_cache.h).
#include "kcheck/build_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <boost/uuid/detail/sha1.hpp>
#include <fmt/format.h>

#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::tools {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStage = "@STAGE@";

class Sha1 {
 public:
  void add(std::string_view bytes) {
    // Each part with its length first, so that no two splits of the same
    // bytes give one key.
    const std::string len = fmt::format("{}:", bytes.size());
    h_.process_bytes(len.data(), len.size());
    h_.process_bytes(bytes.data(), bytes.size());
  }
  std::string hex() {
    boost::uuids::detail::sha1::digest_type d;
    h_.get_digest(d);
    std::string out;
    for (unsigned word : d) out += fmt::format("{:08x}", word);
    return out;
  }

 private:
  boost::uuids::detail::sha1 h_;
};

bool write_atomically(const fs::path& to, const std::string& bytes) {
  const fs::path tmp = fs::path(to).concat(fmt::format(".tmp.{}", ::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!(out << bytes) || !out.flush()) return false;
  }
  return ::rename(tmp.c_str(), to.c_str()) == 0;
}

std::string sha1_of(std::string_view bytes) {
  Sha1 h;
  h.add(bytes);
  return h.hex();
}

// Drops the oldest entries (by their .so or .ko) beyond `keep`.
void evict(const fs::path& dir, std::string_view ext, std::size_t keep) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ext) entries.emplace_back(e.last_write_time(ec), e.path());
  if (entries.size() <= keep) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + keep < entries.size(); ++i) {
    const fs::path stem = fs::path(entries[i].second).replace_extension();
    for (const char* x : {".so", ".ko", ".log", ".deps", ".bin"})
      fs::remove(fs::path(stem).replace_extension(x), ec);
  }
}

// The files kbuild read outside `mod`, each as "SHA1 PATH", sorted: every
// word of its .cmd files that names a regular file by an absolute path (the
// deps_ lists: the kernel's headers, a header the candidate includes by
// absolute path; and the -include files of the cmd_ lines).
std::string module_deps(const fs::path& mod) {
  std::vector<std::string> paths;
  std::error_code ec;
  const std::string prefix = mod.string() + "/";
  for (const auto& e : fs::directory_iterator(mod, ec)) {
    const std::string name = e.path().filename().string();
    if (!name.starts_with(".") || !name.ends_with(".cmd")) continue;
    const std::string text = util::read_text(e.path());
    for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
      at = text.find_first_not_of(" \t\n\\", at);
      if (at == std::string::npos) break;
      end = text.find_first_of(" \t\n", at);
      if (end == std::string::npos) end = text.size();
      if (text[at] == '/' && text.compare(at, prefix.size(), prefix) != 0)
        paths.push_back(text.substr(at, end - at));
    }
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::string out;
  for (const std::string& p : paths) {
    std::error_code fe;
    if (!fs::is_regular_file(p, fe)) continue;
    out += sha1_of(util::read_text(p)) + " " + p + "\n";
  }
  return out;
}

// Whether every file of a cached module's deps is as it was.
bool deps_hold(const std::string& deps) {
  for (std::size_t at = 0, end; at < deps.size(); at = end + 1) {
    end = deps.find('\n', at);
    if (end == std::string::npos) end = deps.size();
    const std::string line = deps.substr(at, end - at);
    if (line.size() < 42) continue;
    const std::string path = line.substr(41);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || sha1_of(util::read_text(path)) != line.substr(0, 40))
      return false;
  }
  return true;
}

}  // namespace

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

BuildCache BuildCache::resolve() {
  BuildCache c;
  if (const char* env = std::getenv("DIFFSCHED_BUILD_CACHE"); env && *env) {
    const std::string v = env;
    if (v != "off" && v != "0") c.dir = fs::absolute(v);
    return c;
  }
  c.dir = FuzzBuild{preset_dir("fuzz")}.build_cache();
  return c;
}

std::string BuildCache::key(const fs::path& compiler, const std::vector<std::string>& argv,
                            std::string_view preprocessed, const std::string& stage) {
  Sha1 h;
  h.add("diffsched build cache 1");
  std::error_code ec;
  const fs::path real = fs::canonical(compiler, ec);
  h.add(ec ? compiler.string() : real.string());
  if (!ec) {
    h.add(fmt::format("{}", fs::file_size(real, ec)));
    h.add(fmt::format("{}", fs::last_write_time(real, ec).time_since_epoch().count()));
  }
  for (const std::string& a : argv) h.add(replace_all(a, stage, kStage));
  h.add(replace_all(std::string(preprocessed), stage, kStage));
  return h.hex();
}

bool BuildCache::fetch(const std::string& key, const fs::path& so, const std::string& stage,
                       std::string* log) const {
  if (!enabled()) return false;
  std::error_code ec;
  const fs::path cached = dir / (key + ".so");
  if (!fs::is_regular_file(cached, ec)) return false;
  const fs::path tmp = fs::path(so).concat(".from-cache");
  fs::copy_file(cached, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), so.c_str()) != 0) return false;
  fs::permissions(so, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec, ec);
  *log = replace_all(util::read_text(dir / (key + ".log")), kStage, stage);
  // Recently used entries are the last to go (store() drops the oldest).
  fs::last_write_time(cached, fs::file_time_type::clock::now(), ec);
  return true;
}

void BuildCache::store(const std::string& key, const fs::path& so, const std::string& stage,
                       const std::string& log) const {
  if (!enabled()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  // The log first: an entry is its .so, which appears last.
  if (!write_atomically(dir / (key + ".log"), replace_all(log, stage, kStage))) return;
  const fs::path entry = dir / (key + ".so");
  const fs::path tmp = fs::path(entry).concat(fmt::format(".tmp.{}", ::getpid()));
  fs::copy_file(so, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), entry.c_str()) != 0) return;
  evict(dir, ".so", max_entries);
}

std::string BuildCache::tree_key(const std::vector<std::string>& argv,
                                 const std::vector<fs::path>& dirs) {
  Sha1 h;
  h.add("diffsched tree cache 1");
  for (const std::string& a : argv) h.add(a);
  for (const fs::path& d : dirs) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(d, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      h.add(f.string());
      h.add(util::read_text(f));
    }
  }
  return h.hex();
}

bool BuildCache::fetch_file(const std::string& key, const fs::path& to) const {
  if (!enabled()) return false;
  std::error_code ec;
  const fs::path cached = dir / (key + ".bin");
  if (!fs::is_regular_file(cached, ec)) return false;
  const fs::path tmp = fs::path(to).concat(".from-cache");
  fs::copy_file(cached, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), to.c_str()) != 0) return false;
  fs::permissions(to, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec, ec);
  fs::last_write_time(cached, fs::file_time_type::clock::now(), ec);
  return true;
}

void BuildCache::store_file(const std::string& key, const fs::path& from) const {
  if (!enabled()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  const fs::path entry = dir / (key + ".bin");
  const fs::path tmp = fs::path(entry).concat(fmt::format(".tmp.{}", ::getpid()));
  fs::copy_file(from, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), entry.c_str()) != 0) return;
  evict(dir, ".bin", max_entries / 8);
}

std::string BuildCache::module_key(const fs::path& mod, const fs::path& headers) {
  Sha1 h;
  h.add("diffsched module cache 1");
  std::error_code ec;
  const fs::path real = fs::canonical(headers, ec);
  h.add(ec ? headers.string() : real.string());
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(mod, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    h.add(f.lexically_relative(mod).string());
    h.add(replace_all(util::read_text(f), mod.string(), "@MOD@"));
  }
  return h.hex();
}

bool BuildCache::fetch_module(const std::string& key, const fs::path& ko) const {
  if (!enabled()) return false;
  std::error_code ec;
  const fs::path cached = dir / (key + ".ko");
  if (!fs::is_regular_file(cached, ec) || !deps_hold(util::read_text(dir / (key + ".deps"))))
    return false;
  const fs::path tmp = fs::path(ko).concat(".from-cache");
  fs::copy_file(cached, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), ko.c_str()) != 0) return false;
  fs::last_write_time(cached, fs::file_time_type::clock::now(), ec);
  return true;
}

void BuildCache::store_module(const std::string& key, const fs::path& mod,
                              const fs::path& ko) const {
  if (!enabled()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;
  if (!write_atomically(dir / (key + ".deps"), module_deps(mod))) return;
  const fs::path entry = dir / (key + ".ko");
  const fs::path tmp = fs::path(entry).concat(fmt::format(".tmp.{}", ::getpid()));
  fs::copy_file(ko, tmp, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(tmp.c_str(), entry.c_str()) != 0) return;
  evict(dir, ".ko", max_entries / 4);
}

}  // namespace diffsched::tools
