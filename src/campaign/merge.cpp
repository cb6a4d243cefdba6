#include "campaign/merge.h"

#include <cstdio>

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

}  // namespace diffsched::campaign
