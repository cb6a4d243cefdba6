#include "campaign/merge.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include <fmt/format.h>
#include <sys/wait.h>

#include "campaign/supervise.h"
#include "campaign/util.h"
#include "tools/process.h"

namespace diffsched::campaign {

namespace {

// Waits for the merge; kills its group when it runs out of time or a further
// signal arrives. nullptr if it ended by itself, else why it was abandoned.
const char* wait_merge(pid_t pid, double max_seconds, int* status) {
  const int signals_before = interrupt_count();
  const auto start = std::chrono::steady_clock::now();
  const char* abandoned = nullptr;
  for (;;) {
    const pid_t r = ::waitpid(pid, status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!abandoned && (interrupt_count() > signals_before || (max_seconds > 0 && took > max_seconds))) {
      ::kill(-pid, SIGKILL);  // a further signal, or out of time: give up the merge
      abandoned = interrupt_count() > signals_before ? "on a second signal" : "out of time";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid, SIGKILL);  // its -merge=1 child, if any is left
  return abandoned;
}

}  // namespace

long merge_into_corpus(const MergeRequest& m, std::string* error) {
  std::error_code ec;
  if (regular_files(m.found).empty()) return 0;
  fs::remove_all(m.staging, ec);
  fs::create_directories(m.staging, ec);
  for (const auto& f : regular_files(m.corpus)) {
    fs::create_hard_link(f, m.staging / f.filename(), ec);
    if (ec) fs::copy_file(f, m.staging / f.filename(), ec);
  }
  const pid_t pid = tools::spawn({m.fuzzer.string(), "-merge=1", "-rss_limit_mb=4096",
                                  m.staging.string(), m.found.string()},
                                 {.log = m.log, .new_process_group = true});
  int status = 0;
  const char* abandoned = pid < 0 ? "(could not fork)" : wait_merge(pid, m.max_seconds, &status);
  if (abandoned || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
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
