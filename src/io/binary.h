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
// checks those and refuses a wrong version.
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
#include "io/program.h"
#include "kernel/cpumask.h"

namespace diffsched::io {

using kernel::Cpumask;
using kernel::u64;

inline constexpr std::array<std::uint8_t, 4> kMagic{'D', 'S', 'C', 'H'};
inline constexpr std::uint8_t kFormatVersion = 1;
inline constexpr std::size_t kFileHeaderSize = 7;  // magic, version, subject, level

// nr_cpu_ids chosen by one header byte below 0xf0 (value % 16).
inline constexpr std::array<unsigned, 16> kNrCpusTable{1,  2,  3,   4,   5,   6,   8,   16,
                                                       31, 63, 64,  65,  127, 128, 256, 8192};

// Deadline domain of a cpudl body.
struct DeadlineDomain {
  bool unconstrained = false;
  u64 base = 0;
};

// Special deadlines (mode 3): relative ones are offsets from base.
u64 special_deadline(unsigned index, u64 base);
inline constexpr unsigned kSpecialDeadlines = 16;

// Folds v into [base - 2^61, base + 2^61) (window domain).
inline u64 fold_deadline(u64 v, u64 base) {
  constexpr u64 kHalf = u64{1} << 61;
  return base + (((v - base) + kHalf) & ((u64{1} << 62) - 1)) - kHalf;
}

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool get(std::uint8_t* b) {
    if (pos_ >= bytes_.size()) return false;
    *b = bytes_[pos_++];
    return true;
  }
  // Little-endian; false if the bytes run out.
  bool get_le(unsigned n, u64* v) {
    *v = 0;
    for (unsigned i = 0; i < n; ++i) {
      std::uint8_t b;
      if (!get(&b)) return false;
      *v |= u64{b} << (8 * i);
    }
    return true;
  }
  bool done() const { return pos_ >= bytes_.size(); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

// Decoding state shared by the field decoders of one body.
struct DecodeContext {
  unsigned nr_cpu_ids = 1;
  DeadlineDomain domain;
  u64 prev = 0;                    // last deadline decoded
  std::array<u64, 16> recent{};    // ring of the last 16 deadlines
  unsigned recent_count = 0;

  void remember(u64 dl) {
    recent[recent_count % recent.size()] = dl;
    ++recent_count;
    prev = dl;
  }
};

// Field decoders: false when the bytes run out (the op is then dropped).
bool decode_field(ByteReader& r, DecodeContext& c, int* cpu);
bool decode_field(ByteReader& r, DecodeContext& c, u64* dl);
bool decode_field(ByteReader& r, DecodeContext& c, bool* flag);
bool decode_field(ByteReader& r, DecodeContext& c, Cpumask* mask);
bool decode_field(ByteReader& r, DecodeContext& c, cpumask::Reg* reg);

// Header of a body: nr_cpu_ids and, for cpudl, the domain.
unsigned decode_nr_cpus(ByteReader& r);
DeadlineDomain decode_domain(ByteReader& r);

template <class S>
inline constexpr bool kHasDeadlines = std::is_same_v<S, cpudl::Subject>;

template <class S>
class Decoder {
 public:
  using Op = typename S::Op;

  explicit Decoder(std::span<const std::uint8_t> body) : reader_(body) {
    context_.nr_cpu_ids = decode_nr_cpus(reader_);
    if constexpr (kHasDeadlines<S>) {
      context_.domain = decode_domain(reader_);
      context_.prev = context_.domain.base;
    }
  }

  typename S::Config config() const {
    typename S::Config c;
    c.nr_cpu_ids = context_.nr_cpu_ids;
    return c;
  }
  const DeadlineDomain& domain() const { return context_.domain; }

  // Decodes the next op; false at the end (a trailing partial op is dropped).
  // Needs kernel::nr_cpu_ids == config().nr_cpu_ids for masks.
  bool next(Op* out) {
    constexpr std::size_t kKinds = std::variant_size_v<Op>;
    std::size_t kind = 0;
    if constexpr (kKinds > 1) {
      std::uint8_t b;
      if (!reader_.get(&b)) return false;
      kind = b % kKinds;
    }
    return decode_kind(kind, out, std::make_index_sequence<kKinds>{});
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
      if (ok) ok = decode_field(reader_, context_, &v);
    });
    if (ok) out->template emplace<T>(op);
    return ok;
  }

  ByteReader reader_;
  DecodeContext context_;
};

// Decodes a whole body into a program (level unset).
template <class S>
Program<S> decode_body(std::span<const std::uint8_t> body) {
  Decoder<S> d(body);
  Program<S> p;
  p.config = d.config();
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  typename S::Op op{};
  while (d.next(&op)) p.ops.push_back(op);
  return p;
}

// Encodes a program as a body that decodes to the same config and ops.
std::vector<std::uint8_t> encode_body(const AnyProgram& program);

// File form: magic, version, subject, level, body.
std::vector<std::uint8_t> encode_file(const AnyProgram& program);

bool has_magic(std::span<const std::uint8_t> bytes);

// The 7-byte header of a file: checked (magic, version, subject, a level
// that means something for the subject); false with a one-line reason.
struct FileHeader {
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
