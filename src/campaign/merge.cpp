#include "campaign/merge.h"

#include <cstdio>
#include <fstream>
#include <iterator>

#include <boost/uuid/detail/sha1.hpp>
#include <fmt/format.h>

#include "campaign/supervise.h"
#include "campaign/util.h"
#include "tools/process.h"

namespace diffsched::campaign {

long merge_into_corpus(const MergeRequest& m, std::string* error) {
  std::error_code ec;
  if (regular_files(m.found).empty()) return 0;
  fs::remove_all(m.staging, ec);
  fs::create_directories(m.staging, ec);
  for (const auto& f : regular_files(m.corpus)) {
    fs::create_hard_link(f, m.staging / f.filename(), ec);
    if (ec) fs::copy_file(f, m.staging / f.filename(), ec);
  }
  // Given up when it runs out of time or a further signal arrives; its
  // whole group goes with it (the -merge=1 child libFuzzer starts).
  const int signals_before = interrupt_count();
  const int rc = tools::run({.argv = {m.fuzzer.string(), "-merge=1", "-rss_limit_mb=4096",
                                      m.staging.string(), m.found.string()},
                             .log = m.log,
                             .new_process_group = true,
                             .deadline = m.max_seconds,
                             .stop = [&] { return interrupt_count() > signals_before; }});
  const char* abandoned = rc == -1                    ? "(it could not be started or waited for)"
                          : rc == tools::kExitStopped  ? "on a second signal"
                          : rc == tools::kExitTimedOut ? "out of time"
                                                       : nullptr;
  if (abandoned || rc != 0) {
    fs::remove_all(m.staging, ec);
    *error = abandoned ? fmt::format("merge abandoned {}", abandoned)
                       : fmt::format("merge failed, see {}", m.log.string());
    return -1;
  }
  long added = 0;
  for (const auto& f : regular_files(m.staging)) {
    const fs::path dest = m.corpus / f.filename();
    std::error_code st;  // an entry there, even a symlink loop, is never replaced
    if (fs::exists(fs::symlink_status(dest, st)) ||
        (st && st != std::errc::no_such_file_or_directory))
      continue;
    if (::rename(f.c_str(), dest.c_str()) == 0) ++added;
  }
  fs::remove_all(m.staging, ec);
  return added;
}

namespace {

std::string sha1_hex(const std::string& bytes) {
  boost::uuids::detail::sha1 h;
  h.process_bytes(bytes.data(), bytes.size());
  boost::uuids::detail::sha1::digest_type d;
  h.get_digest(d);
  std::string out;
  for (unsigned word : d) out += fmt::format("{:08x}", word);
  return out;
}

}  // namespace

long add_unmerged(const MergeRequest& m, std::string* error) {
  std::error_code ec;
  const std::vector<fs::path> found = regular_files(m.found);
  if (found.empty()) return 0;
  fs::remove_all(m.staging, ec);
  if (!fs::create_directories(m.staging, ec) && ec) {
    *error = fmt::format("cannot make {}: {}", m.staging.string(), ec.message());
    return -1;
  }
  long added = 0;
  for (const auto& f : found) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), {}};
    if (!in.good() && !in.eof()) continue;  // unreadable: not ours to keep
    const std::string name = sha1_hex(bytes);
    const fs::path dest = m.corpus / name, staged = m.staging / name;
    std::error_code st;  // an entry there, even a symlink loop, is never replaced
    if (fs::exists(fs::symlink_status(dest, st)) ||
        (st && st != std::errc::no_such_file_or_directory))
      continue;
    {
      std::ofstream out(staged, std::ios::binary | std::ios::trunc);
      if (!(out << bytes) || !out.flush()) continue;
    }
    if (::rename(staged.c_str(), dest.c_str()) == 0) ++added;
  }
  fs::remove_all(m.staging, ec);
  return added;
}

}  // namespace diffsched::campaign
