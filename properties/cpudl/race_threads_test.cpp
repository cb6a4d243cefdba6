// The lockless-reader analysis against a real second thread (issue 26 §3): a
// writer thread applies a program to a built-in heap under a lock; a reader
// thread runs cpudl_find() on it without the lock, as find_later_rq() does.
// Every answer the reader gets must be one the analysis enumerated for the op
// it overlapped (or, if it overlapped none, the answer of the state then).
//
// Memory model: every heap field is a std::atomic accessed with seq_cst
// loads and stores (SeqCstFields below), so there is no data race in the C++
// sense, and the reader's loads and the writer's stores form one total order
// consistent with each thread's program order: exactly the interleavings the
// analysis enumerates (race.h). The free mask is the writer's plain Cpumask;
// after each op the writer publishes its words to atomics, which the reader
// loads. Every op's free-mask stores are its last stores, so publishing after
// the op puts them at the same point, except rq_offline_dl()'s transient
// set-then-clear, which the reader then cannot see (a subset; not in this
// program). The test is bounded by op counts, not by time: after each op the
// writer waits for two more completed reads, so at least one read per op is
// checked whatever the scheduling.
//
// The test must be able to fail: with `pause` the writer, after each store of
// an op, waits for two more completed reads, so every intermediate state is
// read whole at least once. Paused, the hole heap still passes; a live heap
// with the planted out-of-range root (planted_race.h) checked against the
// hole heap's enumeration fails with a reader answer of -1
// (RaceThreads.PlantedOutOfRangeRootIsCaught).
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cpudl/planted_race.h"
#include "io/text.h"
#include "subjects/cpudl/apply.h"
#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/model.h"
#include "subjects/cpudl/race.h"

namespace diffsched::cpudl::race {
namespace {

// Called by the writer after each store of an op when the test pauses there
// (null otherwise); only the writer stores to the heap's fields.
std::function<void()>* g_after_store = nullptr;

template <class T>
class SeqCst {
 public:
  SeqCst() = default;
  constexpr SeqCst(T v) : v_(v) {}  // NOLINT
  SeqCst(const SeqCst& o) : v_(o.v_.load()) {}
  operator T() const { return v_.load(); }  // NOLINT
  SeqCst& operator=(T v) {
    v_.store(v);
    if (g_after_store) (*g_after_store)();
    return *this;
  }
  SeqCst& operator=(const SeqCst& o) { return *this = o.v_.load(); }

 private:
  std::atomic<T> v_{};
};

struct SeqCstFields {
  template <class T>
  using field = SeqCst<T>;
};

constexpr unsigned kCpus = 8;
constexpr std::size_t kOps = 800;        // free-running
constexpr std::size_t kPausedOps = 200;  // a pause after every store

std::vector<Op> program(std::uint32_t seed, std::size_t length) {
  std::mt19937 rng(seed);
  Model model;
  model.reset(kCpus);
  std::vector<Op> ops;
  std::string why;
  while (ops.size() < length) {
    const int cpu = static_cast<int>(rng() % kCpus);
    Op op;
    switch (rng() % 6) {
      case 0: op = Clear{cpu}; break;
      case 1: op = ClearOnline{cpu, rng() % 2 == 0}; break;
      case 2: op = SetFreecpu{cpu}; break;
      default: op = Set{cpu, 1000 + rng() % 40}; break;
    }
    if (!model.permits(op, &why)) continue;
    model.apply(op);
    ops.push_back(op);
  }
  return ops;
}

std::vector<Task> tasks() {
  std::vector<Task> out;
  Cpumask all{};
  all.bits[0] = (1UL << kCpus) - 1;
  for (u64 dl : {u64{999}, u64{1020}})
    for (bool with_mask : {true, false}) {
      out.push_back(Task{dl, all, with_mask});
      for (unsigned c = 0; c < kCpus; c += 3) {
        Cpumask m{};
        m.bits[0] = 1UL << c;
        out.push_back(Task{dl, m, with_mask});
      }
    }
  return out;
}

struct Live {
  int ret = 0;
  bool free_branch = false;
  int cpu = -1;
  u64 later = 0;
};

bool matches(const ReaderAnswer& a, const Live& l, bool with_mask) {
  if (a.ret != l.ret) return false;
  if (!with_mask || l.ret == 0) return true;
  if (a.free_branch != l.free_branch) return false;
  return a.free_branch ? a.later[0] == l.later : a.cpu == l.cpu;
}

// What the reader thread saw: failures (at most 5 kept) and how its reads fell.
struct Outcome {
  std::vector<std::string> failures;
  std::uint64_t checked = 0, overlapped = 0, skipped = 0;
};

// The writer's heap, its published free word, and the counters the reader
// brackets its loads with.
template <class Heapify>
struct Shared {
  kernel::cpudl<Heapify, SeqCstFields> cp;
  std::array<std::atomic<unsigned long>, 1> free_word{};
  std::atomic<std::uint64_t> seq{0};  // 2i+1 during op i, 2i+2 after it
  std::atomic<std::uint64_t> reads{0};
  std::atomic<bool> done{false};
};

// The reader thread: cpudl_find()'s loads lockless, each answer checked
// against the analysis' answers for the op it overlapped.
template <class Heapify>
void read_until_done(Shared<Heapify>& sh, const std::vector<Op>& ops, const std::vector<Task>& ts,
                     const std::vector<std::vector<std::vector<ReaderAnswer>>>& expected,
                     Outcome& out) {
  kernel::NrCpuIdsScope reader_scope(kCpus);
  for (std::size_t round = 0; !sh.done.load(); ++round) {
    const Task& t = ts[round % ts.size()];
    const std::uint64_t s1 = sh.seq.load();
    // cpudl_find(), v6.1, non-capacity path, loads in the kernel's order.
    Live l;
    const u64 later = t.with_mask ? sh.free_word[0].load() & t.affinity.bits[0] : 0;
    if (later != 0) {
      l = Live{1, true, -1, later};
    } else {
      l.cpu = sh.cp.elements[0].cpu;
      if (l.cpu < 0 || l.cpu >= static_cast<int>(kCpus))
        l.ret = -1;
      else if ((t.affinity.bits[0] >> l.cpu) & 1UL)
        l.ret = kernel::dl_time_before(t.dl, sh.cp.elements[0].dl) ? 1 : 0;
    }
    const std::uint64_t s2 = sh.seq.load();
    sh.reads.fetch_add(1);
    // The op this read overlapped: s1 and s2 within one op's window.
    // s1 = 2i: before op i; s1 = 2i+1: during it.
    const std::size_t i = s1 / 2;
    if (s2 > 2 * i + 2 || (s1 == s2 && s1 % 2 == 0 && i == ops.size())) {
      ++out.skipped;  // spans more than one op, or after the last
      continue;
    }
    const bool quiescent = s1 == s2 && s1 % 2 == 0;
    ++(quiescent ? out.checked : out.overlapped);
    // Quiescent: only a consistent answer (before or after op i) is allowed.
    bool ok = false;
    for (const ReaderAnswer& a : expected[i][round % ts.size()])
      ok |= (!quiescent || a.cls == kConsistent) && matches(a, l, t.with_mask);
    if (!ok && out.failures.size() < 5)
      out.failures.push_back(fmt::format("op #{} {}: {}: reader answered ret {} cpu {} later {:#x}",
                                         i, io::format_op(ops[i]), task_text(t), l.ret, l.cpu,
                                         l.later));
  }
}

// The analysis enumerates `Analysed`'s answers; the threads run
// `LiveHeapify`'s heap (the same policy, except for the negative control).
// `pause`: the writer waits for two more completed reads after every store of an op.
template <class Analysed, class LiveHeapify = Analysed>
Outcome run_threads(std::uint32_t seed, std::size_t length, bool pause) {
  kernel::NrCpuIdsScope scope(kCpus);
  const std::vector<Op> ops = program(seed, length);
  const std::vector<Task> ts = tasks();
  Outcome out;
  // The analysis, single-threaded: per op, per task, every answer.
  KernelModelSide<Analysed> side("analysed");
  side.reset(kCpus);
  std::vector<std::vector<std::vector<ReaderAnswer>>> expected;
  std::string error;
  for (const Op& op : ops) {
    expected.push_back(reader_answers(&side, op, ts, &error));
    if (!error.empty()) {
      out.failures.push_back("analysis: " + error);
      return out;
    }
  }

  Shared<LiveHeapify> sh;
  kernel::cpudl_init(&sh.cp, kCpus);
  std::mutex lock;  // cp->lock: the writer's only
  auto wait_for_two_reads = [&sh] {
    const std::uint64_t r = sh.reads.load();
    while (sh.reads.load() < r + 2) std::this_thread::yield();
  };
  std::function<void()> after_store = wait_for_two_reads;
  std::thread reader([&] { read_until_done(sh, ops, ts, expected, out); });
  for (std::size_t i = 0; i < ops.size(); ++i) {
    {
      std::lock_guard<std::mutex> g(lock);
      sh.seq.store(2 * i + 1);
      if (pause) g_after_store = &after_store;
      apply_op(&sh.cp, ops[i], nullptr,
               [](int) { return static_cast<unsigned long>(kCapacityScale); });
      g_after_store = nullptr;
      sh.free_word[0].store(sh.cp.free_cpus.bits[0]);
      sh.seq.store(2 * i + 2);
    }
    wait_for_two_reads();
  }
  sh.done.store(true);
  reader.join();
  fmt::print("{} reads between ops, {} during one op, {} spanning more\n", out.checked,
             out.overlapped, out.skipped);
  return out;
}

void expect_only_enumerated(const Outcome& o, std::size_t ops) {
  EXPECT_TRUE(o.failures.empty()) << o.failures.front();
  EXPECT_GE(o.checked + o.overlapped, ops);
  ::testing::Test::RecordProperty("overlapped", static_cast<int>(o.overlapped));
  ::testing::Test::RecordProperty("skipped", static_cast<int>(o.skipped));
}

TEST(RaceThreads, SwapHeapReaderSeesOnlyEnumeratedAnswers) {
  expect_only_enumerated(run_threads<kernel::SwapHeapify>(1, kOps, false), kOps);
}
TEST(RaceThreads, HoleHeapReaderSeesOnlyEnumeratedAnswers) {
  expect_only_enumerated(run_threads<kernel::HoleHeapify>(1, kOps, false), kOps);
}
// Every intermediate state read whole: still only enumerated answers.
TEST(RaceThreads, HoleHeapPausedAfterEveryStoreSeesOnlyEnumeratedAnswers) {
  expect_only_enumerated(run_threads<kernel::HoleHeapify>(1, kPausedOps, true), kPausedOps);
}
// The negative control: the live heap stores -1 into elements[0].cpu for a
// moment (a heapify_down from the root), which the hole heap's enumeration
// has no answer for; paused after that store, a reader reads it, and the
// check must say so.
TEST(RaceThreads, PlantedOutOfRangeRootIsCaught) {
  const Outcome o = run_threads<kernel::HoleHeapify, OutOfRangeRootHeapify>(1, kPausedOps, true);
  ASSERT_FALSE(o.failures.empty());
  EXPECT_NE(o.failures.front().find("ret -1 cpu -1"), std::string::npos) << o.failures.front();
}

}  // namespace
}  // namespace diffsched::cpudl::race
