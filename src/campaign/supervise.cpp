#include "campaign/supervise.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include <unistd.h>

#include "tools/process.h"

namespace diffsched::campaign {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_signal = 0;   // first SIGINT/SIGTERM received
volatile std::sig_atomic_t g_signals = 0;  // how many

extern "C" void on_signal(int sig) {
  if (!g_signal) g_signal = sig;
  g_signals = g_signals + 1;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Reaps the processes of `pids` that have exited; the first non-zero status
// goes to s->rc. Each is a process group leader: tools::try_wait() kills its
// group before it reaps it, so that no child of the engine (libFuzzer -fork
// jobs) outlives it, and forgets the group.
void reap(std::vector<pid_t>* pids, bool stopping, Supervised* s) {
  for (auto it = pids->begin(); it != pids->end();) {
    const std::optional<int> code = tools::try_wait(*it);
    if (!code) {
      ++it;
      continue;
    }
    if (!s->rc) s->rc = *code;
    if (*code != 0 && !stopping) s->failed_early = true;
    it = pids->erase(it);
  }
}

}  // namespace

InterruptScope::InterruptScope() {
  g_signal = 0;
  g_signals = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: sleeps and waits return early
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  g_signal = 0;  // what came while it lived does not outlast it
  g_signals = 0;
}

double Slots::engine_budget(std::size_t i, double elapsed) const {
  const double slot_end = share() * static_cast<double>(i + 1);
  const double reserve = std::min(kMergeReserve, share() * 0.2);
  return std::max(1.0, slot_end - elapsed - reserve);
}

double Slots::merge_limit() const { return std::max(5.0, share() * 0.25); }

int interrupt_signal() { return g_signal; }
int interrupt_count() { return g_signals; }
const volatile std::sig_atomic_t* interrupt_flag() { return &g_signal; }

std::vector<pid_t> start_processes(const std::vector<Command>& commands,
                                   const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<pid_t> pids;
  for (Command c : commands) {
    c.env.insert(c.env.end(), env.begin(), env.end());
    c.new_process_group = true;
    pids.push_back(tools::spawn(c));
  }
  return pids;
}

Supervised supervise(std::vector<pid_t> pids, double budget,
                     const std::function<void(double)>& tick, const SuperviseTimes& times) {
  const auto start = Clock::now();
  Supervised s;
  std::optional<Clock::time_point> stop_sent;
  while (true) {
    reap(&pids, stop_sent.has_value(), &s);
    if (pids.empty()) break;
    const double elapsed = seconds_since(start);
    if (g_signal) s.interrupted = true;
    if (!stop_sent && (g_signal || elapsed > budget + times.overrun)) {
      for (pid_t pid : pids) ::kill(-pid, SIGINT);  // libFuzzer and afl-fuzz wrap up on SIGINT
      s.stopped = true;
      stop_sent = Clock::now();
    }
    const double grace = s.interrupted ? times.kill_after_interrupt : times.kill_after_deadline;
    if (stop_sent && seconds_since(*stop_sent) > grace)
      for (pid_t pid : pids) ::kill(-pid, SIGKILL);
    if (!stop_sent && tick) tick(elapsed);
    std::this_thread::sleep_for(std::chrono::milliseconds(stop_sent ? 20 : 100));
  }
  return s;
}

}  // namespace diffsched::campaign
