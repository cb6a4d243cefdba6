// Optional access counting for the cpudl heap, compiled out by default.
//
//   using Heap = cpudl<HoleHeapify, Counting>;  // fields become Counted<T>
//   access_counters() = {};  cpudl_set(&heap, 3, 100);
//   access_counters().stores  // element stores done by that call
//
// With the default `Uncounted` policy the fields are plain integers and the
// heap code compiles to exactly what it would without this header. With
// `Counting`, every read of an element field is a load, every write a store,
// and every dl_time_before() that reads an element field a comparison. Field
// copies (a = b) count one load and one store, as the C assignment does.
#pragma once

#include <type_traits>

#include "kernel/deadline.h"
#include "kernel/types.h"

namespace diffsched::kernel {

struct AccessCounters {
  u64 loads = 0;
  u64 stores = 0;
  u64 compares = 0;
};

AccessCounters& access_counters();

template <class T>
class Counted {
 public:
  Counted() = default;
  constexpr Counted(T v) : v_(v) {}  // NOLINT: initialisation is not a store
  Counted(const Counted&) = default;
  operator T() const {  // NOLINT: reads are loads
    ++access_counters().loads;
    return v_;
  }
  Counted& operator=(T v) {
    ++access_counters().stores;
    v_ = v;
    return *this;
  }
  Counted& operator=(const Counted& o) {
    ++access_counters().loads;
    ++access_counters().stores;
    v_ = o.v_;
    return *this;
  }
  T raw() const { return v_; }

 private:
  T v_{};
};

template <class T>
inline constexpr bool kIsCounted = false;
template <class T>
inline constexpr bool kIsCounted<Counted<T>> = true;

// raw(x): the value without counting (for checkers and printers).
template <class T>
constexpr T raw(const T& v) { return v; }
template <class T>
T raw(const Counted<T>& v) { return v.raw(); }

// dl_time_before on element fields counts one comparison (and its loads).
template <class A, class B>
  requires(kIsCounted<A> || kIsCounted<B>)
bool dl_time_before(const A& a, const B& b) {
  ++access_counters().compares;
  return ::diffsched::kernel::dl_time_before(static_cast<u64>(a), static_cast<u64>(b));
}

// Instrumentation policies for cpudl<>.
struct Uncounted {
  template <class T>
  using field = T;
};
struct Counting {
  template <class T>
  using field = Counted<T>;
};

}  // namespace diffsched::kernel
