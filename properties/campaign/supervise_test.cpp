// campaign/supervise.h on fake processes (shell scripts): exit statuses, the
// slot's end, SIGINT then SIGKILL, process groups, interrupts. No assertion
// on wall-clock time: budgets are 0 or far away, and each test ends because
// of what it checks.
#include <csignal>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "campaign/fake_programs.h"
#include "campaign/supervise.h"

namespace diffsched::campaign {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr SuperviseTimes kQuick{.overrun = 0, .kill_after_interrupt = 0, .kill_after_deadline = 0};

Supervised run_sh(const std::string& script, double budget, const SuperviseTimes& times = {},
                  const std::function<void(double)>& tick = {}) {
  TempDir dir("supervise");
  const auto pids = start_processes({{{"/bin/sh", "-c", script}, dir / "log"}}, {});
  return supervise(pids, budget, tick, times);
}

TEST(CampaignSlots, EachTargetGetsItsShareLessTheMergeReserve) {
  const Slots slots{.total = 120, .targets = 4};  // 30 s each
  EXPECT_DOUBLE_EQ(slots.share(), 30);
  EXPECT_DOUBLE_EQ(slots.engine_budget(0, 0), 30 - Slots::kMergeReserve);
  // Target 1 started late (target 0 overran by 2 s): its slot still ends at 60 s.
  EXPECT_DOUBLE_EQ(slots.engine_budget(1, 32), 60 - 32 - Slots::kMergeReserve);
  // Time target 0 left unused goes to target 1.
  EXPECT_DOUBLE_EQ(slots.engine_budget(1, 20), 60 - 20 - Slots::kMergeReserve);
  // Never less than a second, however late.
  EXPECT_DOUBLE_EQ(slots.engine_budget(1, 100), 1);
}

TEST(CampaignSlots, ShortSlotsKeepAFifthForTheMerge) {
  const Slots slots{.total = 5, .targets = 5};  // 1 s each: reserve 0.2 s, not 1.5 s
  EXPECT_DOUBLE_EQ(slots.engine_budget(0, 0), 1);
  EXPECT_DOUBLE_EQ((Slots{.total = 10, .targets = 2}.engine_budget(0, 0)), 5 - 1);
}

TEST(CampaignSlots, MergeLimit) {
  EXPECT_DOUBLE_EQ((Slots{.total = 60, .targets = 1}).merge_limit(), 15);
  EXPECT_DOUBLE_EQ((Slots{.total = 10, .targets = 5}).merge_limit(), 5);
}

TEST(CampaignSupervise, AProcessThatSucceedsIsNotAFailure) {
  const Supervised s = run_sh("exit 0", 1000);
  EXPECT_EQ(s.rc, 0);
  EXPECT_FALSE(s.stopped);
  EXPECT_FALSE(s.failed_early);
  EXPECT_FALSE(s.interrupted);
}

TEST(CampaignSupervise, AnEarlyNonZeroExitIsAFailure) {
  const Supervised s = run_sh("exit 3", 1000);
  EXPECT_EQ(s.rc, 3);
  EXPECT_TRUE(s.failed_early);
  EXPECT_FALSE(s.stopped);
}

TEST(CampaignSupervise, AProgramThatCannotRunGives127) {
  TempDir dir("supervise");
  const auto pids = start_processes({{{(dir / "no-such-engine").string()}, dir / "log"}}, {});
  const Supervised s = supervise(pids, 1000, {});
  EXPECT_EQ(s.rc, 127);
  EXPECT_TRUE(s.failed_early);
}

TEST(CampaignSupervise, TheSlotsEndStopsItWithSigint) {
  const Supervised s = run_sh("sleep 1000", 0, {.overrun = 0, .kill_after_interrupt = 0.8,
                                                .kill_after_deadline = 1000});
  EXPECT_TRUE(s.stopped);
  EXPECT_FALSE(s.failed_early);  // stopped by us: not a failure
  EXPECT_FALSE(s.interrupted);
  EXPECT_EQ(s.rc, 128 + SIGINT);
}

TEST(CampaignSupervise, OneThatIgnoresSigintIsKilled) {
  // An ignored SIGINT is inherited by the exec'd sleep. The stop comes once
  // the trap is set (an interrupt raised from the tick), so no race.
  InterruptScope scope;
  TempDir dir("supervise");
  const auto ready = dir / "ready";
  const auto pids = start_processes(
      {{{"/bin/sh", "-c", "trap '' INT; touch " + ready.string() + "; exec sleep 1000"}, dir / "log"}},
      {});
  const Supervised s = supervise(pids, 1000, [&](double) {
    if (fs::exists(ready)) std::raise(SIGINT);
  }, kQuick);
  EXPECT_TRUE(s.stopped);
  EXPECT_TRUE(s.interrupted);
  EXPECT_EQ(s.rc, 128 + SIGKILL);
}

TEST(CampaignSupervise, EnvironmentIsPassed) {
  TempDir dir("supervise");
  const auto pids = start_processes(
      {{{"/bin/sh", "-c", "test \"$CAMPAIGN_TEST\" = yes"}, dir / "log"}}, {{"CAMPAIGN_TEST", "yes"}});
  EXPECT_EQ(supervise(pids, 1000, {}).rc, 0);
}

TEST(CampaignSupervise, EachCommandsOutputGoesToItsLog) {
  TempDir dir("supervise");
  const auto pids = start_processes({{{"/bin/sh", "-c", "echo one"}, dir / "a.log"},
                                     {{"/bin/sh", "-c", "echo two"}, dir / "b.log"}},
                                    {});
  EXPECT_EQ(pids.size(), 2u);
  EXPECT_EQ(supervise(pids, 1000, {}).rc, 0);
  EXPECT_EQ(testing::read_all(dir / "a.log"), "one\n");
  EXPECT_EQ(testing::read_all(dir / "b.log"), "two\n");
}

// A child of the engine (a libFuzzer fork job) does not outlive it.
TEST(CampaignSupervise, TheWholeProcessGroupGoes) {
  TempDir dir("supervise");
  const auto pidfile = dir / "child.pid";
  const Supervised s = run_sh("sleep 1000 & echo $! >" + pidfile.string() + "; exit 0", 1000);
  EXPECT_EQ(s.rc, 0);
  pid_t child = 0;
  std::ifstream(pidfile) >> child;
  ASSERT_GT(child, 0);
  // Gone, or a zombie waiting for init: never still sleeping (polled, tries bounded).
  bool alive = true;
  for (int tries = 0; tries < 500 && alive; ++tries) {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string pid, comm, state;
    alive = static_cast<bool>(stat >> pid >> comm >> state) && state != "Z" && comm == "(sleep)";
    if (alive) ::usleep(10000);
  }
  EXPECT_FALSE(alive);
}

TEST(CampaignSupervise, TickIsCalledUntilTheStop) {
  InterruptScope scope;
  int ticks = 0;
  const Supervised s = run_sh("sleep 1000", 1000, kQuick, [&](double elapsed) {
    EXPECT_GE(elapsed, 0);
    if (++ticks == 3) std::raise(SIGINT);  // an interrupt ends it
  });
  EXPECT_EQ(ticks, 3);
  EXPECT_TRUE(s.stopped);
}

TEST(CampaignSupervise, AnInterruptStopsItAndIsRecorded) {
  InterruptScope scope;
  EXPECT_EQ(interrupt_signal(), 0);
  const Supervised s = run_sh("sleep 1000", 1000, kQuick, [](double) { std::raise(SIGTERM); });
  EXPECT_TRUE(s.interrupted);
  EXPECT_TRUE(s.stopped);
  EXPECT_FALSE(s.failed_early);
  EXPECT_EQ(interrupt_signal(), SIGTERM);
  EXPECT_GE(interrupt_count(), 1);
  EXPECT_EQ(*interrupt_flag(), SIGTERM);
  std::raise(SIGINT);  // recorded, the first stays
  EXPECT_EQ(interrupt_signal(), SIGTERM);
}

TEST(CampaignSupervise, EachScopeStartsAfresh) {
  {
    InterruptScope scope;
    std::raise(SIGINT);
    EXPECT_EQ(interrupt_signal(), SIGINT);
  }
  InterruptScope scope;
  EXPECT_EQ(interrupt_signal(), 0);
  EXPECT_EQ(interrupt_count(), 0);
}

}  // namespace
}  // namespace diffsched::campaign
