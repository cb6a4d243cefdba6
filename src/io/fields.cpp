#include "io/fields.h"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::io {

namespace {

unsigned words_of(unsigned nr) { return kernel::BITS_TO_LONGS(nr); }

unsigned long word_mask(unsigned w, unsigned nr) {
  const unsigned first = w * 64;
  if (first + 64 <= nr) return ~0UL;
  return first >= nr ? 0UL : ~0UL >> (64 - (nr - first));
}

void put_le(std::vector<std::uint8_t>* out, unsigned n, u64 v) {
  for (unsigned i = 0; i < n; ++i) out->push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// Writes the first of `candidates` (shortest first) that decodes to exactly
// `want` from the context's state, and advances the context as decoding would.
template <class T, class Equal>
void encode_first(DecodeContext& c, const std::vector<std::vector<std::uint8_t>>& candidates,
                  const T& want, Equal&& equal, std::vector<std::uint8_t>* out) {
  for (const auto& bytes : candidates) {
    DecodeContext trial = c;
    ByteReader r(bytes);
    T got{};
    if (FieldTraits<T>::decode(r, trial, &got) && r.done() && equal(got, want)) {
      out->insert(out->end(), bytes.begin(), bytes.end());
      c = trial;
      return;
    }
  }
}

}  // namespace

// ---- integers ---------------------------------------------------------------

namespace {

template <class T>
bool parse_integer(std::string_view s, T* out, std::string* error) {
  int base = 10;
  std::string_view digits = s;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *out, base);
  if (digits.empty() || ec != std::errc{} || p != digits.data() + digits.size()) {
    *error = ec == std::errc::result_out_of_range
                 ? fmt::format("'{}' is out of range", excerpt(s))
                 : fmt::format("'{}' is not a number", excerpt(s));
    return false;
  }
  return true;
}

}  // namespace

bool parse_u64(std::string_view s, u64* out, std::string* error) {
  return parse_integer(s, out, error);
}

std::string print_u64(u64 v) {
  if (v <= 0xffffffffULL) return fmt::format("{}", v);
  return fmt::format("{:#x}", v);
}

// ---- Cpu --------------------------------------------------------------------

std::string FieldTraits<Cpu>::print(Cpu v) { return fmt::format("{}", v.value); }

bool FieldTraits<Cpu>::parse(std::string_view s, Cpu* out, std::string* error) {
  int v;
  if (!parse_integer(s, &v, error)) return false;
  if (v < 0 || static_cast<unsigned>(v) >= kernel::nr_cpu_ids) {
    *error = fmt::format("CPU {} is out of range (nr_cpu_ids is {})", v, kernel::nr_cpu_ids);
    return false;
  }
  *out = v;
  return true;
}

bool FieldTraits<Cpu>::decode(ByteReader& r, DecodeContext& c, Cpu* out) {
  u64 v;
  if (!r.get_le(c.nr_cpu_ids <= 256 ? 1 : 2, &v)) return false;
  *out = static_cast<int>(v % c.nr_cpu_ids);
  return true;
}

void FieldTraits<Cpu>::encode(DecodeContext& c, Cpu v, std::vector<std::uint8_t>* out) {
  put_le(out, c.nr_cpu_ids <= 256 ? 1 : 2, static_cast<u64>(v.value));
}

// ---- deadlines --------------------------------------------------------------

bool decode_deadline(ByteReader& r, DecodeContext& c, u64* dl) {
  std::uint8_t d;
  if (!r.get(&d)) return false;
  const unsigned p = d & 31;
  const u64 base = c.domain.base;
  u64 v = 0;
  switch (d >> 5) {
    case 0: v = base + p; break;
    case 1: v = c.prev + p - 16; break;
    case 2: {
      const unsigned n = std::min<unsigned>(c.recent_count, c.recent.size());
      v = n == 0 ? base : c.recent[(c.recent_count - 1 - p % n) % c.recent.size()];
      break;
    }
    case 3: v = special_deadline(p, base); break;
    case 4: {
      std::uint8_t q;
      if (!r.get(&q)) return false;
      v = base + ((u64{p} << 8) | q);
      break;
    }
    case 5: {
      u64 w;
      if (!r.get_le(4, &w)) return false;
      v = base + static_cast<u64>(static_cast<std::int64_t>(static_cast<std::int32_t>(w)));
      break;
    }
    case 6:
      if (!r.get_le(8, &v)) return false;
      break;
    default: v = base - 1 - p; break;
  }
  if (!c.domain.unconstrained) v = fold_deadline(v, base);
  c.remember(v);
  *dl = v;
  return true;
}

// The first form (mode 0..7) that decodes to exactly `dl` from the current
// state; the absolute form always does (the domain was chosen so).
void encode_deadline(DecodeContext& c, u64 dl, std::vector<std::uint8_t>* out) {
  // Each form is tried by decoding it; the bytes live on the stack (this
  // runs for every deadline the op-level mutator encodes).
  std::array<std::uint8_t, 9> bytes{};
  std::size_t n = 0;
  const auto put = [&](unsigned count, u64 v) {
    for (unsigned i = 0; i < count; ++i) bytes[n++] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  for (unsigned mode = 0; mode < 8; ++mode) {
    for (unsigned p = 0; p < 32; ++p) {
      n = 0;
      bytes[n++] = static_cast<std::uint8_t>(mode << 5 | p);
      const u64 base = c.domain.base;
      if (mode == 4) {
        const u64 off = dl - base;
        if (off >= 8192 || (off >> 8) != p) continue;
        bytes[n++] = static_cast<std::uint8_t>(off);
      } else if (mode == 5) {
        if (p) break;
        const auto off = static_cast<std::int64_t>(dl - base);
        if (off < INT32_MIN || off > INT32_MAX) continue;
        put(4, static_cast<u64>(off));
      } else if (mode == 6) {
        if (p) break;
        put(8, dl);
      }
      DecodeContext trial = c;
      ByteReader r(std::span<const std::uint8_t>(bytes.data(), n));
      u64 got;
      if (decode_deadline(r, trial, &got) && got == dl && r.done()) {
        out->insert(out->end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        c = trial;
        return;
      }
    }
  }
}

std::vector<u64> deadline_anchors(u64 v, const std::set<u64>& program_values) {
  std::set<u64> seen = program_values;
  for (u64 c = 0; c < 8; ++c) seen.insert(c);
  std::vector<u64> out;
  for (u64 c : seen)
    if (c < v) out.push_back(c);
  return out;
}

// ---- Duration ---------------------------------------------------------------

bool FieldTraits<Duration>::parse(std::string_view s, Duration* out, std::string* error) {
  u64 v;
  if (!parse_u64(s, &v, error)) return false;
  if (v >= Duration::kLimit) {
    *error = fmt::format("duration {} is out of range (below 2^53 ns)", print_u64(v));
    return false;
  }
  *out = v;
  return true;
}

// Two bytes LE v; v == 0xffff: the next 8 bytes LE, modulo 2^53.
bool FieldTraits<Duration>::decode(ByteReader& r, DecodeContext&, Duration* out) {
  u64 v;
  if (!r.get_le(2, &v)) return false;
  if (v == 0xffff) {
    if (!r.get_le(8, &v)) return false;
    v %= Duration::kLimit;
  }
  *out = v;
  return true;
}

void FieldTraits<Duration>::encode(DecodeContext&, Duration v, std::vector<std::uint8_t>* out) {
  if (v.value < 0xffff) {
    put_le(out, 2, v.value);
  } else {
    put_le(out, 2, 0xffff);
    put_le(out, 8, v.value);
  }
}

// ---- flags and registers ----------------------------------------------------

bool FieldTraits<bool>::parse(std::string_view s, bool* out, std::string* error) {
  if (s == "1" || s == "true") {
    *out = true;
    return true;
  }
  if (s == "0" || s == "false") {
    *out = false;
    return true;
  }
  *error = fmt::format("'{}' is not 0 or 1", excerpt(s));
  return false;
}

bool FieldTraits<bool>::decode(ByteReader& r, DecodeContext&, bool* flag) {
  std::uint8_t b;
  if (!r.get(&b)) return false;
  *flag = (b & 1) != 0;
  return true;
}

// ---- masks ------------------------------------------------------------------

std::string FieldTraits<Cpumask>::print(const Cpumask& v) {
  std::string s = kernel::cpumask_to_cpulist(v);
  return s.empty() ? std::string("none") : s;
}

bool FieldTraits<Cpumask>::parse(std::string_view s, Cpumask* out, std::string* error) {
  if (s == "none") {
    *out = Cpumask{};
    return true;
  }
  return kernel::cpulist_parse(s, out, error);
}

bool FieldTraits<Cpumask>::decode(ByteReader& r, DecodeContext& c, Cpumask* mask) {
  std::uint8_t m;
  if (!r.get(&m)) return false;
  const unsigned nr = c.nr_cpu_ids;
  Cpumask out{};
  auto set = [&](int cpu) { out.bits[cpu / 64] |= 1UL << (cpu % 64); };
  auto cpu = [&](Cpu* a) { return FieldTraits<Cpu>::decode(r, c, a); };
  Cpu a, b;
  switch (m & 7) {
    case 0: break;
    case 1:
      for (unsigned w = 0; w < words_of(nr); ++w) out.bits[w] = word_mask(w, nr);
      break;
    case 2:
      if (!cpu(&a)) return false;
      set(a);
      break;
    case 3:
      if (!cpu(&a) || !cpu(&b)) return false;
      for (int x = std::min<int>(a, b); x <= std::max<int>(a, b); ++x) set(x);
      break;
    case 4:
      if (!cpu(&a)) return false;
      for (unsigned w = 0; w < words_of(nr); ++w) out.bits[w] = word_mask(w, nr);
      out.bits[a / 64] &= ~(1UL << (a % 64));
      break;
    case 5:
      for (unsigned i = 0; i <= static_cast<unsigned>(m >> 3); ++i) {
        if (!cpu(&a)) return false;
        set(a);
      }
      break;
    case 6: {
      std::uint8_t w;
      u64 v;
      if (!r.get(&w) || !r.get_le(8, &v)) return false;
      const unsigned word = w % words_of(nr);
      out.bits[word] = v & word_mask(word, nr);
      break;
    }
    default:
      for (unsigned w = 0; w < words_of(nr); ++w) {
        u64 v;
        if (!r.get_le(8, &v)) return false;
        out.bits[w] = v & word_mask(w, nr);
      }
      break;
  }
  *mask = out;
  return true;
}

void FieldTraits<Cpumask>::encode(DecodeContext& c, const Cpumask& mask,
                                  std::vector<std::uint8_t>* out) {
  const unsigned nr = c.nr_cpu_ids;
  std::vector<std::vector<std::uint8_t>> candidates;
  const unsigned weight = kernel::cpumask_weight(&mask);
  const unsigned first = kernel::cpumask_first(&mask);
  auto cpu_bytes = [&](unsigned cpu) {
    std::vector<std::uint8_t> b;
    put_le(&b, nr > 256 ? 2 : 1, cpu);
    return b;
  };
  auto with = [](std::uint8_t head, std::initializer_list<std::vector<std::uint8_t>> parts) {
    std::vector<std::uint8_t> b{head};
    for (const auto& p : parts) b.insert(b.end(), p.begin(), p.end());
    return b;
  };
  candidates.push_back({0});
  candidates.push_back({1});
  if (weight >= 1) {
    candidates.push_back(with(2, {cpu_bytes(first)}));
    unsigned last = first;
    for (unsigned x = first; x < nr; x = kernel::cpumask_next(static_cast<int>(x), &mask)) last = x;
    candidates.push_back(with(3, {cpu_bytes(first), cpu_bytes(last)}));
  }
  if (weight + 1 == nr) {
    Cpumask inverse{};
    for (unsigned w = 0; w < words_of(nr); ++w) inverse.bits[w] = ~mask.bits[w] & word_mask(w, nr);
    candidates.push_back(with(4, {cpu_bytes(kernel::cpumask_first(&inverse))}));
  }
  if (weight >= 1 && weight <= 32) {
    std::vector<std::uint8_t> b{static_cast<std::uint8_t>(5 | (weight - 1) << 3)};
    for (unsigned cpu = first; cpu < nr; cpu = kernel::cpumask_next(static_cast<int>(cpu), &mask)) {
      auto cb = cpu_bytes(cpu);
      b.insert(b.end(), cb.begin(), cb.end());
    }
    candidates.push_back(b);
  }
  if (weight >= 1) {
    std::vector<std::uint8_t> b{6, static_cast<std::uint8_t>(first / 64)};
    put_le(&b, 8, mask.bits[first / 64]);
    candidates.push_back(b);
  }
  {
    std::vector<std::uint8_t> b{7};
    for (unsigned w = 0; w < words_of(nr); ++w) put_le(&b, 8, mask.bits[w]);
    candidates.push_back(b);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& x, const auto& y) { return x.size() < y.size(); });
  encode_first<Cpumask>(c, candidates, mask,
                        [](const Cpumask& x, const Cpumask& y) { return kernel::cpumask_equal(&x, &y); },
                        out);
}

bool FieldTraits<Cpumask>::in_range(const Cpumask& v, unsigned nr) {
  for (unsigned w = nr / 64; w < kernel::BITS_TO_LONGS(kernel::NR_CPUS); ++w) {
    const unsigned long beyond = w * 64 >= nr ? ~0UL : ~0UL << (nr - w * 64);
    if (v.bits[w] & beyond) return false;
  }
  return true;
}

std::vector<Cpumask> FieldTraits<Cpumask>::candidates(const Cpumask& v, unsigned nr) {
  std::vector<Cpumask> out;
  kernel::NrCpuIdsScope scope(nr);
  if (!kernel::cpumask_empty(&v)) out.push_back(Cpumask{});
  unsigned count = 0;
  for (unsigned c = kernel::cpumask_first(&v); c < nr && count < 64;
       c = kernel::cpumask_next(static_cast<int>(c), &v), ++count) {
    Cpumask one{};
    kernel::cpumask_set_cpu(c, &one);
    if (kernel::cpumask_weight(&v) > 1) out.push_back(one);
    Cpumask without = v;
    kernel::cpumask_clear_cpu(c, &without);
    out.push_back(without);
  }
  return out;
}

}  // namespace diffsched::io
