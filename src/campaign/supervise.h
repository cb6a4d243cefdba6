// Supervising an engine's processes: each its own process group, a time
// slot, and SIGINT/SIGTERM.
//
//   InterruptScope interrupts;                 // SIGINT/SIGTERM recorded, not fatal
//   auto pids = start_processes(commands, env);
//   Supervised s = supervise(pids, 60, [](double elapsed) { /* progress */ });
//   if (interrupt_signal()) ...                // 2 or 15, 0 if none came
//
// supervise() waits until every process exits, or the slot (budget +
// overrun) ends, or a signal arrives: then SIGINT to each whole group (the
// engines wrap up on SIGINT), SIGKILL if it is still there a little later
// (short after an interrupt: the campaign must stop within 2 s; longer at
// the deadline, so that libFuzzer writes its final stats). A process group
// is killed as soon as its leader is gone, so no fork job outlives it.
#pragma once

#include <csignal>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "tools/process.h"

namespace diffsched::campaign {

// While one lives, SIGINT and SIGTERM are recorded (without SA_RESTART, so
// sleeps and waits return early) instead of ending the process; the count
// starts at 0. The old handlers are restored when it ends, and the record
// cleared.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

int interrupt_signal();  // the first SIGINT/SIGTERM received, 0 if none
int interrupt_count();   // how many arrived
// The flag interrupt_signal() reads, for tools::MinimizeBudget::stop.
const volatile std::sig_atomic_t* interrupt_flag();

// One process to start (argv, its log): the one command type of every mode.
using tools::Command;

// Starts each command in its own process group with `env` added; the pids
// (-1 for one that could not fork).
std::vector<pid_t> start_processes(const std::vector<Command>& commands,
                                   const std::vector<std::pair<std::string, std::string>>& env);

// The time slots of a campaign: each target has --time / targets seconds from
// the campaign's start (target i ends at (i+1) * share). Its engine gets the
// slot's rest less a reserve for the merge that follows it (libFuzzer needs
// about a second), at least 1 s; time one target leaves unused goes to the
// next. The merge may take a quarter of the share (at least 5 s). After an
// interrupt there is no merge: what was found goes in unmerged (merge.h,
// add_unmerged()), so the campaign stops within about 3 s however loaded
// the machine is (a 2 s merge limit abandoned ~400 inputs under load).
struct Slots {
  double total = 60;         // --time
  std::size_t targets = 1;
  static constexpr double kMergeReserve = 1.5;
  double share() const { return total / static_cast<double>(targets); }
  // Seconds for target i's engine when `elapsed` seconds of the campaign have passed.
  double engine_budget(std::size_t i, double elapsed) const;
  double merge_limit() const;
};

struct SuperviseTimes {
  double overrun = 1;                // seconds past the budget before SIGINT
  double kill_after_interrupt = 0.8; // SIGINT -> SIGKILL after a signal
  double kill_after_deadline = 3;    // SIGINT -> SIGKILL at the deadline
};

// How the processes ended.
struct Supervised {
  int rc = 0;                  // first non-zero exit status (128+signal if killed), or 0
  bool stopped = false;        // we stopped them: the slot ended or a signal arrived
  bool interrupted = false;    // a SIGINT/SIGTERM arrived while they ran
  bool failed_early = false;   // a process exited non-zero before we stopped it
};

// Supervises `pids` (process group leaders) for `budget` seconds; `tick` is
// called with the seconds elapsed about every 100 ms until a stop is sent.
Supervised supervise(std::vector<pid_t> pids, double budget,
                     const std::function<void(double elapsed)>& tick, const SuperviseTimes& times = {});

}  // namespace diffsched::campaign
