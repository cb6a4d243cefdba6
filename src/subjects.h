// The list of subjects, written once: the text and binary codecs, the CLI
// and the fuzz targets iterate over it.
//
//   with_subject_named("pick", [&]<class S>(std::type_identity<S>) { ... });
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "subjects/cpudl/lockstep.h"
#include "subjects/cpudl/print.h"
#include "engine/subject.h"
#include "subjects/cpumask/lockstep.h"
#include "subjects/cpumask/print.h"
#include "subjects/pick/lockstep.h"
#include "subjects/pick/print.h"

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

// Where a run's lockstep comes from. Every entry that runs programs
// (run_target, fuzz_one, tools::minimize) takes an optional source: a factory
// per subject, in Subjects' order; an empty factory (or no source) means the
// subject's own sides (its default-constructed Lockstep). A front end with its
// own sides (the kernel-check harness: a user's C file beside a baseline)
// passes them down this way; nothing is installed process-wide.
//
//   LockstepSource sides;
//   sides.of<cpudl::Subject>() = [] { return std::make_unique<cpudl::Lockstep>(my_sides()); };
//   tools::minimize(program, level, &error, budget, &sides);
template <class S>
using LockstepFactory = std::function<std::unique_ptr<typename S::Lockstep>()>;

template <class Tuple>
struct LockstepFactories;
template <class... S>
struct LockstepFactories<std::tuple<S...>> {
  using type = std::tuple<LockstepFactory<S>...>;
};

struct LockstepSource {
  typename LockstepFactories<Subjects>::type factories;

  template <class S>
  LockstepFactory<S>& of() {
    return std::get<subject_index<S>()>(factories);
  }
  template <class S>
  const LockstepFactory<S>& of() const {
    return std::get<subject_index<S>()>(factories);
  }
};

// A lockstep of S from `source` (null, or an empty factory: S's own sides).
template <class S>
std::unique_ptr<typename S::Lockstep> make_lockstep(const LockstepSource* source) {
  if (source != nullptr)
    if (const auto& make = source->of<S>()) return make();
  return std::make_unique<typename S::Lockstep>();
}

}  // namespace diffsched
