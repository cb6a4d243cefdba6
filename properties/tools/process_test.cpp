// The one command type (src/tools/process.h): every child diffsched starts
// goes through tools::Command and run(), so its deadline, its stop and its
// statuses have one meaning everywhere (kernel-check's harness and builds,
// mutate's watchdog, the campaign's merge, the in-kernel boot).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "engine/exit_status.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::tools {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / fmt::format("diffsched-process-{}-{}", name, ::getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(Command, ExitStatusesLogCwdAndEnvironment) {
  const fs::path d = temp_dir("basic");
  EXPECT_EQ(run({.argv = {"sh", "-c", "exit 3"}}), 3);
  EXPECT_EQ(run({.argv = {"sh", "-c", "kill -TERM $$"}}), kExitSignalBase + SIGTERM);
  EXPECT_EQ(run({.argv = {"diffsched-no-such-program"}}), kExitNotExecuted);
  EXPECT_EQ(run({.argv = {}}), -1);
  EXPECT_EQ(run({.argv = {"sh", "-c", "pwd; echo \"$DIFFSCHED_X\"; echo err >&2"},
                 .log = d / "log",
                 .cwd = d,
                 .env = {{"DIFFSCHED_X", "a value"}}}),
            0);
  EXPECT_EQ(util::read_text(d / "log"), fs::canonical(d).string() + "\na value\nerr\n");
  fs::remove_all(d);
}

// The deadline kills the whole process group, a grandchild included, and
// returns the one timeout sentinel.
TEST(Command, TheDeadlineKillsTheWholeGroup) {
  const fs::path d = temp_dir("deadline");
  const auto t = std::chrono::steady_clock::now();
  const int rc = run({.argv = {"sh", "-c", "sleep 60 & echo $! > pid; wait"}, .cwd = d,
                      .deadline = 0.5});
  EXPECT_EQ(rc, kExitTimedOut);
  EXPECT_LT(seconds_since(t), 30);  // not the child's 60 s (a bound, not a timing)
  const std::string pid(util::trim(util::read_text(d / "pid")));
  ASSERT_FALSE(pid.empty());
  // The grandchild was sent SIGKILL with its group: it is gone, or a zombie
  // about to be reaped by init, once the kill is delivered (asynchronously:
  // it may still show as running for a moment, so this waits, up to 10 s).
  std::string stat;
  for (int i = 0; i < 1000; ++i) {
    stat = util::read_text(fs::path("/proc") / pid / "stat");
    if (stat.empty() || stat.find(") Z") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(stat.empty() || stat.find(") Z") != std::string::npos) << stat;
  fs::remove_all(d);
}

// stop() is asked while the child runs: true kills the group, kExitStopped.
TEST(Command, StopKillsTheGroupWithItsOwnStatus) {
  std::atomic<bool> stop{false};
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const int rc = run({.argv = {"sleep", "60"}, .deadline = 120, .stop = [&] { return stop.load(); }});
  later.join();
  EXPECT_EQ(rc, kExitStopped);
  // A stop that never says so changes nothing.
  EXPECT_EQ(run({.argv = {"sh", "-c", "exit 4"}, .stop = [] { return false; }}), 4);
  EXPECT_NE(kExitStopped, kExitTimedOut);
}

// try_wait() reaps a child spawned in its own group without blocking and
// forgets its group: more children than the table of groups holds (256),
// polled one after another, never fill it, so the last is still remembered
// (stop_children_on_signal() would stop it) and none is left behind.
TEST(Command, TryWaitForgetsTheGroupsOfMoreChildrenThanTheTableHolds) {
  const std::size_t before = remembered_groups();
  for (int k = 0; k < 300; ++k) {
    const pid_t pid = spawn({.argv = {"sh", "-c", fmt::format("exit {}", k % 7)}, .new_process_group = true});
    ASSERT_GT(pid, 0);
    ASSERT_EQ(remembered_groups(), before + 1) << "child " << k;
    std::optional<int> rc;
    while (!(rc = try_wait(pid))) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(*rc, k % 7);
    ASSERT_EQ(remembered_groups(), before) << "child " << k;
  }
  // A child still running is not reaped; once killed, its status.
  const pid_t pid = spawn({.argv = {"sleep", "60"}, .new_process_group = true});
  ASSERT_GT(pid, 0);
  EXPECT_EQ(try_wait(pid), std::nullopt);
  ::kill(pid, SIGTERM);
  std::optional<int> rc;
  while (!(rc = try_wait(pid))) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(*rc, kExitSignalBase + SIGTERM);
  EXPECT_EQ(remembered_groups(), before);
  EXPECT_EQ(try_wait(-1), -1);
}

// A function in a forked child: its bytes back, its deadline (SIGALRM in the
// child) as the timeout sentinel, a signal as 128 + signal, nothing else
// mistaken for data.
TEST(CallInChild, BytesDeadlineAndSignalEachHaveOneMeaning) {
  const CallResult ok = call_in_child([] { return std::string(100000, 'x'); }, 10);
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.data, std::string(100000, 'x'));
  EXPECT_TRUE(ok.error.empty());
  const CallResult slow = call_in_child([] {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    return std::string();
  }, 1);
  EXPECT_EQ(slow.status, kExitTimedOut);
  EXPECT_TRUE(slow.data.empty());
  const CallResult killed = call_in_child([] {
    std::raise(SIGKILL);
    return std::string("never");
  }, 10);
  EXPECT_EQ(killed.status, kExitSignalBase + SIGKILL);
  EXPECT_TRUE(killed.data.empty());
  const CallResult failed = call_in_child([]() -> std::string { ::_exit(4); }, 10);
  EXPECT_EQ(failed.status, 4);
}

}  // namespace
}  // namespace diffsched::tools
