#include "io/binary.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace diffsched::io {

namespace {

constexpr u64 k63 = u64{1} << 63;
constexpr u64 k61 = u64{1} << 61;

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
  d.capacities = (b >> 2) & 31;
  switch (b & 3) {
    case 0: d.base = 0; break;
    case 1: d.base = k63 - 16; break;
    case 2: d.base = ~u64{0} - 15; break;
    default: r.get_le(8, &d.base); break;
  }
  return d;
}

// ---- encoding -------------------------------------------------------------

namespace {

class Encoder {
 public:
  Encoder(std::vector<std::uint8_t>* out, DecodeContext context)
      : out_(out), c_(context) {}

  template <class Variant>
  void op(const Variant& v) {
    std::visit(
        [&](const auto& o) {
          out_->push_back(std::decay_t<decltype(o)>::kCode);
          for_each_field(o, [&](std::string_view, const auto& f) {
            FieldTraits<std::decay_t<decltype(f)>>::encode(c_, f, out_);
          });
        },
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
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, Deadline> || std::is_same_v<T, TaskDeadline>)
              dls.push_back(f);
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
    std::vector<std::uint16_t> caps;  // at most 31 (parse_capacity)
    if constexpr (requires { p.config.capacity; }) caps = p.config.capacity;
    out.push_back(static_cast<std::uint8_t>(byte | (caps.size() & 31) << 2));
    out.insert(out.end(), extra.begin(), extra.end());
    for (std::size_t i = 0; i < caps.size() && i < 31; ++i) {
      out.push_back(static_cast<std::uint8_t>((caps[i] - 1) & 0xff));
      out.push_back(static_cast<std::uint8_t>((caps[i] - 1) >> 8));
    }
    c.domain = domain;
    c.prev = domain.base;
  }
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  Encoder e(&out, c);
  for (const auto& op : p.ops) e.op(op);
  return out;
}

}  // namespace

std::span<const std::uint8_t> shape_body(std::span<const std::uint8_t> in,
                                         std::span<const unsigned> nr_cpus,
                                         std::vector<std::uint8_t>* buf) {
  if (nr_cpus.empty()) return in;
  const unsigned nr = nr_cpus[in.empty() ? 0 : in[0] % nr_cpus.size()];
  buf->assign({0xf0, static_cast<std::uint8_t>((nr - 1) & 0xff),
               static_cast<std::uint8_t>((nr - 1) >> 8)});
  if (!in.empty()) buf->insert(buf->end(), in.begin() + 1, in.end());
  return *buf;
}

bool unshape_body(std::vector<std::uint8_t>* body, std::span<const unsigned> nr_cpus) {
  ByteReader r(*body);
  const unsigned nr = decode_nr_cpus(r);
  const std::size_t header = !body->empty() && (*body)[0] >= 0xf0 ? 3 : 1;
  const auto at = std::find(nr_cpus.begin(), nr_cpus.end(), nr);
  if (at == nr_cpus.end() || body->size() < header) return false;
  body->erase(body->begin(), body->begin() + static_cast<std::ptrdiff_t>(header));
  body->insert(body->begin(), static_cast<std::uint8_t>(at - nr_cpus.begin()));
  return true;
}

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
  if (bytes[4] != 1 && bytes[4] != kFormatVersion) {
    *error = fmt::format("format version {} (this diffsched reads versions 1 and {})", bytes[4],
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
  if (bytes[4] == 1) {
    unsigned v1_kinds = 0;
    with_subject_index(bytes[5], [&]<class S>(std::type_identity<S>) { v1_kinds = v1_op_kinds<S>(); });
    if (v1_kinds == 0) {
      *error = fmt::format("subject number {} did not exist in format version 1", bytes[5]);
      return false;
    }
  }
  out->version = bytes[4];
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
    Program<S> p = decode_body<S>(body, h.version);
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
        if constexpr (requires { pa.config.capacity; })
          if (pa.config.capacity != pb.config.capacity) return false;
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
