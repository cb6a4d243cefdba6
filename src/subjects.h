// The list of subjects, written once: the text and binary codecs, the CLI
// and the fuzz targets iterate over it.
//
//   with_subject_named("pick", [&]<class S>(std::type_identity<S>) { ... });
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "cpudl/lockstep.h"
#include "engine/subject.h"
#include "cpumask/lockstep.h"
#include "pick/lockstep.h"

namespace diffsched {

// Order matters: the index is the subject byte of the binary format.
using Subjects = std::tuple<cpudl::Subject, pick::Subject, cpumask::Subject>;

// Every subject keeps the whole contract (engine/subject.h).
static_assert(Subject<cpudl::Subject>);
static_assert(Subject<pick::Subject>);
static_assert(Subject<cpumask::Subject>);

inline constexpr std::size_t kSubjectCount = std::tuple_size_v<Subjects>;

template <class S, std::size_t I = 0>
constexpr std::size_t subject_index() {
  if constexpr (std::is_same_v<S, std::tuple_element_t<I, Subjects>>)
    return I;
  else
    return subject_index<S, I + 1>();
}

// Calls f(std::type_identity<S>{}) for every subject, in order.
template <class F>
void for_each_subject(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::type_identity<std::tuple_element_t<I, Subjects>>{}), ...);
  }(std::make_index_sequence<kSubjectCount>{});
}

// Calls f for the subject named `name` (or with index `index`); false if none.
template <class F>
bool with_subject_named(std::string_view name, F&& f) {
  bool found = false;
  for_each_subject([&]<class S>(std::type_identity<S> t) {
    if (!found && S::kName == name) {
      found = true;
      f(t);
    }
  });
  return found;
}

template <class F>
bool with_subject_index(std::size_t index, F&& f) {
  bool found = false;
  std::size_t i = 0;
  for_each_subject([&]<class S>(std::type_identity<S> t) {
    if (!found && i++ == index) {
      found = true;
      f(t);
    }
  });
  return found;
}

}  // namespace diffsched
