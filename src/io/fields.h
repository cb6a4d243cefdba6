// FieldTraits<T>: the one definition of what each op field type means
// (engine/fields.h lists the types). Every part that reads, writes, shrinks,
// generates or enumerates a field asks its traits; a field type without
// traits does not compile anywhere.
//
//   print(v) -> "5"                text form (lossless; masks relative to nr_cpu_ids)
//   parse(s, &v, &error)           text form back; false with a reason
//   decode(reader, context, &v)    binary form (docs/input-format.md); false when
//                                  the bytes run out
//   encode(context, v, &bytes)     the shortest bytes decode() reads back as v
//   kShrink                        how the minimiser simplifies it:
//     kInteger: anchors(v, program_values) in order, then bisection towards the last
//     kCandidates: candidates(v, nr), each strictly simpler
//   in_range(v, nr)                valid for nr_cpu_ids (the minimiser keeps it so)
//   generator(gens)                which of the property tests' generators makes one
//   domain_size(d), domain_at(d, i)   the exhaustive verifier's values
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/fields.h"
#include "io/bytes.h"
#include "kernel/cpumask.h"

namespace diffsched::io {

using kernel::Cpumask;
using kernel::u64;

enum class Shrink { kInteger, kCandidates };

// The values the exhaustive verifier (subjects/cpudl/verify_bfs.cpp) gives each type.
struct BfsDomain {
  unsigned cpus = 0;
  std::vector<u64> heap_dl;   // Deadline
  std::vector<u64> task_dl;   // TaskDeadline
  std::vector<u64> duration;  // Duration
};

template <class T>
struct FieldTraits;  // no definition: a field type needs its traits

// Integers in text: decimal, or 0x hex.
bool parse_u64(std::string_view s, u64* out, std::string* error);
// Decimal below 2^32, else 0x hex (wrap points stay readable).
std::string print_u64(u64 v);

// Deadlines (heap and task): one coding, so both share the recent ring.
bool decode_deadline(ByteReader& r, DecodeContext& c, u64* out);
void encode_deadline(DecodeContext& c, u64 v, std::vector<std::uint8_t>* out);
std::vector<u64> deadline_anchors(u64 v, const std::set<u64>& program_values);

template <>
struct FieldTraits<Cpu> {
  static constexpr std::string_view kWhat = "CPU";
  static std::string print(Cpu v);
  static bool parse(std::string_view s, Cpu* out, std::string* error);
  static bool decode(ByteReader& r, DecodeContext& c, Cpu* out);
  static void encode(DecodeContext& c, Cpu v, std::vector<std::uint8_t>* out);
  static constexpr Shrink kShrink = Shrink::kInteger;
  static std::vector<Cpu> anchors(Cpu, const std::set<Cpu>&) { return {Cpu(0)}; }
  static bool in_range(Cpu v, unsigned nr) { return v >= 0 && static_cast<unsigned>(v) < nr; }
  template <class G>
  static auto generator(const G& g) { return g.cpu(); }
  static std::size_t domain_size(const BfsDomain& d) { return d.cpus; }
  static Cpu domain_at(const BfsDomain&, std::size_t i) { return static_cast<int>(i); }
};

template <class T>
struct DeadlineTraits {
  static std::string print(T v) { return print_u64(v); }
  static bool parse(std::string_view s, T* out, std::string* error) {
    u64 v;
    if (!parse_u64(s, &v, error)) return false;
    *out = v;
    return true;
  }
  static bool decode(ByteReader& r, DecodeContext& c, T* out) {
    u64 v;
    if (!decode_deadline(r, c, &v)) return false;
    *out = v;
    return true;
  }
  static void encode(DecodeContext& c, T v, std::vector<std::uint8_t>* out) {
    encode_deadline(c, v, out);
  }
  static constexpr Shrink kShrink = Shrink::kInteger;
  static constexpr bool kOnDeadlineCircle = true;  // compared by dl_time_before
  static bool in_range(T, unsigned) { return true; }
  // 0..7 and the program's other deadlines, below v, ascending.
  static std::vector<T> anchors(T v, const std::set<T>& program_values) {
    std::set<u64> values(program_values.begin(), program_values.end());
    std::vector<T> out;
    for (u64 a : deadline_anchors(v, values)) out.push_back(a);
    return out;
  }
};

template <>
struct FieldTraits<Deadline> : DeadlineTraits<Deadline> {
  static constexpr std::string_view kWhat = "deadline";
  template <class G>
  static auto generator(const G& g) { return g.heap_deadline(); }
  static std::size_t domain_size(const BfsDomain& d) { return d.heap_dl.size(); }
  static Deadline domain_at(const BfsDomain& d, std::size_t i) { return d.heap_dl[i]; }
};

template <>
struct FieldTraits<TaskDeadline> : DeadlineTraits<TaskDeadline> {
  static constexpr std::string_view kWhat = "task deadline";
  template <class G>
  static auto generator(const G& g) { return g.task_deadline(); }
  static std::size_t domain_size(const BfsDomain& d) { return d.task_dl.size(); }
  static TaskDeadline domain_at(const BfsDomain& d, std::size_t i) { return d.task_dl[i]; }
};

template <>
struct FieldTraits<Duration> {
  static constexpr std::string_view kWhat = "duration";
  static std::string print(Duration v) { return print_u64(v); }
  static bool parse(std::string_view s, Duration* out, std::string* error);
  static bool decode(ByteReader& r, DecodeContext& c, Duration* out);
  static void encode(DecodeContext& c, Duration v, std::vector<std::uint8_t>* out);
  static constexpr Shrink kShrink = Shrink::kInteger;
  static std::vector<Duration> anchors(Duration, const std::set<Duration>&) {
    return {Duration(0), Duration(1), Duration(1024)};
  }
  static bool in_range(Duration v, unsigned) { return v < Duration::kLimit; }
  template <class G>
  static auto generator(const G& g) { return g.duration(); }
  static std::size_t domain_size(const BfsDomain& d) { return d.duration.size(); }
  static Duration domain_at(const BfsDomain& d, std::size_t i) { return d.duration[i]; }
};

template <>
struct FieldTraits<bool> {
  static constexpr std::string_view kWhat = "flag";
  static std::string print(bool v) { return v ? "1" : "0"; }
  static bool parse(std::string_view s, bool* out, std::string* error);
  static bool decode(ByteReader& r, DecodeContext& c, bool* out);
  static void encode(DecodeContext&, bool v, std::vector<std::uint8_t>* out) {
    out->push_back(v ? 1 : 0);
  }
  static constexpr Shrink kShrink = Shrink::kCandidates;
  static bool in_range(bool, unsigned) { return true; }
  static std::vector<bool> candidates(bool v, unsigned) {
    return v ? std::vector<bool>{false} : std::vector<bool>{};
  }
  template <class G>
  static auto generator(const G& g) { return g.flag(); }
  static std::size_t domain_size(const BfsDomain&) { return 2; }
  static bool domain_at(const BfsDomain&, std::size_t i) { return i != 0; }
};

template <>
struct FieldTraits<Cpumask> {
  static constexpr std::string_view kWhat = "mask";
  static std::string print(const Cpumask& v);
  static bool parse(std::string_view s, Cpumask* out, std::string* error);
  static bool decode(ByteReader& r, DecodeContext& c, Cpumask* out);
  static void encode(DecodeContext& c, const Cpumask& v, std::vector<std::uint8_t>* out);
  static constexpr Shrink kShrink = Shrink::kCandidates;
  // Empty, then each single CPU and each mask with one CPU fewer.
  static std::vector<Cpumask> candidates(const Cpumask& v, unsigned nr);
  static bool in_range(const Cpumask& v, unsigned nr);  // no bit at or beyond nr
  template <class G>
  static auto generator(const G& g) { return g.mask(); }
  // Every mask of the first `cpus` CPUs (cpus <= 12 there: one word).
  static std::size_t domain_size(const BfsDomain& d) { return std::size_t{1} << d.cpus; }
  static Cpumask domain_at(const BfsDomain&, std::size_t i) {
    Cpumask m{};
    m.bits[0] = i;
    return m;
  }
};

// Whether T has field traits (every op field type must).
template <class T>
concept FieldType = requires { FieldTraits<T>::kWhat; };

// Deadlines of any kind (Deadline, TaskDeadline): one circle, one coding.
template <class T>
concept OnDeadlineCircle = requires { requires FieldTraits<T>::kOnDeadlineCircle; };

// Equality of two field values (masks compared below nr_cpu_ids).
template <class T>
bool field_equal(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, Cpumask>)
    return kernel::cpumask_equal(&a, &b);
  else
    return a == b;
}

}  // namespace diffsched::io
