// struct cpumask and the cpumask/bitmap API that the modelled code calls.
//
//   Cpumask m{};                        // zeroed, like a static cpumask
//   cpumask_set_cpu(3, &m);
//   unsigned cpu = cpumask_first_and_and(&a, &b, &c);  // nr_cpu_ids if none
//
// Models include/linux/cpumask.h, lib/bitmap.c and lib/find_bit.c of v6.15
// (the first release with cpumask_first_and_and) for a kernel built with
// CONFIG_NR_CPUS=8192 and CONFIG_CPUMASK_OFFSTACK=y, where
// small_cpumask_bits == nr_cpumask_bits == nr_cpu_ids. Semantics kept:
//   - a struct cpumask always holds NR_CPUS bits; searches stop at nr_cpu_ids;
//   - "not found" is nr_cpu_ids (find_*_bit return the size; cpumask_* clamp);
//   - cpumask_and() writes only the words below nr_cpu_ids and returns whether
//     the result is non-empty (bitmap_and);
//   - no bit at or beyond nr_cpu_ids is ever set: cpumask_set_cpu() on such a
//     CPU is a caller bug (the kernel's cpumask_check() warns); here it aborts.
// `Cpumask m;` (no braces) leaves the bits indeterminate, as a C stack
// variable: the optimized pick relies on that to be measured faithfully.
#pragma once

#include <bit>
#include <string>
#include <string_view>

#include "kernel/types.h"

namespace diffsched::kernel {

struct Cpumask {
  unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

// The kernel's runtime `nr_cpu_ids` (set once at boot there). Thread-local so
// that independent runs can use different values; set it with NrCpuIdsScope.
extern thread_local unsigned nr_cpu_ids;

class NrCpuIdsScope {
 public:
  explicit NrCpuIdsScope(unsigned n);
  ~NrCpuIdsScope() { nr_cpu_ids = saved_; }
  NrCpuIdsScope(const NrCpuIdsScope&) = delete;
  NrCpuIdsScope& operator=(const NrCpuIdsScope&) = delete;

 private:
  unsigned saved_;
};

[[noreturn]] void cpumask_check_failed(unsigned cpu);

// cpumask_check(): the kernel WARNs for cpu >= nr_cpu_ids; we abort, since a
// model that set such a bit would be testing something the kernel never does.
inline unsigned cpumask_check(unsigned cpu) {
  if (cpu >= nr_cpu_ids) [[unlikely]]
    cpumask_check_failed(cpu);
  return cpu;
}

inline unsigned long BIT_WORD_MASK(unsigned nr) {
  return 1UL << (nr % BITS_PER_LONG);
}

// ---- lib/find_bit.c (v6.15): FIND_FIRST_BIT / FIND_NEXT_BIT ------------------

// find_first_bit(addr, size): index of the first set bit below size, or size.
// O(size / 64).
inline unsigned find_first_bit(const unsigned long* addr, unsigned size) {
  for (unsigned idx = 0; idx * BITS_PER_LONG < size; ++idx) {
    if (unsigned long val = addr[idx]) {
      unsigned bit = idx * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(val));
      return bit < size ? bit : size;
    }
  }
  return size;
}

inline unsigned find_first_and_bit(const unsigned long* a1,
                                   const unsigned long* a2, unsigned size) {
  for (unsigned idx = 0; idx * BITS_PER_LONG < size; ++idx) {
    if (unsigned long val = a1[idx] & a2[idx]) {
      unsigned bit = idx * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(val));
      return bit < size ? bit : size;
    }
  }
  return size;
}

// find_first_and_and_bit (v6.15): ANDs three words at a time and stops at the
// first non-zero word.
inline unsigned find_first_and_and_bit(const unsigned long* a1,
                                       const unsigned long* a2,
                                       const unsigned long* a3, unsigned size) {
  for (unsigned idx = 0; idx * BITS_PER_LONG < size; ++idx) {
    if (unsigned long val = a1[idx] & a2[idx] & a3[idx]) {
      unsigned bit = idx * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(val));
      return bit < size ? bit : size;
    }
  }
  return size;
}

// FIND_NEXT_BIT(EXPRESSION, MUNGE, size, start): first bit >= start, or size.
template <class Word>
inline unsigned find_next_bit_expr(Word word, unsigned size, unsigned start) {
  if (size > NR_CPUS) __builtin_unreachable();  // every bitmap here is a cpumask
  if (start >= size) return size;
  unsigned idx = start / BITS_PER_LONG;
  unsigned long tmp = word(idx) & (~0UL << (start % BITS_PER_LONG));
  while (!tmp) {
    ++idx;
    if (idx * BITS_PER_LONG >= size) return size;
    tmp = word(idx);
  }
  unsigned bit = idx * BITS_PER_LONG + static_cast<unsigned>(std::countr_zero(tmp));
  return bit < size ? bit : size;
}

inline unsigned find_next_bit(const unsigned long* addr, unsigned size,
                              unsigned start) {
  return find_next_bit_expr([addr](unsigned i) { return addr[i]; }, size, start);
}

inline unsigned find_next_and_bit(const unsigned long* a1,
                                  const unsigned long* a2, unsigned size,
                                  unsigned start) {
  return find_next_bit_expr([a1, a2](unsigned i) { return a1[i] & a2[i]; },
                            size, start);
}

// ---- lib/bitmap.c ------------------------------------------------------------

inline unsigned long BITMAP_LAST_WORD_MASK(unsigned nbits) {
  return ~0UL >> (-nbits & (BITS_PER_LONG - 1));
}

// __bitmap_and(): writes BITS_TO_LONGS(bits) words of dst, masks the last
// partial word, returns whether any bit is set.
inline bool bitmap_and(unsigned long* dst, const unsigned long* b1,
                       const unsigned long* b2, unsigned bits) {
  unsigned k;
  const unsigned lim = bits / BITS_PER_LONG;
  unsigned long result = 0;
  for (k = 0; k < lim; k++) result |= (dst[k] = b1[k] & b2[k]);
  if (bits % BITS_PER_LONG)
    result |= (dst[k] = b1[k] & b2[k] & BITMAP_LAST_WORD_MASK(bits));
  return result != 0;
}

unsigned bitmap_weight(const unsigned long* src, unsigned bits);

// ---- include/linux/cpumask.h -------------------------------------------------


inline bool cpumask_test_cpu(unsigned cpu, const Cpumask* m) {
  cpumask_check(cpu);
  return (m->bits[cpu / BITS_PER_LONG] & BIT_WORD_MASK(cpu)) != 0;
}
inline void cpumask_set_cpu(unsigned cpu, Cpumask* m) {
  cpumask_check(cpu);
  m->bits[cpu / BITS_PER_LONG] |= BIT_WORD_MASK(cpu);
}
inline void cpumask_clear_cpu(unsigned cpu, Cpumask* m) {
  cpumask_check(cpu);
  m->bits[cpu / BITS_PER_LONG] &= ~BIT_WORD_MASK(cpu);
}
// Non-atomic forms (v6.19 cpudeadline.c uses them under cp->lock).
inline void __cpumask_set_cpu(unsigned cpu, Cpumask* m) { cpumask_set_cpu(cpu, m); }
inline void __cpumask_clear_cpu(unsigned cpu, Cpumask* m) { cpumask_clear_cpu(cpu, m); }

inline void cpumask_clear(Cpumask* m) {
  for (unsigned k = 0; k < BITS_TO_LONGS(nr_cpu_ids); ++k) m->bits[k] = 0;
}
inline void cpumask_copy(Cpumask* dst, const Cpumask* src) {
  for (unsigned k = 0; k < BITS_TO_LONGS(nr_cpu_ids); ++k) dst->bits[k] = src->bits[k];
}

inline bool cpumask_and(Cpumask* dst, const Cpumask* a, const Cpumask* b) {
  return bitmap_and(dst->bits, a->bits, b->bits, nr_cpu_ids);
}
inline unsigned cpumask_first(const Cpumask* m) {
  return find_first_bit(m->bits, nr_cpu_ids);
}
// cpumask_next(n, m): first CPU after n (n == -1 starts at 0), or nr_cpu_ids.
inline unsigned cpumask_next(int n, const Cpumask* m) {
  if (n != -1) cpumask_check(static_cast<unsigned>(n));
  return find_next_bit(m->bits, nr_cpu_ids, static_cast<unsigned>(n + 1));
}
inline unsigned cpumask_first_and(const Cpumask* a, const Cpumask* b) {
  return find_first_and_bit(a->bits, b->bits, nr_cpu_ids);
}
inline unsigned cpumask_first_and_and(const Cpumask* a, const Cpumask* b,
                                      const Cpumask* c) {
  return find_first_and_and_bit(a->bits, b->bits, c->bits, nr_cpu_ids);
}
inline unsigned cpumask_weight(const Cpumask* m) {
  return bitmap_weight(m->bits, nr_cpu_ids);
}
inline bool cpumask_empty(const Cpumask* m) {
  return find_first_bit(m->bits, nr_cpu_ids) == nr_cpu_ids;
}
inline bool cpumask_equal(const Cpumask* a, const Cpumask* b) {
  for (unsigned k = 0; k < nr_cpu_ids / BITS_PER_LONG; ++k)
    if (a->bits[k] != b->bits[k]) return false;
  if (nr_cpu_ids % BITS_PER_LONG) {
    const unsigned k = nr_cpu_ids / BITS_PER_LONG;
    if ((a->bits[k] ^ b->bits[k]) & BITMAP_LAST_WORD_MASK(nr_cpu_ids)) return false;
  }
  return true;
}

// for_each_cpu_and(cpu, mask1, mask2): v6.x expands to for_each_and_bit() over
// small_cpumask_bits, i.e. find_next_and_bit() from the last CPU + 1.
#define for_each_cpu_and(cpu, mask1, mask2)                                   \
  for ((cpu) = 0;                                                             \
       (cpu) = ::diffsched::kernel::find_next_and_bit(                        \
           (mask1)->bits, (mask2)->bits, ::diffsched::kernel::nr_cpu_ids,     \
           (cpu)),                                                            \
       (cpu) < ::diffsched::kernel::nr_cpu_ids;                               \
       (cpu)++)

// ---- text form: the kernel's cpulist syntax ("0-3,64,130-131") --------------

// cpumask_to_cpulist(m): like "%*pbl"; the empty mask prints as "".
std::string cpumask_to_cpulist(const Cpumask& m);

// Parses a cpulist ("", "5", "0-3,64,130-131"; spaces around items allowed).
// On error returns false and sets `error` to a one-line reason. Every CPU must
// be below nr_cpu_ids (bitmap_parselist's -ERANGE).
bool cpulist_parse(std::string_view text, Cpumask* out, std::string* error);

}  // namespace diffsched::kernel
