// diffsched fn: one call's values from the layout (model.h), weighted
// towards the boundaries; the batch file; the input printed as one line.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <span>

#include <fmt/format.h>

#include "fn/model.h"
#include "fn/show.h"

namespace diffsched::fn {

namespace {

using I128 = __int128;

// The values' source: the property run's mt19937_64, or a fuzzer's bytes
// (decode_input: each choice among k takes the fewest bytes that hold k - 1,
// little-endian, 0 once the bytes are used up, so every byte string is an
// input and a changed byte changes one choice).
struct Gen {
  std::mt19937_64* mt;
  std::span<const std::uint8_t> bytes;
  unsigned n;  // nr_cpu_ids
  std::size_t at = 0;
  std::uint64_t take(unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < width && at < bytes.size(); ++i) v |= std::uint64_t{bytes[at++]} << (8 * i);
    return v;
  }
  std::uint64_t rng() { return mt ? (*mt)() : take(8); }
  std::uint64_t below(std::uint64_t k) {
    if (k == 0) return 0;
    if (mt) return (*mt)() % k;
    unsigned width = 1;
    while (width < 8 && ((k - 1) >> (8 * width)) != 0) ++width;
    return take(width) % k;
  }
};

I128 type_min(const Node& s) {
  if (s.is_bool || !s.is_signed) return 0;
  return -(static_cast<I128>(1) << (s.bits - 1));
}

I128 type_max(const Node& s) {
  if (s.is_bool) return 1;
  return (static_cast<I128>(1) << (s.is_signed ? s.bits - 1 : s.bits)) - 1;
}

I128 uniform(Gen& g, I128 lo, I128 hi) {
  const I128 span = hi - lo + 1;
  if (span > static_cast<I128>(UINT64_MAX)) return lo + static_cast<I128>(g.rng());
  return lo + static_cast<I128>(g.below(static_cast<std::uint64_t>(span)));
}

// A scalar in the type's range and the spec's domain: half the time one of
// the boundaries (0, 1, -1, min, max, nr_cpu_ids - 1, nr_cpu_ids,
// nr_cpu_ids + 1, the domain's ends), else small or anywhere.
std::uint64_t scalar_value(Gen& g, const Node& s, const ParamSpec& spec) {
  const auto [lo, hi] = scalar_domain(s, spec, g.n);
  const I128 n = g.n;
  const I128 marks[] = {0, 1, -1, type_min(s), type_max(s), n - 1, n, n + 1, lo, hi, lo + 1, hi - 1};
  std::vector<I128> inside;
  for (I128 m : marks)
    if (m >= lo && m <= hi) inside.push_back(m);
  const std::uint64_t dice = g.below(10);
  I128 v;
  if (dice < 5 && !inside.empty()) {
    v = inside[g.below(inside.size())];
  } else if (dice < 8) {
    v = uniform(g, std::max(lo, static_cast<I128>(-2)), std::max(std::min(hi, 2 * n + 2), std::max(lo, static_cast<I128>(-2))));
  } else {
    v = uniform(g, lo, hi);
  }
  return static_cast<std::uint64_t>(v);
}

void set_bit(std::vector<std::uint64_t>& w, unsigned bit) { w[bit / 64] |= 1ULL << (bit % 64); }

// A mask at nr_cpu_ids: empty, full, one bit, a range, bits around the word
// boundaries, or random of a density.
std::vector<std::uint64_t> mask_words(Gen& g) {
  const unsigned n = g.n;
  std::vector<std::uint64_t> w((n + 63) / 64, 0);
  const unsigned edges[] = {0, n - 1, 63, 64, 127, 128, n / 2};
  switch (g.below(7)) {
    case 0: break;
    case 1:
      for (unsigned b = 0; b < n; ++b) set_bit(w, b);
      break;
    case 2: {
      const unsigned e = edges[g.below(std::size(edges))];
      set_bit(w, g.below(2) ? e % n : static_cast<unsigned>(g.below(n)));
      break;
    }
    case 3: {
      unsigned a = static_cast<unsigned>(g.below(n)), b = static_cast<unsigned>(g.below(n));
      if (a > b) std::swap(a, b);
      for (unsigned i = a; i <= b; ++i) set_bit(w, i);
      break;
    }
    case 4:
      for (unsigned e : edges)
        if (e < n && g.below(2)) set_bit(w, e);
      break;
    default: {
      const unsigned one_in = g.below(2) ? 2 : 8;
      for (unsigned b = 0; b < n; ++b)
        if (g.below(one_in) == 0) set_bit(w, b);
    }
  }
  return w;
}

void gen(Gen& g, const Node& node, std::vector<std::uint64_t>* out);

// Array elements: generated one by one, then the keys (the element, or a
// struct's first field) shaped: random, duplicate-heavy, sorted, reversed,
// all equal; masks nested if the spec says so.
void gen_elements(Gen& g, const Node& array, std::uint64_t count, std::vector<std::uint64_t>* out) {
  const Node& e = array.kids[0];
  std::vector<std::vector<std::uint64_t>> elems(count);
  for (auto& v : elems) gen(g, e, &v);
  const Node* key = e.kind == NodeKind::kScalar ? &e
                    : e.kind == NodeKind::kStruct && e.kids[0].kind == NodeKind::kScalar
                        ? &e.kids[0]
                        : nullptr;
  if (key && count > 1) {
    const std::uint64_t shape = g.below(5);
    auto less = [&](std::uint64_t a, std::uint64_t b) {
      return key->is_signed ? static_cast<std::int64_t>(a) < static_cast<std::int64_t>(b) : a < b;
    };
    std::vector<std::uint64_t> keys;
    for (auto& v : elems) keys.push_back(shape == 1 ? g.below(3) : shape == 4 ? elems[0][0] : v[0]);
    if (shape == 2 || array.spec.heap) std::sort(keys.begin() + (array.spec.heap ? 1 : 0), keys.end(), less);
    if (shape == 3 && !array.spec.heap) std::sort(keys.rbegin(), keys.rend(), less);
    for (std::size_t i = 0; i < count; ++i) elems[i][0] = keys[i];
  }
  if (array.spec.nested)
    for (std::size_t i = 1; i < count; ++i)
      for (std::size_t w = 0; w < elems[i].size(); ++w) elems[i][w] |= elems[i - 1][w];
  for (auto& v : elems) out->insert(out->end(), v.begin(), v.end());
}

void gen(Gen& g, const Node& node, std::vector<std::uint64_t>* out) {
  switch (node.kind) {
    case NodeKind::kScalar: out->push_back(scalar_value(g, node, node.spec)); return;
    case NodeKind::kMask: {
      const auto w = mask_words(g);
      out->insert(out->end(), w.begin(), w.end());
      return;
    }
    case NodeKind::kStruct:
      for (const Node& k : node.kids) gen(g, k, out);
      return;
    case NodeKind::kPointer: gen(g, node.kids[0], out); return;
    case NodeKind::kNull:
    case NodeKind::kLess: return;  // no value: NULL, the harness's callback
    case NodeKind::kArray: {
      std::uint64_t count = static_cast<std::uint64_t>(node.count);
      if (node.count < 0) {
        Node len;
        len.bits = 32;
        len.spec = node.spec;
        len.spec.lo = Bound{std::max<std::int64_t>(node.spec.lo ? node.spec.lo->at(g.n) : 0, 0)};
        len.spec.hi = Bound{std::min<std::int64_t>(
            node.spec.hi ? node.spec.hi->at(g.n) : (g.below(3) ? 16 : kMaxArrayLength),
            kMaxArrayLength)};
        count = scalar_value(g, len, len.spec);
        out->push_back(count);
      }
      gen_elements(g, node, count, out);
      return;
    }
  }
}

// ---- printing ----------------------------------------------------------------

struct Reader {
  const std::vector<std::uint64_t>& v;
  std::size_t at = 0;
  std::uint64_t next() { return at < v.size() ? v[at++] : 0; }
};

std::string show_scalar(const Node& s, std::uint64_t v) {
  if (s.is_bool) return v ? "true" : "false";
  if (s.is_signed) {
    const int shift = 64 - static_cast<int>(s.bits);
    return fmt::format("{}", static_cast<std::int64_t>(v << shift) >> shift);
  }
  return fmt::format("{}", s.bits == 64 ? v : v & ((1ULL << s.bits) - 1));
}

std::string show(const Node& node, Reader& r, unsigned n) {
  switch (node.kind) {
    case NodeKind::kScalar: return show_scalar(node, r.next());
    case NodeKind::kMask: {
      std::vector<std::uint64_t> w;
      for (unsigned i = 0; i < (n + 63) / 64; ++i) w.push_back(r.next());
      return "{" + cpu_list(w, n) + "}";
    }
    case NodeKind::kStruct: {
      std::string s = "{";
      for (const Node& k : node.kids) s += (s.size() > 1 ? " " : "") + k.field + "=" + show(k, r, n);
      return s + "}";
    }
    case NodeKind::kPointer: return "&" + show(node.kids[0], r, n);
    case NodeKind::kNull: return null_text(node);
    case NodeKind::kLess: return callback_text(node);
    case NodeKind::kArray: {
      const std::uint64_t count = node.count < 0 ? r.next() : static_cast<std::uint64_t>(node.count);
      std::vector<std::string> elems;
      for (std::uint64_t i = 0; i < count; ++i) elems.push_back(show(node.kids[0], r, n));
      return list_text(elems);
    }
  }
  return "?";
}

}  // namespace

ScalarDomain scalar_domain(const Node& s, const ParamSpec& spec, unsigned nr_cpu_ids) {
  I128 lo = type_min(s), hi = type_max(s);
  if (spec.lo) lo = std::max(lo, static_cast<I128>(spec.lo->at(nr_cpu_ids)));
  if (spec.hi) hi = std::min(hi, static_cast<I128>(spec.hi->at(nr_cpu_ids)));
  if (hi < lo) hi = lo;  // an empty domain: its lower end (docs/fn.md)
  return {lo, hi};
}

__int128 scalar_of(const Node& s, std::uint64_t v) {
  if (s.is_signed) return static_cast<std::int64_t>(v);
  return s.bits >= 64 ? static_cast<I128>(v) : static_cast<I128>(v & ((1ULL << s.bits) - 1));
}

const std::vector<unsigned>& default_nr_cpus() {
  static const std::vector<unsigned> kNrCpus = {1, 2, 4, 63, 64, 65, 128};
  return kNrCpus;
}

namespace {

// A value of the node's shape that is all zeros (an empty mask, a
// pointer to zeros, an array with a length parameter empty).
void zeros(const Node& node, unsigned n, std::vector<std::uint64_t>* out) {
  switch (node.kind) {
    case NodeKind::kScalar: out->push_back(0); return;
    case NodeKind::kMask: out->insert(out->end(), (n + 63) / 64, 0); return;
    case NodeKind::kStruct:
      for (const Node& k : node.kids) zeros(k, n, out);
      return;
    case NodeKind::kPointer: zeros(node.kids[0], n, out); return;
    case NodeKind::kNull:
    case NodeKind::kLess: return;
    case NodeKind::kArray:
      if (node.count < 0) out->push_back(0);
      for (std::int64_t i = 0; i < node.count; ++i) zeros(node.kids[0], n, out);
      return;
  }
}

// A per-CPU global (show.h): its copies below nr_cpu_ids drawn, those at or
// past it zeros (the kernel has no copy there; they print as one run).
void gen_per_cpu(Gen& g, const Node& node, std::vector<std::uint64_t>* out) {
  const std::uint64_t live = std::min<std::uint64_t>(g.n, static_cast<std::uint64_t>(node.count));
  gen_elements(g, node, live, out);
  for (std::uint64_t i = live; i < static_cast<std::uint64_t>(node.count); ++i) zeros(node.kids[0], g.n, out);
}

Input generate_with(const Layout& layout, Gen& g, unsigned nr_cpus) {
  Input in;
  in.nr_cpu_ids = nr_cpus ? nr_cpus : default_nr_cpus()[g.below(default_nr_cpus().size())];
  g.n = in.nr_cpu_ids;
  for (const Slot& s : layout.globals) {
    if (is_per_cpu(s)) gen_per_cpu(g, s.node, &in.values);
    else gen(g, s.node, &in.values);
  }
  for (const Slot& s : layout.params)
    if (!s.is_length) gen(g, s.node, &in.values);
  return in;
}

}  // namespace

Input generate_input(const Layout& layout, std::mt19937_64& rng, unsigned nr_cpus) {
  Gen g{&rng, {}, 0};
  return generate_with(layout, g, nr_cpus);
}

Input decode_input(const Layout& layout, std::span<const std::uint8_t> bytes, unsigned nr_cpus) {
  Gen g{nullptr, bytes, 0};
  return generate_with(layout, g, nr_cpus);
}

std::string show_input(const Layout& layout, const Input& input) {
  Reader r{input.values};
  std::string s = fmt::format("nr_cpu_ids={}", input.nr_cpu_ids);
  for (const Slot& g : layout.globals) s += " " + g.name + "=" + show(g.node, r, input.nr_cpu_ids);
  for (const Slot& p : layout.params) {
    if (p.is_length) continue;
    s += " " + p.name + "=" + show(p.node, r, input.nr_cpu_ids);
    if (p.node.kind == NodeKind::kArray && p.node.count < 0)
      s += fmt::format(" ({} = its length)", p.node.length_param);
  }
  return s;
}

std::string cpu_list(const std::vector<std::uint64_t>& words, unsigned nr_bits) {
  std::string s;
  auto test = [&](unsigned b) { return (words[b / 64] >> (b % 64)) & 1; };
  const unsigned limit = std::min<unsigned>(nr_bits, static_cast<unsigned>(words.size() * 64));
  for (unsigned b = 0; b < limit;) {
    if (!test(b)) { ++b; continue; }
    unsigned e = b;
    while (e + 1 < limit && test(e + 1)) ++e;
    s += (s.empty() ? "" : ",") + (e == b ? fmt::format("{}", b) : fmt::format("{}-{}", b, e));
    b = e + 1;
  }
  return s;
}

bool write_batch(const std::string& path, const std::vector<Input>& inputs) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) return false;
  auto put = [&](std::uint64_t v) { return std::fwrite(&v, sizeof v, 1, f.get()) == 1; };
  bool ok = std::fwrite("DSFNBAT1", 8, 1, f.get()) == 1 && put(inputs.size());
  for (const Input& in : inputs) {
    ok = ok && put(in.nr_cpu_ids) && put(in.values.size());
    if (!in.values.empty())
      ok = ok && std::fwrite(in.values.data(), sizeof(std::uint64_t), in.values.size(), f.get()) ==
                     in.values.size();
  }
  return ok && std::fflush(f.get()) == 0;
}

}  // namespace diffsched::fn
