// The binary input format (docs/input-format.md): what fuzzers mutate.
//
//   Decoder<cpudl::Subject> d(bytes);         // any byte string is valid
//   cpudl::Op op;
//   while (d.next(&op)) run.feed(op);         // ops one by one, no allocation
//
//   std::vector<std::uint8_t> body = encode_body(program);      // lossless
//   std::vector<std::uint8_t> file = encode_file(any_program);  // + magic, version
//
// A *body* is the fuzz input: a small header (nr_cpu_ids; for cpudl the
// deadline domain) and then ops, decoded front to back through the subject's
// op table. Decoding is total: every byte value means something, an op whose
// bytes run out is dropped, and nothing is rejected. A *file* is a body behind
// "DSCH", a version byte, the subject and the level (0 = not fixed); `replay`
// checks those and refuses an unknown version.
//
// Versions. v2 (written now): the op byte's low 5 bits are the op's stable
// code (each op struct's kCode); a code no op has is reserved and decodes to
// nothing (the byte is skipped), so adding an op, which takes a reserved code,
// never changes what bytes that decoded to an op mean. v1 (read for old files):
// the op byte was `b % kinds` over the op list of the time (op i had code i),
// and pick had no op byte. Raw bodies carry no version: they are v2.
//
// Deadlines are coded so that mutations reach the interesting values in one
// byte: base + small offset (ties), previous +- small delta (neighbours), one
// of the last 16 deadlines (exact ties), wrap points and extremes, or wider
// and absolute forms. In the default window domain every deadline is folded
// into [base - 2^61, base + 2^61), so live deadlines always fit the kernel's
// 2^63 assumption; the unconstrained domain (header bit) does not fold.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/op.h"
#include "io/bytes.h"
#include "io/fields.h"
#include "io/program.h"
#include "kernel/cpumask.h"

namespace diffsched::io {

using kernel::Cpumask;
using kernel::u64;

inline constexpr std::array<std::uint8_t, 4> kMagic{'D', 'S', 'C', 'H'};
inline constexpr std::uint8_t kFormatVersion = 2;  // written; 1 and 2 are read
inline constexpr std::size_t kFileHeaderSize = 7;  // magic, version, subject, level

// nr_cpu_ids chosen by one header byte below 0xf0 (value % 16).
inline constexpr std::array<unsigned, 16> kNrCpusTable{1,  2,  3,   4,   5,   6,   8,   16,
                                                       31, 63, 64,  65,  127, 128, 256, 8192};

// Header of a body: nr_cpu_ids and, for cpudl, the domain.
unsigned decode_nr_cpus(ByteReader& r);
DeadlineDomain decode_domain(ByteReader& r);

// Whether an op has a deadline field (Deadline, TaskDeadline).
template <class Op>
constexpr bool has_deadline_field() {
  Op op{};
  bool found = false;
  Op::fields(op, [&](std::string_view, const auto& f) {
    if constexpr (OnDeadlineCircle<std::decay_t<decltype(f)>>) found = true;
  });
  return found;
}

// A subject whose ops carry deadlines has a deadline domain (and, for the
// capacity list, is cpudl) in its body header.
template <class S>
inline constexpr bool kHasDeadlines = []<class... Ops>(std::type_identity<std::variant<Ops...>>) {
  return (has_deadline_field<Ops>() || ...);
}(std::type_identity<typename S::Op>{});

// Format v1, frozen: the number of op kinds each subject had (the op byte was
// b % that; op i had code i), its S::kV1OpKinds. 0: the subject did not exist
// in v1.
template <class S>
constexpr unsigned v1_op_kinds() {
  if constexpr (requires { S::kV1OpKinds; })
    return S::kV1OpKinds;
  else
    return 0;
}

// code -> index of the op alternative with that kCode, or -1 (reserved).
template <class Variant>
struct OpCodeTable;
template <class... Ops>
struct OpCodeTable<std::variant<Ops...>> {
  static constexpr std::array<int, kOpCodes> make() {
    std::array<int, kOpCodes> t{};
    t.fill(-1);
    int i = 0;
    ((t[Ops::kCode] = i++), ...);
    return t;
  }
  static constexpr std::array<int, kOpCodes> kIndex = make();
};

template <class S>
class Decoder {
 public:
  using Op = typename S::Op;

  explicit Decoder(std::span<const std::uint8_t> body, unsigned version = kFormatVersion)
      : reader_(body), version_(version) {
    context_.nr_cpu_ids = decode_nr_cpus(reader_);
    if constexpr (kHasDeadlines<S>) {
      context_.domain = decode_domain(reader_);
      context_.prev = context_.domain.base;
      // v2: CPU capacities, 2 bytes LE each: v % 1024 + 1 (v1 had none).
      for (unsigned i = 0; version_ >= 2 && i < context_.domain.capacities; ++i) {
        u64 v = 0;
        reader_.get_le(2, &v);
        capacity_.push_back(static_cast<std::uint16_t>(v % 1024 + 1));
      }
    }
  }

  typename S::Config config() const {
    typename S::Config c;
    c.nr_cpu_ids = context_.nr_cpu_ids;
    if constexpr (requires { c.capacity; }) c.capacity = capacity_;
    return c;
  }
  const DeadlineDomain& domain() const { return context_.domain; }

  // Decodes the next op; false at the end (a trailing partial op is dropped).
  // Needs kernel::nr_cpu_ids == config().nr_cpu_ids for masks.
  bool next(Op* out) {
    constexpr std::size_t kKinds = std::variant_size_v<Op>;
    for (;;) {
      unsigned code = 0;
      if (version_ == 1) {
        if (reader_.done()) return false;
        if constexpr (v1_op_kinds<S>() > 1) {
          std::uint8_t b;
          reader_.get(&b);
          code = b % v1_op_kinds<S>();
        }
      } else {
        std::uint8_t b;
        if (!reader_.get(&b)) return false;
        code = b % kOpCodes;
      }
      const int kind = OpCodeTable<Op>::kIndex[code];
      if (kind < 0) continue;  // reserved code: nothing
      return decode_kind(static_cast<std::size_t>(kind), out, std::make_index_sequence<kKinds>{});
    }
  }

 private:
  template <std::size_t... I>
  bool decode_kind(std::size_t kind, Op* out, std::index_sequence<I...>) {
    bool ok = false;
    (void)((kind == I && ((ok = decode_as<std::variant_alternative_t<I, Op>>(out)), true)) ||
           ...);
    return ok;
  }

  template <class T>
  bool decode_as(Op* out) {
    T op{};
    bool ok = true;
    for_each_field(op, [&](std::string_view, auto& v) {
      if (ok) ok = FieldTraits<std::decay_t<decltype(v)>>::decode(reader_, context_, &v);
    });
    if (ok) out->template emplace<T>(op);
    return ok;
  }

  ByteReader reader_;
  unsigned version_;
  DecodeContext context_;
  std::vector<std::uint16_t> capacity_;  // cpudl: Config::capacity
};

// Decodes a whole body into a program (level unset).
template <class S>
Program<S> decode_body(std::span<const std::uint8_t> body, unsigned version = kFormatVersion) {
  Decoder<S> d(body, version);
  Program<S> p;
  p.config = d.config();
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  typename S::Op op{};
  while (d.next(&op)) p.ops.push_back(op);
  return p;
}

// kernel-check's --nr-cpus form of a body: its first byte picks one of
// `nr_cpus` (byte % count) and the rest is a body without its nr_cpu_ids
// header. shape_body() gives the plain body (in itself when nr_cpus is
// empty; else built in *buf); unshape_body() turns a plain body whose
// nr_cpu_ids is one of nr_cpus back into that form (false if it is none).
std::span<const std::uint8_t> shape_body(std::span<const std::uint8_t> in,
                                         std::span<const unsigned> nr_cpus,
                                         std::vector<std::uint8_t>* buf);
bool unshape_body(std::vector<std::uint8_t>* body, std::span<const unsigned> nr_cpus);

// Encodes a program as a body that decodes to the same config and ops.
std::vector<std::uint8_t> encode_body(const AnyProgram& program);

// File form: magic, version, subject, level, body.
std::vector<std::uint8_t> encode_file(const AnyProgram& program);

bool has_magic(std::span<const std::uint8_t> bytes);

// The 7-byte header of a file: checked (magic, version, subject, a level
// that means something for the subject); false with a one-line reason.
struct FileHeader {
  unsigned version = kFormatVersion;
  std::size_t subject = 0;  // index in Subjects
  std::optional<Level> level;
};
bool decode_file_header(std::span<const std::uint8_t> bytes, FileHeader* out,
                        std::string* error);

// Decodes a file; on a bad header returns nullopt with a one-line reason.
std::optional<AnyProgram> decode_file(std::span<const std::uint8_t> bytes, std::string* error);

// Decodes a raw body (a fuzzer's input) for the named subject.
std::optional<AnyProgram> decode_body_for(std::string_view subject,
                                          std::span<const std::uint8_t> body);

// Field-by-field equality of two programs' configs and ops (masks compared
// below nr_cpu_ids).
bool programs_equal(const AnyProgram& a, const AnyProgram& b);

}  // namespace diffsched::io
