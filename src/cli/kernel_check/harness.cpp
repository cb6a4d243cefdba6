// Running the kcheck harness: its options as arguments (tools::harness_args),
// the sanitizers' options in the environment, and a watchdog.
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <thread>

#include "cli/kernel_check/kernel_check.h"
#include "tools/process.h"

namespace diffsched::cli::kernel_check {

KernelCheckOptions Harness::with_mode(const std::string& mode) const {
  KernelCheckOptions o = base;
  o.mode = mode;
  return o;
}

int Harness::run(const KernelCheckOptions& options, const std::vector<std::string>& fuzzer_args,
                 const fs::path& log, double limit,
                 const std::vector<std::pair<std::string, std::string>>& extra_env) const {
  tools::RunOptions ro;
  ro.env = env;
  ro.env.insert(ro.env.end(), extra_env.begin(), extra_env.end());
  ro.log = log;
  std::vector<std::string> argv = {binary.string()};
  for (auto& a : tools::harness_args(options)) argv.push_back(std::move(a));
  argv.insert(argv.end(), fuzzer_args.begin(), fuzzer_args.end());
  std::fflush(stdout);
  const pid_t pid = tools::spawn(argv, ro);
  if (pid < 0 || limit <= 0) return tools::wait_exit(pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  for (auto pause = std::chrono::milliseconds(1);;
       pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      return WIFSIGNALED(status) ? kExitSignalBase + WTERMSIG(status) : kcheck::kHarnessNotRun;
    }
    if (done < 0 && errno != EINTR) return kcheck::kHarnessNotRun;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);  // the harness has no children (no -fork)
      tools::wait_exit(pid);
      return kcheck::kHarnessTimedOut;
    }
    std::this_thread::sleep_for(pause);
  }
}

fs::path find_crash(const fs::path& dir) {
  std::error_code ec;  // a missing or unreadable directory holds no artifact (never an abort)
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    const std::string name = e.path().filename().string();
    for (const char* prefix : {"crash-", "leak-", "timeout-", "oom-"})
      if (name.starts_with(prefix)) return e.path();
  }
  return {};
}

}  // namespace diffsched::cli::kernel_check
