#include "harness_record.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "kcheck/status.h"

namespace diffsched::kcheck {

namespace {

struct State {
  std::string path, token;
  tools::HarnessRecord record;
  tools::CurrentInput current;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

State& state() {
  static State s;
  return s;
}

// The token leaves the environment, and its text in the process's initial
// environment block (/proc/self/environ) is overwritten, before a candidate
// is loaded: a candidate cannot simply read it back to forge a record.
std::string take_token() {
  char* value = std::getenv(tools::kTokenEnv);
  if (!value) return {};
  std::string token = value;
  std::memset(value, 'x', std::strlen(value));
  ::unsetenv(tools::kTokenEnv);
  return token;
}

}  // namespace

void start_record() {
  State& s = state();
  s.start = std::chrono::steady_clock::now();
  if (const char* p = std::getenv(tools::kRecordEnv)) s.path = p;
  s.token = take_token();
  if (const char* p = std::getenv(tools::kCurrentInputEnv); p && *p) s.current.open(p);
}

tools::HarnessRecord& record() { return state().record; }
tools::CurrentInput& current_input() { return state().current; }

void write_record_now() {
  State& s = state();
  if (s.path.empty()) return;
  s.record.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start).count();
  tools::write_record(s.path, s.token, s.record);
}

std::string prepared_record(const tools::HarnessRecord& r) {
  return tools::record_json(state().token, r);
}

void write_prepared(const std::string& text) {
  const State& s = state();
  if (s.path.empty()) return;
  char tmp[4096];
  const int n = std::snprintf(tmp, sizeof tmp, "%s.tmp", s.path.c_str());
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof tmp) return;
  const int fd = ::open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w <= 0) break;
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  ::close(fd);
  if (left == 0) ::rename(tmp, s.path.c_str());
}

[[noreturn]] void finish(int status) {
  tools::HarnessRecord& r = state().record;
  if (r.outcome.empty()) {
    switch (status) {
      case kHarnessOk: r.outcome = r.mode == "load" ? "loaded" : "ok"; break;
      case kHarnessFinding: r.outcome = "finding"; break;
      case kHarnessOutOfDomain: r.outcome = "out-of-domain"; break;
      case kHarnessAllocsExhausted: r.outcome = "allocs-exhausted"; break;
      default: break;  // no checks completed: no record
    }
  }
  std::fflush(stdout);
  std::fflush(stderr);
  if (!r.outcome.empty()) write_record_now();
  ::_exit(status);
}

[[noreturn]] void stop_on_init_failure(const std::string& what) {
  std::fprintf(stderr, "kcheck: %s\n", what.c_str());
  record().outcome = "init-failed";
  record().detail = what;
  finish(kHarnessCouldNotRun);
}

}  // namespace diffsched::kcheck
