// Generic access to a subject's op list.
//
// A subject's ops are one std::variant of small structs. Each struct has
//   static constexpr std::string_view kName;    // text form: "set"
//   static constexpr std::string_view kKernel;  // what it calls: "cpudl_set(cp, cpu, dl)"
//   static constexpr std::uint8_t kCode;        // its binary op code: stable, never
//                                               // reused, unique in the subject, < kOpCodes
//   template <class Self, class F> static constexpr void fields(Self& op, F&& f);
//       // calls f("cpu", op.cpu), f("dl", op.dl), ... in order
// That list is the only one: the text codec, the printers, the RapidCheck
// commands and (later) the binary codec all walk it through these helpers.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <variant>

namespace diffsched {

// For the last branch of an `if constexpr` chain over op or field types:
//   else static_assert(kUnhandled<T>, "model: a new op needs a case here");
// so an op or field type some part does not handle fails to compile.
template <class T>
inline constexpr bool kUnhandled = false;

// Binary op codes are below this (format v2: the op byte's low 5 bits).
inline constexpr unsigned kOpCodes = 32;

// What every op struct provides (see above).
template <class T>
concept OpStruct = std::default_initializable<T> && std::copyable<T> && requires {
  { T::kName } -> std::convertible_to<std::string_view>;
  { T::kKernel } -> std::convertible_to<std::string_view>;
  { T::kCode } -> std::convertible_to<std::uint8_t>;
} && (T::kCode < kOpCodes);

// Whether the op codes of Ops... are pairwise distinct.
template <class... Ops>
constexpr bool op_codes_unique() {
  const unsigned codes[] = {Ops::kCode...};
  for (std::size_t i = 0; i < sizeof...(Ops); ++i)
    for (std::size_t j = i + 1; j < sizeof...(Ops); ++j)
      if (codes[i] == codes[j]) return false;
  return true;
}

template <class Op, class F>
void for_each_field(Op& op, F&& f) {
  std::remove_const_t<Op>::fields(op, std::forward<F>(f));
}

template <class Variant>
std::string_view op_name(const Variant& op) {
  return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::kName; }, op);
}

// The names of all alternatives, in order.
template <class Variant>
struct OpNames;
template <class... Ops>
struct OpNames<std::variant<Ops...>> {
  static constexpr std::array<std::string_view, sizeof...(Ops)> kNames{Ops::kName...};
};

// Calls f(std::type_identity<Op>{}) for the alternative named `name`;
// returns false if there is none.
template <class Variant, class F>
bool with_op_named(std::string_view name, F&& f);

template <class... Ops, class F>
bool with_op_named_impl(std::variant<Ops...>*, std::string_view name, F&& f) {
  return ((Ops::kName == name ? (f(std::type_identity<Ops>{}), true) : false) || ...);
}

template <class Variant, class F>
bool with_op_named(std::string_view name, F&& f) {
  return with_op_named_impl(static_cast<Variant*>(nullptr), name, std::forward<F>(f));
}

}  // namespace diffsched
