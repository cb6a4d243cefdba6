#include "tools/process.h"

#include "engine/exit_status.h"
#include "util/temp_dir.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef DIFFSCHED_SOURCE_DIR
#error "DIFFSCHED_SOURCE_DIR must be defined by the build"
#endif

namespace diffsched::tools {

fs::path source_dir() { return fs::path(DIFFSCHED_SOURCE_DIR); }

fs::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? fs::path(name) : fs::path();
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/bin:/bin";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const fs::path candidate = fs::path(rest.substr(0, colon)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

namespace {

// The process groups of the live children (0: a free slot), for the signal
// handler of stop_children_on_signal(): lock-free, async-signal-safe reads.
constexpr std::size_t kMaxGroups = 256;
std::atomic<pid_t> g_groups[kMaxGroups];

void remember_group(pid_t pid) {
  for (auto& slot : g_groups) {
    pid_t free = 0;
    if (slot.compare_exchange_strong(free, pid)) return;
  }
}

void forget_group(pid_t pid) {
  for (auto& slot : g_groups) {
    pid_t mine = pid;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

void on_stop_signal(int sig) {
  for (auto& slot : g_groups)
    if (const pid_t pid = slot.load(); pid > 0) ::kill(-pid, SIGKILL);
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void stop_children_on_signal() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

pid_t spawn(const Command& o) {
  const std::vector<std::string>& argv = o.argv;
  if (argv.empty()) return -1;
  const bool new_group = o.new_process_group || o.deadline > 0 || o.stop != nullptr;
  const fs::path exe = find_program(argv[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  // Both sides set the group, so that a kill(-pid) right after spawn() reaches it.
  if (pid > 0 && new_group) {
    ::setpgid(pid, pid);
    remember_group(pid);
  }
  if (pid != 0) return pid;
  // Child: only async-signal-safe work from here on, then exec.
  if (new_group) ::setpgid(0, 0);
  if (o.stdin_null) {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) ::dup2(fd, STDIN_FILENO);
  }
  if (!o.log.empty()) {
    const int fd = ::open(o.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
    }
  }
  if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) ::_exit(kExitNotExecuted);
  for (const auto& [k, v] : o.env) ::setenv(k.c_str(), v.c_str(), 1);
  if (!exe.empty()) ::execv(exe.c_str(), args.data());
  ::_exit(kExitNotExecuted);
}

namespace {

int exit_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return kExitSignalBase + WTERMSIG(status);
  return -1;
}

// Reaps pid; first, while its zombie still holds the group id, kills what
// is left of its group (if `group`), so that nothing it started outlives it.
int reap(pid_t pid, bool group) {
  if (group) {
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    ::kill(-pid, SIGKILL);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      forget_group(pid);
      return -1;
    }
  forget_group(pid);
  return exit_of(status);
}

// std::nullopt while pid runs; else reaps it (its group killed first if
// `group`), -1 if it cannot be waited for.
std::optional<int> poll(pid_t pid, bool group) {
  siginfo_t info{};
  const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
  if (w == 0 && info.si_pid == pid) return reap(pid, group);
  if (w < 0 && errno != EINTR) {  // it can no longer be waited for: never poll for ever
    if (group) ::kill(-pid, SIGKILL);
    reap(pid, group);
    return -1;
  }
  return std::nullopt;
}

}  // namespace

int wait_exit(pid_t pid) {
  if (pid < 0) return -1;
  return reap(pid, false);
}

std::optional<int> try_wait(pid_t pid) {
  if (pid <= 0) return -1;
  // A zombie keeps its group id until it is reaped.
  return poll(pid, ::getpgid(pid) == pid);
}

std::size_t remembered_groups() {
  return static_cast<std::size_t>(
      std::count_if(std::begin(g_groups), std::end(g_groups), [](const auto& slot) { return slot.load() != 0; }));
}

CallResult call_in_child(const std::function<std::string()>& work, unsigned deadline) {
  CallResult r;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.status = -1;
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.status = -1;
    r.error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::signal(SIGALRM, SIG_DFL);
    ::alarm(deadline);
    // `#include "/dev/stdin"` in a parse reads nothing: never our stdin.
    if (const int null = ::open("/dev/null", O_RDONLY); null >= 0) ::dup2(null, 0);
    const std::string out = work();
    for (std::size_t at = 0; at < out.size();) {
      const ssize_t n = ::write(fds[1], out.data() + at, out.size() - at);
      if (n <= 0) ::_exit(3);
      at += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  char buf[65536];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    r.data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  r.status = wait_exit(pid);
  if (r.status == kExitSignalBase + SIGALRM) r.status = kExitTimedOut;
  if (r.status != 0) r.data.clear();
  return r;
}

int run(const Command& c) {
  const pid_t pid = spawn(c);
  if (pid < 0) return -1;
  if (c.deadline <= 0 && c.stop == nullptr) return reap(pid, c.new_process_group);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(c.deadline);
  for (auto pause = std::chrono::milliseconds(1);;
       pause = std::min(pause * 2, std::chrono::milliseconds(20))) {
    if (const std::optional<int> rc = poll(pid, true)) return *rc;
    const bool stopped = c.stop != nullptr && c.stop();
    if (stopped || (c.deadline > 0 && std::chrono::steady_clock::now() >= deadline)) {
      ::kill(-pid, SIGKILL);
      reap(pid, true);
      return stopped ? kExitStopped : kExitTimedOut;
    }
    std::this_thread::sleep_for(pause);
  }
}

std::vector<std::string> sandboxed(const std::vector<std::string>& argv,
                                   const std::vector<fs::path>& writable, std::string* error) {
  const fs::path bwrap = find_program("bwrap");
  if (bwrap.empty()) {
    *error = "bubblewrap (bwrap) is not on PATH, and candidates run only in its sandbox: "
             "install the package bubblewrap (scripts/install-deps.sh)";
    return {};
  }
  std::vector<std::string> out = {bwrap.string(), "--ro-bind", "/", "/", "--dev", "/dev",
                                  "--proc", "/proc"};
  // /tmp stays as it is, read-only (an input there, e.g. a replayed file,
  // stays visible); temporary files go to the first writable directory.
  for (const auto& dir : writable) {
    const std::string d = fs::absolute(dir).lexically_normal().string();
    out.insert(out.end(), {"--bind", d, d});
  }
  if (!writable.empty())
    out.insert(out.end(), {"--setenv", "TMPDIR", fs::absolute(writable[0]).lexically_normal().string()});
  out.insert(out.end(), {"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                         "--new-session", "--die-with-parent", "--"});
  if (argv.empty()) return out;
  const fs::path exe = find_program(argv[0]);
  out.push_back(exe.empty() ? argv[0] : exe.string());
  out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

std::string sha256_file(const fs::path& file) {
  std::string tmpl = util::temp_template("diffsched-sha256-XXXXXX").string();
  const int fd = tmpl.empty() ? -1 : ::mkstemp(tmpl.data());
  if (fd < 0) return {};
  ::close(fd);
  const fs::path out = tmpl;
  const int rc =
      run({.argv = {"sha256sum", "--", file.string()}, .log = out, .deadline = 120, .stdin_null = true});
  const std::string text = read_text(out);
  std::error_code ec;
  fs::remove(out, ec);
  if (rc != kExitOk || text.size() < 64) return {};
  return text.substr(0, 64);
}

fs::path preset_dir(const std::string& preset) {
  return source_dir() / (preset == "default" ? std::string("build") : "build-" + preset);
}

bool build_preset(const std::string& preset, const fs::path& log, std::string* error,
                  const std::vector<std::string>& targets) {
  const fs::path cmake = find_program("cmake");
  if (cmake.empty()) {
    *error = "cmake not found on PATH (run scripts/install-deps.sh)";
    return false;
  }
  if (!fs::exists(preset_dir(preset) / "CMakeCache.txt") &&
      run({.argv = {cmake, "--preset", preset}, .log = log, .cwd = source_dir()}) != kExitOk) {
    *error = "cmake --preset " + preset + " failed; see " + log.string();
    return false;
  }
  std::vector<std::string> argv = {cmake, "--build", "--preset", preset, "-j",
                                   std::to_string(std::max(1u, std::thread::hardware_concurrency()))};
  for (const auto& t : targets) {
    argv.push_back("--target");
    argv.push_back(t);
  }
  const Command b{.argv = argv, .log = log.string() + ".build", .cwd = source_dir()};
  if (run(b) != kExitOk) {
    *error = "cmake --build --preset " + preset + " failed; see " + b.log.string();
    return false;
  }
  return true;
}

std::string tail_file(const fs::path& file, std::size_t lines) {
  const std::string text = read_text(file);
  std::size_t pos = text.size();
  for (std::size_t n = 0; n <= lines && pos > 0; ++n) pos = text.rfind('\n', pos - 1);
  std::string t = text.substr(pos == std::string::npos ? 0 : pos + 1);
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

}  // namespace diffsched::tools
