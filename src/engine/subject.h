// The subject contract, stated once and checked by the compiler.
//
//   static_assert(Subject<cpudl::Subject>);   // src/subjects.h does this for each
//
// A subject bundles one kernel function family under test: its ops (one
// std::variant of op structs, each an OpStruct), its Config and its Lockstep,
// which applies every op to every side and the model and records a finding
// in the Verdict. run_lockstep() (engine/runner.h) is the only driver; the
// codecs, printers, generators and CLI reach a subject through src/subjects.h.
// A subject missing any part below fails to compile at that static_assert
// (properties/compile_fail/ checks that it does).
#pragma once

#include <concepts>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

#include "engine/op.h"
#include "engine/verdict.h"

namespace diffsched {

namespace detail {
template <class V>
struct IsOpVariant : std::false_type {};
template <class... Ops>
struct IsOpVariant<std::variant<Ops...>>
    : std::bool_constant<(OpStruct<Ops> && ...) && op_codes_unique<Ops...>()> {};
}  // namespace detail

// A std::variant whose every alternative is an OpStruct (engine/op.h), with
// distinct op codes.
template <class V>
concept OpVariant = detail::IsOpVariant<V>::value;

template <class S>
concept Subject = requires {
  { S::kName } -> std::convertible_to<std::string_view>;  // "cpudl": .ops `subject`, CLI
  { S::kDefaultCpus } -> std::convertible_to<unsigned>;   // .ops files without `cpus`
  { S::kDefaultLevel } -> std::convertible_to<Level>;     // without `level`/--level
  { std::span<const Level>(S::kLevels) };                 // levels that mean something
  typename S::Op;
  typename S::Config;
  typename S::Lockstep;
} && OpVariant<typename S::Op> &&
    std::default_initializable<typename S::Config> &&
    requires(typename S::Config c) {
      { c.nr_cpu_ids } -> std::convertible_to<unsigned>;
    } &&
    std::default_initializable<typename S::Lockstep> &&
    requires(typename S::Lockstep& ls, const typename S::Lockstep& cls,
             const typename S::Config& config, const typename S::Op& op, std::size_t index,
             Level level, Verdict& verdict) {
      ls.reset(config);                     // fresh state for nr_cpu_ids
      ls.step(op, index, level, verdict);   // apply + check; a finding goes in verdict
      ls.close(index, level, verdict);      // the closing full check (or a no-op)
      { cls.in_domain() } -> std::same_as<bool>;     // else findings are out-of-domain
      { cls.last_skipped() } -> std::same_as<bool>;  // the last op broke the contract
    };

}  // namespace diffsched
