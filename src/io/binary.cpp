#include "io/binary.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace diffsched::io {

namespace {

constexpr u64 k63 = u64{1} << 63;
constexpr u64 k61 = u64{1} << 61;

unsigned words_of(unsigned nr) { return kernel::BITS_TO_LONGS(nr); }

unsigned long word_mask(unsigned w, unsigned nr) {
  const unsigned first = w * 64;
  if (first + 64 <= nr) return ~0UL;
  return first >= nr ? 0UL : ~0UL >> (64 - (nr - first));
}

}  // namespace

u64 special_deadline(unsigned index, u64 base) {
  switch (index % kSpecialDeadlines) {
    case 0: return 0;
    case 1: return 1;
    case 2: return k63 - 1;
    case 3: return k63;
    case 4: return k63 + 1;
    case 5: return ~u64{0};
    case 6: return ~u64{0} - 1;
    case 7: return u64{1} << 32;
    case 8: return (u64{1} << 32) - 1;
    case 9: return base - k61;          // lowest deadline of the window
    case 10: return base + k61 - 1;     // highest deadline of the window
    case 11: return base + (u64{1} << 31);
    case 12: return base - (u64{1} << 31);
    case 13: return base + (u64{1} << 32);
    case 14: return base - (u64{1} << 32);
    default: return base + k63;         // opposite end of the circle
  }
}

unsigned decode_nr_cpus(ByteReader& r) {
  std::uint8_t b = 0;
  r.get(&b);
  if (b < 0xf0) return kNrCpusTable[b % kNrCpusTable.size()];
  u64 v = 0;
  r.get_le(2, &v);
  return static_cast<unsigned>(v % kernel::NR_CPUS) + 1;
}

DeadlineDomain decode_domain(ByteReader& r) {
  std::uint8_t b = 0;
  r.get(&b);
  DeadlineDomain d;
  d.unconstrained = (b & 0x80) != 0;
  switch (b & 3) {
    case 0: d.base = 0; break;
    case 1: d.base = k63 - 16; break;
    case 2: d.base = ~u64{0} - 15; break;
    default: r.get_le(8, &d.base); break;
  }
  return d;
}

bool decode_field(ByteReader& r, DecodeContext& c, int* cpu) {
  u64 v;
  if (!r.get_le(c.nr_cpu_ids <= 256 ? 1 : 2, &v)) return false;
  *cpu = static_cast<int>(v % c.nr_cpu_ids);
  return true;
}

bool decode_field(ByteReader& r, DecodeContext& c, u64* dl) {
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
      v = n == 0 ? base
                 : c.recent[(c.recent_count - 1 - p % n) % c.recent.size()];
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

bool decode_field(ByteReader& r, DecodeContext&, bool* flag) {
  std::uint8_t b;
  if (!r.get(&b)) return false;
  *flag = (b & 1) != 0;
  return true;
}

bool decode_field(ByteReader& r, DecodeContext&, cpumask::Reg* reg) {
  std::uint8_t b;
  if (!r.get(&b)) return false;
  reg->r = b % cpumask::kRegisters;
  return true;
}

bool decode_field(ByteReader& r, DecodeContext& c, Cpumask* mask) {
  std::uint8_t m;
  if (!r.get(&m)) return false;
  const unsigned nr = c.nr_cpu_ids;
  Cpumask out{};
  auto set = [&](int cpu) { out.bits[cpu / 64] |= 1UL << (cpu % 64); };
  int a, b;
  switch (m & 7) {
    case 0: break;
    case 1:
      for (unsigned w = 0; w < words_of(nr); ++w) out.bits[w] = word_mask(w, nr);
      break;
    case 2:
      if (!decode_field(r, c, &a)) return false;
      set(a);
      break;
    case 3:
      if (!decode_field(r, c, &a) || !decode_field(r, c, &b)) return false;
      for (int x = std::min(a, b); x <= std::max(a, b); ++x) set(x);
      break;
    case 4:
      if (!decode_field(r, c, &a)) return false;
      for (unsigned w = 0; w < words_of(nr); ++w) out.bits[w] = word_mask(w, nr);
      out.bits[a / 64] &= ~(1UL << (a % 64));
      break;
    case 5:
      for (unsigned i = 0; i <= static_cast<unsigned>(m >> 3); ++i) {
        if (!decode_field(r, c, &a)) return false;
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

// ---- encoding -------------------------------------------------------------

namespace {

class Encoder {
 public:
  Encoder(std::vector<std::uint8_t>* out, DecodeContext context)
      : out_(out), c_(context) {}

  void put(std::uint8_t b) { out_->push_back(b); }
  void put_le(unsigned n, u64 v) {
    for (unsigned i = 0; i < n; ++i) put(static_cast<std::uint8_t>(v >> (8 * i)));
  }

  void field(int cpu) { put_le(c_.nr_cpu_ids <= 256 ? 1 : 2, static_cast<u64>(cpu)); }
  void field(bool flag) { put(flag ? 1 : 0); }
  void field(cpumask::Reg reg) { put(static_cast<std::uint8_t>(reg.r)); }

  // The first candidate encoding that decodes to exactly `dl` from the
  // current state; the absolute form always does (the domain was chosen so).
  void field(u64 dl) {
    for (unsigned mode = 0; mode < 8; ++mode) {
      for (unsigned p = 0; p < 32; ++p) {
        std::vector<std::uint8_t> bytes{static_cast<std::uint8_t>(mode << 5 | p)};
        const u64 base = c_.domain.base;
        if (mode == 4) {
          const u64 off = dl - base;
          if (off >= 8192 || (off >> 8) != p) continue;
          bytes.push_back(static_cast<std::uint8_t>(off));
        } else if (mode == 5) {
          if (p) break;
          const auto off = static_cast<std::int64_t>(dl - base);
          if (off < INT32_MIN || off > INT32_MAX) continue;
          for (unsigned i = 0; i < 4; ++i)
            bytes.push_back(static_cast<std::uint8_t>(static_cast<u64>(off) >> (8 * i)));
        } else if (mode == 6) {
          if (p) break;
          for (unsigned i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(dl >> (8 * i)));
        }
        DecodeContext trial = c_;
        ByteReader r(bytes);
        u64 got;
        if (decode_field(r, trial, &got) && got == dl && r.done()) {
          for (auto b : bytes) put(b);
          c_ = trial;
          return;
        }
      }
    }
  }

  void field(const Cpumask& mask) {
    const unsigned nr = c_.nr_cpu_ids;
    std::vector<std::vector<std::uint8_t>> candidates;
    const unsigned weight = kernel::cpumask_weight(&mask);
    const unsigned first = kernel::cpumask_first(&mask);
    auto cpu_bytes = [&](unsigned cpu) {
      std::vector<std::uint8_t> b;
      b.push_back(static_cast<std::uint8_t>(cpu));
      if (nr > 256) b.push_back(static_cast<std::uint8_t>(cpu >> 8));
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
      unsigned cpu;
      for (cpu = first; cpu < nr; cpu = kernel::cpumask_next(static_cast<int>(cpu), &mask)) {
        auto cb = cpu_bytes(cpu);
        b.insert(b.end(), cb.begin(), cb.end());
      }
      candidates.push_back(b);
    }
    if (weight >= 1) {
      std::vector<std::uint8_t> b{6, static_cast<std::uint8_t>(first / 64)};
      for (unsigned i = 0; i < 8; ++i)
        b.push_back(static_cast<std::uint8_t>(mask.bits[first / 64] >> (8 * i)));
      candidates.push_back(b);
    }
    {
      std::vector<std::uint8_t> b{7};
      for (unsigned w = 0; w < words_of(nr); ++w)
        for (unsigned i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(mask.bits[w] >> (8 * i)));
      candidates.push_back(b);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& x, const auto& y) { return x.size() < y.size(); });
    for (const auto& bytes : candidates) {
      DecodeContext trial = c_;
      ByteReader r(bytes);
      Cpumask got;
      if (decode_field(r, trial, &got) && r.done() && kernel::cpumask_equal(&got, &mask)) {
        for (auto b : bytes) put(b);
        c_ = trial;
        return;
      }
    }
  }

  template <class Variant>
  void op(const Variant& v) {
    if constexpr (std::variant_size_v<Variant> > 1) put(static_cast<std::uint8_t>(v.index()));
    std::visit([&](const auto& o) { for_each_field(o, [&](std::string_view, const auto& f) { field(f); }); },
               v);
  }

 private:
  std::vector<std::uint8_t>* out_;
  DecodeContext c_;
};

void encode_nr(std::vector<std::uint8_t>* out, unsigned nr) {
  for (std::size_t i = 0; i < kNrCpusTable.size(); ++i)
    if (kNrCpusTable[i] == nr) {
      out->push_back(static_cast<std::uint8_t>(i));
      return;
    }
  out->push_back(0xf0);
  out->push_back(static_cast<std::uint8_t>((nr - 1) & 0xff));
  out->push_back(static_cast<std::uint8_t>((nr - 1) >> 8));
}

// The domain a cpudl program needs: the first of the fixed bases that keeps
// every deadline unfolded, else an explicit base, else unconstrained.
std::pair<DeadlineDomain, std::uint8_t> choose_domain(const Program<cpudl::Subject>& p,
                                                      std::vector<std::uint8_t>* extra) {
  std::vector<u64> dls;
  for (const auto& op : p.ops)
    std::visit(
        [&](const auto& o) {
          for_each_field(o, [&](std::string_view, const auto& f) {
            if constexpr (std::is_same_v<std::decay_t<decltype(f)>, u64>) dls.push_back(f);
          });
        },
        op);
  auto fits = [&](u64 base) {
    return std::all_of(dls.begin(), dls.end(), [base](u64 v) { return fold_deadline(v, base) == v; });
  };
  const u64 fixed[] = {0, k63 - 16, ~u64{0} - 15};
  for (std::uint8_t i = 0; i < 3; ++i)
    if (fits(fixed[i])) return {DeadlineDomain{false, fixed[i]}, i};
  if (!dls.empty() && fits(dls.front())) {
    for (unsigned i = 0; i < 8; ++i) extra->push_back(static_cast<std::uint8_t>(dls.front() >> (8 * i)));
    return {DeadlineDomain{false, dls.front()}, 3};
  }
  return {DeadlineDomain{true, 0}, 0x80};
}

template <class S>
std::vector<std::uint8_t> encode_program(const Program<S>& p) {
  std::vector<std::uint8_t> out;
  encode_nr(&out, p.config.nr_cpu_ids);
  DecodeContext c;
  c.nr_cpu_ids = p.config.nr_cpu_ids;
  if constexpr (kHasDeadlines<S>) {
    std::vector<std::uint8_t> extra;
    auto [domain, byte] = choose_domain(p, &extra);
    out.push_back(byte);
    out.insert(out.end(), extra.begin(), extra.end());
    c.domain = domain;
    c.prev = domain.base;
  }
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  Encoder e(&out, c);
  for (const auto& op : p.ops) e.op(op);
  return out;
}

template <class A, class B>
bool field_equal(const A& a, const B& b) {
  if constexpr (std::is_same_v<A, Cpumask>)
    return kernel::cpumask_equal(&a, &b);
  else
    return a == b;
}

}  // namespace

std::vector<std::uint8_t> encode_body(const AnyProgram& program) {
  return std::visit([](const auto& p) { return encode_program(p); }, program);
}

std::vector<std::uint8_t> encode_file(const AnyProgram& program) {
  std::vector<std::uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(kFormatVersion);
  out.push_back(static_cast<std::uint8_t>(program.index()));
  std::visit(
      [&](const auto& p) {
        out.push_back(!p.level ? 0 : *p.level == Level::kExact ? 1 : 2);
      },
      program);
  auto body = encode_body(program);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

bool has_magic(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= kMagic.size() && std::equal(kMagic.begin(), kMagic.end(), bytes.begin());
}

bool decode_file_header(std::span<const std::uint8_t> bytes, FileHeader* out,
                        std::string* error) {
  if (!has_magic(bytes)) {
    *error = "not a diffsched binary file (no DSCH magic)";
    return false;
  }
  if (bytes.size() < kFileHeaderSize) {
    *error = fmt::format("truncated header: {} bytes, the header needs {}", bytes.size(),
                         kFileHeaderSize);
    return false;
  }
  if (bytes[4] != kFormatVersion) {
    *error = fmt::format("format version {} (this diffsched reads version {})", bytes[4],
                         kFormatVersion);
    return false;
  }
  if (bytes[5] >= kSubjectCount) {
    *error = fmt::format("unknown subject number {}", bytes[5]);
    return false;
  }
  if (bytes[6] > 2) {
    *error = fmt::format("unknown level number {}", bytes[6]);
    return false;
  }
  out->subject = bytes[5];
  out->level.reset();
  if (bytes[6] != 0) out->level = bytes[6] == 1 ? Level::kExact : Level::kDeadline;
  std::string_view name;
  with_subject_index(bytes[5], [&]<class S>(std::type_identity<S>) { name = S::kName; });
  if (out->level && !subject_has_level(name, *out->level)) {
    *error = fmt::format("level {} means nothing for subject {} (its levels: {})",
                         level_name(*out->level), name, subject_levels(name));
    return false;
  }
  return true;
}

std::optional<AnyProgram> decode_file(std::span<const std::uint8_t> bytes, std::string* error) {
  FileHeader h;
  if (!decode_file_header(bytes, &h, error)) return std::nullopt;
  const auto body = bytes.subspan(kFileHeaderSize);
  std::optional<AnyProgram> result;
  with_subject_index(h.subject, [&]<class S>(std::type_identity<S>) {
    Program<S> p = decode_body<S>(body);
    p.level = h.level;
    result = AnyProgram(std::move(p));
  });
  return result;
}

std::optional<AnyProgram> decode_body_for(std::string_view subject,
                                          std::span<const std::uint8_t> body) {
  std::optional<AnyProgram> result;
  with_subject_named(subject, [&]<class S>(std::type_identity<S>) {
    result = AnyProgram(decode_body<S>(body));
  });
  return result;
}

bool programs_equal(const AnyProgram& a, const AnyProgram& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& pa) {
        using P = std::decay_t<decltype(pa)>;
        const P& pb = std::get<P>(b);
        if (pa.config.nr_cpu_ids != pb.config.nr_cpu_ids || pa.ops.size() != pb.ops.size())
          return false;
        kernel::NrCpuIdsScope scope(pa.config.nr_cpu_ids);
        for (std::size_t i = 0; i < pa.ops.size(); ++i) {
          if (pa.ops[i].index() != pb.ops[i].index()) return false;
          bool same = true;
          std::visit(
              [&](const auto& oa) {
                const auto& ob = std::get<std::decay_t<decltype(oa)>>(pb.ops[i]);
                // Walk both ops' fields in step.
                std::size_t k = 0;
                for_each_field(oa, [&](std::string_view, const auto& fa) {
                  std::size_t j = 0;
                  for_each_field(ob, [&](std::string_view, const auto& fb) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(fa)>,
                                                 std::decay_t<decltype(fb)>>)
                      if (j == k && !field_equal(fa, fb)) same = false;
                    ++j;
                  });
                  ++k;
                });
              },
              pa.ops[i]);
          if (!same) return false;
        }
        return true;
      },
      a);
}

}  // namespace diffsched::io
