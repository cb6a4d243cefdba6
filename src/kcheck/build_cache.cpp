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
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".so") entries.emplace_back(e.last_write_time(ec), e.path());
  if (entries.size() <= max_entries) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + max_entries < entries.size(); ++i) {
    fs::remove(entries[i].second, ec);
    fs::remove(fs::path(entries[i].second).replace_extension(".log"), ec);
  }
}

}  // namespace diffsched::tools
