// diffsched fn --exhaustive (exhaustive.h): the exact count of the inputs
// within the bounds, and the inputs themselves, slot by slot.
#include "fn/exhaustive.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace diffsched::fn {

namespace {

using U128 = unsigned __int128;
using I128 = __int128;
using Values = std::vector<std::uint64_t>;  // one slot's (or node's) part of the stream

constexpr U128 kSaturated = static_cast<U128>(1) << 100;
// A heap array is counted by making its arrays when there are at most this
// many before the filter (else the count before the filter, which refuses).
constexpr U128 kHeapMaterialize = 10'000'000;

U128 mul(U128 a, U128 b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturated / b ? kSaturated : std::min(a * b, kSaturated);
}
U128 add(U128 a, U128 b) { return std::min(a + b, kSaturated); }
U128 power(U128 base, std::int64_t e) {
  U128 r = 1;
  for (std::int64_t i = 0; i < e && r < kSaturated; ++i) r = mul(r, base);
  return r;
}

std::string u128_text(U128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

struct Walk {
  const Bounds& b;
  unsigned n;  // nr_cpu_ids

  std::vector<I128> scalars(const Node& s) const {
    const ScalarDomain d = scalar_domain(s, s.spec, n);
    I128 lo = std::max<I128>(d.lo, b.int_lo), hi = std::min<I128>(d.hi, b.int_hi);
    if (lo > hi) lo = hi = d.lo > b.int_hi ? d.lo : d.hi;  // the spec domain's nearest end
    std::vector<I128> v;
    for (I128 x = lo; x <= hi; ++x) v.push_back(x);
    return v;
  }

  // The lengths of an array with a length parameter.
  std::pair<std::int64_t, std::int64_t> lengths(const Node& a) const {
    const std::int64_t cap = std::min<std::int64_t>(b.max_array_len, kMaxArrayLength);
    std::int64_t lo = std::max<std::int64_t>(a.spec.lo ? a.spec.lo->at(n) : 0, 0);
    std::int64_t hi = std::min<std::int64_t>(a.spec.hi ? a.spec.hi->at(n) : cap, cap);
    lo = std::min(lo, kMaxArrayLength);
    return {lo, std::max(lo, hi)};
  }

  U128 count(const Node& node) const;
  U128 count_array(const Node& a, std::int64_t len) const;
  std::vector<Values> values(const Node& node) const;
  void arrays(const Node& a, std::int64_t len, std::vector<Values>* out) const;
};

bool nested_masks(const Node& a) { return a.spec.nested && a.kids[0].kind == NodeKind::kMask; }

U128 Walk::count_array(const Node& a, std::int64_t len) const {
  if (nested_masks(a)) return power(static_cast<U128>(len) + 1, n);  // each CPU enters at one level, or never
  const U128 all = power(count(a.kids[0]), len);
  if (!a.spec.heap || all > kHeapMaterialize) return all;
  std::vector<Values> v;
  arrays(a, len, &v);
  return v.size();
}

U128 Walk::count(const Node& node) const {
  switch (node.kind) {
    case NodeKind::kScalar: return scalars(node).size();
    case NodeKind::kMask: return n >= 100 ? kSaturated : static_cast<U128>(1) << n;
    case NodeKind::kStruct: {
      U128 r = 1;
      for (const Node& k : node.kids) r = mul(r, count(k));
      return r;
    }
    case NodeKind::kPointer: return count(node.kids[0]);
    case NodeKind::kNull:
    case NodeKind::kLess: return 1;
    case NodeKind::kArray: {
      if (node.count >= 0) return count_array(node, node.count);
      const auto [lo, hi] = lengths(node);
      U128 r = 0;
      for (std::int64_t len = lo; len <= hi; ++len) r = add(r, count_array(node, len));
      return r;
    }
  }
  return 1;
}

// Every element a key's value compares (the element, or a struct's first field).
I128 key_of(const Node& e, const Values& v) {
  const Node& k = e.kind == NodeKind::kStruct && !e.kids.empty() ? e.kids[0] : e;
  return k.kind == NodeKind::kScalar && !v.empty() ? scalar_of(k, v[0]) : 0;
}

bool keeps(const Node& a, const std::vector<const Values*>& elems) {
  if (nested_masks(a)) {
    for (std::size_t i = 1; i < elems.size(); ++i)
      for (std::size_t w = 0; w < elems[i]->size(); ++w)
        if (((*elems[i - 1])[w] & ~(*elems[i])[w]) != 0) return false;
  }
  if (a.spec.heap) {  // below the first element: a min-heap of the keys
    for (std::size_t j = 1; j + 1 < elems.size(); ++j)
      if (key_of(a.kids[0], *elems[1 + (j - 1) / 2]) > key_of(a.kids[0], *elems[1 + j])) return false;
  }
  return true;
}

void Walk::arrays(const Node& a, std::int64_t len, std::vector<Values>* out) const {
  const std::vector<Values> each = len > 0 ? values(a.kids[0]) : std::vector<Values>{};
  if (len > 0 && each.empty()) return;
  std::vector<std::size_t> at(static_cast<std::size_t>(len), 0);
  for (;;) {
    std::vector<const Values*> elems;
    for (std::size_t i : at) elems.push_back(&each[i]);
    if (keeps(a, elems)) {
      Values v;
      if (a.count < 0) v.push_back(static_cast<std::uint64_t>(len));
      for (const Values* e : elems) v.insert(v.end(), e->begin(), e->end());
      out->push_back(std::move(v));
    }
    std::size_t i = at.size();  // the odometer, the last element fastest
    while (i > 0 && ++at[i - 1] == each.size()) at[--i] = 0;
    if (i == 0) return;
  }
}

// The cartesian product of parts, the last fastest, each a concatenation.
std::vector<Values> product(const std::vector<std::vector<Values>>& parts) {
  std::vector<Values> r{Values{}};
  for (const auto& part : parts) {
    std::vector<Values> next;
    next.reserve(r.size() * part.size());
    for (const Values& head : r)
      for (const Values& tail : part) {
        Values v = head;
        v.insert(v.end(), tail.begin(), tail.end());
        next.push_back(std::move(v));
      }
    r = std::move(next);
  }
  return r;
}

std::vector<Values> Walk::values(const Node& node) const {
  std::vector<Values> r;
  switch (node.kind) {
    case NodeKind::kScalar:
      for (I128 x : scalars(node)) r.push_back({static_cast<std::uint64_t>(x)});
      return r;
    case NodeKind::kMask:  // only called below 64 CPUs (the count refuses above)
      if (n >= 64) return r;
      for (std::uint64_t m = 0; m < (1ULL << n); ++m) r.push_back({m});
      return r;
    case NodeKind::kStruct: {
      std::vector<std::vector<Values>> parts;
      for (const Node& k : node.kids) parts.push_back(values(k));
      return product(parts);
    }
    case NodeKind::kPointer: return values(node.kids[0]);
    case NodeKind::kNull:
    case NodeKind::kLess: return {Values{}};
    case NodeKind::kArray: {
      if (node.count >= 0) {
        arrays(node, node.count, &r);
        return r;
      }
      const auto [lo, hi] = lengths(node);
      for (std::int64_t len = lo; len <= hi; ++len) arrays(node, len, &r);
      return r;
    }
  }
  return r;
}

std::vector<const Node*> stream_nodes(const Layout& layout) {
  std::vector<const Node*> r;
  for (const Slot& s : layout.globals) r.push_back(&s.node);
  for (const Slot& s : layout.params)
    if (!s.is_length) r.push_back(&s.node);
  return r;
}

std::pair<unsigned, unsigned> cpu_range(const Bounds& b) {
  return b.only_nr_cpus ? std::pair{b.only_nr_cpus, b.only_nr_cpus} : std::pair{1u, b.max_nr_cpus};
}

}  // namespace

bool parse_int_range(const std::string& text, Bounds* b, std::string* error) {
  const auto dots = text.find("..");
  std::int64_t lo = 0, hi = 0;
  auto number = [](std::string_view s, std::int64_t* v) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  if (dots == std::string::npos || !number(std::string_view(text).substr(0, dots), &lo) ||
      !number(std::string_view(text).substr(dots + 2), &hi) || lo > hi) {
    *error = fmt::format("--int-range `{}`: the form is LO..HI with integers LO <= HI (e.g. -2..3)", text);
    return false;
  }
  b->int_lo = lo;
  b->int_hi = hi;
  return true;
}

std::string Count::text() const { return saturated ? "more than 2^100" : u128_text(total); }

Count exhaustive_count(const Layout& layout, const Bounds& b) {
  const auto [first, last] = cpu_range(b);
  U128 total = 0;
  for (unsigned n = first; n <= last; ++n) {
    const Walk w{b, n};
    U128 at_n = 1;
    for (const Node* node : stream_nodes(layout)) at_n = mul(at_n, w.count(*node));
    total = add(total, at_n);
  }
  return {total, total >= kSaturated};
}

std::vector<Input> exhaustive_inputs(const Layout& layout, const Bounds& b) {
  std::vector<Input> r;
  const auto [first, last] = cpu_range(b);
  for (unsigned n = first; n <= last; ++n) {
    const Walk w{b, n};
    std::vector<std::vector<Values>> parts;
    for (const Node* node : stream_nodes(layout)) parts.push_back(w.values(*node));
    for (Values& v : product(parts)) r.push_back(Input{n, std::move(v)});
  }
  return r;
}

std::string bounds_text(const Bounds& b) {
  const auto [first, last] = cpu_range(b);
  return fmt::format("nr_cpu_ids {}..{}, integers {}..{}, array lengths 0..{}", first, last, b.int_lo,
                     b.int_hi, b.max_array_len);
}

nlohmann::json bounds_json(const Bounds& b) {
  const auto [first, last] = cpu_range(b);
  return {{"nr_cpu_ids", {first, last}}, {"int_range", {b.int_lo, b.int_hi}},
          {"max_array_len", b.max_array_len}, {"max_inputs", b.max_inputs}};
}

std::string too_many_line(const Layout& layout, const Bounds& b, const Count& c) {
  std::string flag;  // the flag whose step down shrinks the count most
  U128 best = c.total;
  std::string best_count;
  auto consider = [&](const std::string& name, const std::string& value, Bounds smaller) {
    const Count k = exhaustive_count(layout, smaller);
    if (flag.empty() || k.total < best) {
      flag = name + " " + value;
      best = k.total;
      best_count = k.text();
    }
  };
  if (!b.only_nr_cpus && b.max_nr_cpus > 1) {
    Bounds s = b;
    consider("--max-nr-cpus", std::to_string(--s.max_nr_cpus), s);
  }
  if (b.int_hi > b.int_lo) {
    Bounds s = b;
    (b.int_hi > -b.int_lo ? s.int_hi : s.int_lo) += b.int_hi > -b.int_lo ? -1 : 1;
    consider("--int-range", fmt::format("{}..{}", s.int_lo, s.int_hi), s);
  }
  if (b.max_array_len > 0) {
    Bounds s = b;
    consider("--max-array-len", std::to_string(--s.max_array_len), s);
  }
  std::string hint = flag.empty() ? "lower the bounds"
                                  : fmt::format("lower the bounds, e.g. {} ({} inputs)", flag, best_count);
  return fmt::format("--exhaustive: {} inputs within the bounds ({}) exceed --max-inputs {}; {}", c.text(),
                     bounds_text(b), b.max_inputs, hint);
}

}  // namespace diffsched::fn
