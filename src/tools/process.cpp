#include "tools/process.h"

#include "engine/exit_status.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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

pid_t spawn(const std::vector<std::string>& argv, const RunOptions& o) {
  if (argv.empty()) return -1;
  const fs::path exe = find_program(argv[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  // Both sides set the group, so that a kill(-pid) right after spawn() reaches it.
  if (pid > 0 && o.new_process_group) ::setpgid(pid, pid);
  if (pid != 0) return pid;
  // Child: only async-signal-safe work from here on, then exec.
  if (o.new_process_group) ::setpgid(0, 0);
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

int wait_exit(pid_t pid) {
  if (pid < 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return kExitSignalBase + WTERMSIG(status);
  return -1;
}

int run(const std::vector<std::string>& argv, const RunOptions& options) {
  return wait_exit(spawn(argv, options));
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
  RunOptions o{.log = log, .cwd = source_dir()};
  if (!fs::exists(preset_dir(preset) / "CMakeCache.txt") &&
      run({cmake, "--preset", preset}, o) != kExitOk) {
    *error = "cmake --preset " + preset + " failed; see " + log.string();
    return false;
  }
  std::vector<std::string> argv = {cmake, "--build", "--preset", preset, "-j",
                                   std::to_string(std::max(1u, std::thread::hardware_concurrency()))};
  for (const auto& t : targets) {
    argv.push_back("--target");
    argv.push_back(t);
  }
  RunOptions b = o;
  b.log = log.string() + ".build";
  if (run(argv, b) != kExitOk) {
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
