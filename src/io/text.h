// The .ops text form of ops and values, generic over every subject's op list.
//
//   format_op(op)        -> "set 1 100", "find 50 0-3", "pick dst=0-3 cpus=0-7 allowed=5"
//   format_value(mask)   -> "0-3,64" (kernel cpulist), "none" when empty
//   format_value(dl)     -> decimal below 2^32, else 0x-hex (wrap points stay readable)
//   parse_op<Op>(line, &op, &error)  accepts positional or name=value arguments
//
// Values are printed so that parsing them back gives the same op (lossless).
// Masks print relative to the current nr_cpu_ids (set NrCpuIdsScope first).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "engine/op.h"
#include "io/fields.h"
#include "kernel/cpumask.h"
#include "kernel/types.h"

namespace diffsched::io {

// Values print and parse through their field traits (io/fields.h); plain
// ints, u64 deadlines and masks (state in traces) print like Cpu, Deadline
// and Mask fields.
std::string format_value(int v);
std::string format_value(kernel::u64 v);
std::string format_value(bool v);
std::string format_value(const kernel::Cpumask& v);
template <FieldType T>
std::string format_value(const T& v) {
  return FieldTraits<T>::print(v);
}
template <FieldType T>
bool parse_value(std::string_view s, T* out, std::string* error) {
  return FieldTraits<T>::parse(s, out, error);
}

// At most `n` bytes of `s`, then "..." if cut: how errors quote input, so
// that a bad 1 MB line is never printed whole.
inline constexpr std::size_t kExcerptBytes = 40;
std::string excerpt(std::string_view s, std::size_t n = kExcerptBytes);

// Ops whose struct sets kNamedArgs print as name=value (long mask lists).
template <class T>
concept NamedArgs = requires { T::kNamedArgs; };

template <class Op>
std::string format_op_struct(const Op& op) {
  std::string out(Op::kName);
  for_each_field(op, [&](std::string_view name, const auto& value) {
    out += ' ';
    if constexpr (NamedArgs<Op>) {
      out += name;
      out += '=';
    }
    out += format_value(value);
  });
  return out;
}

template <class Variant>
std::string format_op(const Variant& op) {
  return std::visit([](const auto& o) { return format_op_struct(o); }, op);
}

// Splits on blanks; a '#' starts a comment.
std::vector<std::string_view> split_words(std::string_view line);

// Parses the words after the op name into the op's fields. Arguments are
// positional or name=value (all one way). Returns false with a reason.
template <class Op>
bool parse_op_fields(std::span<const std::string_view> args, Op* op, std::string* error) {
  std::size_t count = 0;
  for_each_field(*op, [&](std::string_view, const auto&) { ++count; });
  if (args.size() != count) {
    *error = fmt::format("'{}' takes {} argument{}, got {}", Op::kName, count,
                         count == 1 ? "" : "s", args.size());
    return false;
  }
  std::size_t i = 0;
  bool ok = true;
  for_each_field(*op, [&](std::string_view name, auto& value) {
    if (!ok) return;
    std::string_view arg = args[i++];
    auto eq = arg.find('=');
    if (eq != std::string_view::npos) {
      if (arg.substr(0, eq) != name) {
        *error = fmt::format("'{}' argument {} is '{}', got '{}'", Op::kName, i, name,
                             excerpt(arg.substr(0, eq)));
        ok = false;
        return;
      }
      arg = arg.substr(eq + 1);
    }
    std::string why;
    if (!parse_value(arg, &value, &why)) {
      *error = fmt::format("'{}' argument '{}': {}", Op::kName, name, why);
      ok = false;
    }
  });
  return ok;
}

// Parses one op line ("set 1 100"). Unknown op names are errors naming the
// known ones.
template <class Variant>
bool parse_op(std::span<const std::string_view> words, Variant* out, std::string* error) {
  if (words.empty()) {
    *error = "empty op";
    return false;
  }
  bool parsed = false;
  bool known = with_op_named<Variant>(words[0], [&]<class Op>(std::type_identity<Op>) {
    Op op{};
    parsed = parse_op_fields(words.subspan(1), &op, error);
    if (parsed) *out = op;
  });
  if (!known) {
    std::string names;
    for (auto n : OpNames<Variant>::kNames) {
      if (!names.empty()) names += ", ";
      names += n;
    }
    *error = fmt::format("unknown op '{}' (known: {})", excerpt(words[0]), names);
    return false;
  }
  return parsed;
}

}  // namespace diffsched::io
