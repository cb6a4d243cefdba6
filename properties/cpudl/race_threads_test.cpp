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
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "io/text.h"
#include "subjects/cpudl/apply.h"
#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/model.h"
#include "subjects/cpudl/race.h"

namespace diffsched::cpudl::race {
namespace {

template <class T>
class SeqCst {
 public:
  SeqCst() = default;
  constexpr SeqCst(T v) : v_(v) {}  // NOLINT
  SeqCst(const SeqCst& o) : v_(o.v_.load()) {}
  operator T() const { return v_.load(); }  // NOLINT
  SeqCst& operator=(T v) {
    v_.store(v);
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
constexpr std::size_t kOps = 800;

std::vector<Op> program(std::uint32_t seed) {
  std::mt19937 rng(seed);
  Model model;
  model.reset(kCpus);
  std::vector<Op> ops;
  std::string why;
  while (ops.size() < kOps) {
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

template <class Heapify>
void check_against_a_real_reader(std::uint32_t seed) {
  kernel::NrCpuIdsScope scope(kCpus);
  const std::vector<Op> ops = program(seed);
  const std::vector<Task> ts = tasks();
  // The analysis, single-threaded: per op, per task, every answer.
  KernelModelSide<Heapify> side("analysed");
  side.reset(kCpus);
  std::vector<std::vector<std::vector<ReaderAnswer>>> expected;
  std::string error;
  for (const Op& op : ops) {
    expected.push_back(reader_answers(&side, op, ts, &error));
    ASSERT_EQ(error, "");
  }

  kernel::cpudl<Heapify, SeqCstFields> cp;
  kernel::cpudl_init(&cp, kCpus);
  std::array<std::atomic<unsigned long>, 1> free_word{};
  std::mutex lock;  // cp->lock: the writer's only
  std::atomic<std::uint64_t> seq{0};  // 2i+1 during op i, 2i+2 after it
  std::atomic<std::uint64_t> reads{0};
  std::atomic<bool> done{false};
  std::uint64_t checked = 0, overlapped = 0, skipped = 0;
  std::vector<std::string> failures;

  std::thread reader([&] {
    kernel::NrCpuIdsScope reader_scope(kCpus);
    for (std::size_t round = 0; !done.load(); ++round) {
      const Task& t = ts[round % ts.size()];
      const std::uint64_t s1 = seq.load();
      // cpudl_find(), v6.1, non-capacity path, loads in the kernel's order.
      Live l;
      const u64 later = t.with_mask ? free_word[0].load() & t.affinity.bits[0] : 0;
      if (later != 0) {
        l = Live{1, true, -1, later};
      } else {
        l.cpu = cp.elements[0].cpu;
        if (l.cpu < 0 || l.cpu >= static_cast<int>(kCpus))
          l.ret = -1;
        else if ((t.affinity.bits[0] >> l.cpu) & 1UL)
          l.ret = kernel::dl_time_before(t.dl, cp.elements[0].dl) ? 1 : 0;
      }
      const std::uint64_t s2 = seq.load();
      reads.fetch_add(1);
      // The op this read overlapped: s1 and s2 within one op's window.
      // s1 = 2i: before op i; s1 = 2i+1: during it.
      const std::size_t i = s1 / 2;
      if (s2 > 2 * i + 2 || (s1 == s2 && s1 % 2 == 0 && i == ops.size())) {
        ++skipped;  // spans more than one op, or after the last
        continue;
      }
      if (s1 == s2 && s1 % 2 == 0) {
        ++checked;  // between ops: the state before op i
      } else {
        ++overlapped;
      }
      const auto& answers = expected[i][round % ts.size()];
      bool ok = false;
      for (const ReaderAnswer& a : answers) ok |= matches(a, l, t.with_mask);
      if (s1 == s2 && s1 % 2 == 0) {
        // Quiescent: only a consistent answer (before or after op i) is allowed.
        ok = false;
        for (const ReaderAnswer& a : answers)
          ok |= a.cls == kConsistent && matches(a, l, t.with_mask);
      }
      if (!ok && failures.size() < 5)
        failures.push_back(fmt::format("op #{} {}: {}: reader answered ret {} cpu {} later {:#x}",
                                       i, io::format_op(ops[i]), task_text(t), l.ret, l.cpu,
                                       l.later));
    }
  });

  for (std::size_t i = 0; i < ops.size(); ++i) {
    {
      std::lock_guard<std::mutex> g(lock);
      seq.store(2 * i + 1);
      apply_op(&cp, ops[i], nullptr, [](int) { return static_cast<unsigned long>(kCapacityScale); });
      free_word[0].store(cp.free_cpus.bits[0]);
      seq.store(2 * i + 2);
    }
    const std::uint64_t r = reads.load();
    while (reads.load() < r + 2) std::this_thread::yield();
  }
  done.store(true);
  reader.join();
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_GE(checked + overlapped, ops.size());
  ::testing::Test::RecordProperty("overlapped", static_cast<int>(overlapped));
  ::testing::Test::RecordProperty("skipped", static_cast<int>(skipped));
  fmt::print("{} reads between ops, {} during one op, {} spanning more\n", checked, overlapped,
             skipped);
}

TEST(RaceThreads, SwapHeapReaderSeesOnlyEnumeratedAnswers) {
  check_against_a_real_reader<kernel::SwapHeapify>(1);
}
TEST(RaceThreads, HoleHeapReaderSeesOnlyEnumeratedAnswers) {
  check_against_a_real_reader<kernel::HoleHeapify>(1);
}

}  // namespace
}  // namespace diffsched::cpudl::race
