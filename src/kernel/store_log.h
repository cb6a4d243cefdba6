// Optional store logging for the cpudl heap (the instrumentation policy
// `Logging`, like counters.h's `Counting`): every write to an element field
// records the field's address and the value it overwrote in the active log.
//
//   cpudl<HoleHeapify, Logging> heap;  StoreLog log;
//   active_store_log = &log;  cpudl_set(&heap, 3, 100);  active_store_log = nullptr;
//   log.stores[0 .. log.count)   // {field address, old value}
//   log.free_stores[0 .. log.free_count)  // free_cpus words, {after, word, old}
//
// The incremental checks of the lockstep (subjects/cpudl/lockstep.cpp) read it: what
// an op wrote is all it can have broken. A Logged<T> has the layout of a T,
// so cpudl_item<Logging> has the layout of cpudl_item<Uncounted>.
#pragma once

#include <array>
#include <cstddef>

#include "kernel/types.h"

namespace diffsched::kernel {

struct StoreLog {
  struct Store {
    const void* where;  // the field written
    u64 old;            // the value it held before (an int widened)
  };
  // An op stores O(log size) fields; more than this marks the log overflowed
  // (the lockstep then checks that op in full).
  static constexpr std::size_t kCapacity = 512;
  std::array<Store, kCapacity> stores;
  std::size_t count = 0;
  bool overflow = false;

  // Stores to a free_cpus word (cpudeadline.h's log_free_cpus_store(), the
  // Logging policy only): made after `after` element stores of the op. The
  // lockstep does not read them (it compares the free masks word by word);
  // the lockless-reader analysis (subjects/cpudl/race.h) orders them among
  // the element stores. An op makes at most two.
  struct FreeStore {
    std::size_t after;  // element stores made before this one
    unsigned word;      // index into free_cpus.bits
    u64 old;            // the word before the store
  };
  static constexpr std::size_t kFreeCapacity = 8;
  std::array<FreeStore, kFreeCapacity> free_stores;
  std::size_t free_count = 0;

  void clear() {
    count = 0;
    overflow = false;
    free_count = 0;
  }
  void add_free(unsigned word, u64 old) {
    if (free_count < kFreeCapacity)
      free_stores[free_count++] = FreeStore{count, word, old};
    else
      overflow = true;
  }
  void add(const void* where, u64 old) {
    if (count < kCapacity)
      stores[count++] = Store{where, old};
    else
      overflow = true;
  }
};

// The log stores go to (none when null). One per thread.
inline thread_local StoreLog* active_store_log = nullptr;

template <class T>
class Logged {
 public:
  Logged() = default;
  constexpr Logged(T v) : v_(v) {}  // NOLINT: initialisation is not a store
  Logged(const Logged&) = default;
  operator T() const { return v_; }  // NOLINT
  Logged& operator=(T v) {
    if (StoreLog* log = active_store_log) log->add(this, static_cast<u64>(v_));
    v_ = v;
    return *this;
  }
  Logged& operator=(const Logged& o) { return *this = o.v_; }

 private:
  T v_{};
};

struct Logging {
  template <class T>
  using field = Logged<T>;
};

}  // namespace diffsched::kernel
