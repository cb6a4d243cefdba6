// The byte-level reading state of the binary format (docs/input-format.md):
// what every field decoder (io/fields.h) reads from and updates.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "kernel/types.h"

namespace diffsched::io {

using kernel::u64;

// Deadline domain of a cpudl body.
struct DeadlineDomain {
  bool unconstrained = false;
  u64 base = 0;
  unsigned capacities = 0;  // v2: how many CPU capacities follow the domain
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

}  // namespace diffsched::io
