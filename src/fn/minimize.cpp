// diffsched fn: an input's smaller and larger neighbours, a finding's
// signature, and its one-line text form read back (minimize.h); the input
// as a tree of values and its domain are input_tree.h's.
#include "fn/minimize.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <functional>
#include <random>
#include <set>
#include <cctype>
#include <string_view>

#include <fmt/format.h>

#include "fn/input_tree.h"
#include "fn/show.h"

namespace diffsched::fn {

namespace {

using namespace tree;

// ---- the smaller neighbours -----------------------------------------------

// Each editable place of a tree, in walk order: the edits one makes, and
// (a scalar's) the finer steps, offered after every place's first edits.
using Edit = std::function<void(Value&)>;
struct Place {
  std::vector<std::size_t> path;  // top-level index, then kid indexes
  std::vector<Edit> edits;
  std::vector<Edit> finer;
};

I128 toward_zero_target(const Node& node, unsigned n) {
  const auto [lo, hi] = scalar_domain(node, node.spec, n);
  return lo > 0 ? lo : hi < 0 ? hi : 0;
}

// A scalar x moves towards its goal (0, or the domain's end nearest it), to
// the goal plus 1, 2, 4, ... and to x less d/2, d/4, ..., 1 (d the distance),
// the nearest to the goal first: the goal, one past it and halfway are the
// first edits, the rest the finer ones. A finding that holds from some
// boundary between the goal and x on is then reached in about log2 of the
// boundary's distance from the goal rounds (the steps from the goal bracket
// it, those from x close in), where halfway-or-one-step crawled a step a
// round.
void scalar_edits(const Node& node, const Value& v, unsigned n, Place* p) {
  const I128 x = scalar_of(node, v.scalar), goal = toward_zero_target(node, n);
  if (x == goal) return;
  const I128 d = x > goal ? x - goal : goal - x, dir = x > goal ? 1 : -1;
  std::vector<I128> away{0};  // distances from the goal
  for (I128 s = 1; s < d; s *= 2) away.push_back(s);
  for (I128 s = d / 2; s > 0; s /= 2) away.push_back(d - s);
  std::sort(away.begin(), away.end());
  away.erase(std::unique(away.begin(), away.end()), away.end());
  for (const I128 a : away) {
    const I128 t = goal + dir * a;
    const bool first = a <= 1 || a == d / 2;
    (first ? p->edits : p->finer).push_back([t](Value& w) { w.scalar = static_cast<std::uint64_t>(t); });
  }
}

void mask_edits(const Value& v, Place* p) {
  std::vector<unsigned> bits;
  for (unsigned i = 0; i < v.words.size(); ++i)
    for (std::uint64_t w = v.words[i]; w; w &= w - 1) bits.push_back(i * 64 + std::countr_zero(w));
  if (bits.empty()) return;
  auto clear = [](std::vector<unsigned> drop) {
    return [drop](Value& w) {
      for (unsigned b : drop) w.words[b / 64] &= ~(1ULL << (b % 64));
    };
  };
  p->edits.push_back(clear(bits));
  if (bits.size() >= 2) {
    const auto mid = bits.begin() + static_cast<std::ptrdiff_t>(bits.size() / 2);
    p->edits.push_back(clear({mid, bits.end()}));
    p->edits.push_back(clear({bits.begin(), mid}));
  }
  for (std::size_t i = 0; i < bits.size() && i < 16; ++i) p->edits.push_back(clear({bits[bits.size() - 1 - i]}));
}

void array_edits(const Value& v, Place* p) {
  const std::size_t c = v.kids.size();
  if (c == 0) return;
  p->edits.push_back([](Value& w) { w.kids.pop_back(); });
  if (c >= 2) {
    p->edits.push_back([](Value& w) { w.kids.erase(w.kids.begin()); });
    p->edits.push_back([c](Value& w) { w.kids.resize(c / 2); });
  }
}

void collect(const Node& node, const Value& v, unsigned n, std::vector<std::size_t> path,
             std::vector<Place>* structural, std::vector<Place>* leaves) {
  Place p{path, {}};
  switch (node.kind) {
    case NodeKind::kScalar: scalar_edits(node, v, n, &p); break;
    case NodeKind::kMask: mask_edits(v, &p); break;
    case NodeKind::kArray:
      if (dynamic(node)) array_edits(v, &p);
      break;
    default: break;
  }
  if (!p.edits.empty()) (node.kind == NodeKind::kArray ? structural : leaves)->push_back(std::move(p));
  for (std::size_t i = 0; i < v.kids.size(); ++i) {
    const Node& kid = node.kind == NodeKind::kStruct ? node.kids[i] : node.kids[0];
    path.push_back(i);
    collect(kid, v.kids[i], n, path, structural, leaves);
    path.pop_back();
  }
}

Value& at(Tree& t, const std::vector<std::size_t>& path) {
  Value* v = &t.values[path[0]];
  for (std::size_t i = 1; i < path.size(); ++i) v = &v->kids[path[i]];
  return *v;
}


// A value of the node's shape that is all zeros (generate.cpp's zeros()).
Value zero_value(const Node& node) {
  Value v;
  if (node.kind == NodeKind::kStruct)
    for (const Node& k : node.kids) v.kids.push_back(zero_value(k));
  if (node.kind == NodeKind::kPointer) v.kids.push_back(zero_value(node.kids[0]));
  if (node.kind == NodeKind::kArray && node.count > 0)
    v.kids.assign(static_cast<std::size_t>(node.count), zero_value(node.kids[0]));
  return v;
}

// nr_cpu_ids lowered: a per-CPU global's copies at or past it become zeros,
// as the generator draws them (show.h), as a mask keeps only its CPUs below it.
void zero_per_cpu_tails(const Layout& layout, Tree* t) {
  for (std::size_t i = 0; i < layout.globals.size() && i < t->values.size(); ++i) {
    if (!is_per_cpu(layout.globals[i])) continue;
    auto& copies = t->values[i].kids;
    for (std::size_t k = t->n; k < copies.size(); ++k) copies[k] = zero_value(layout.globals[i].node.kids[0]);
  }
}

// ---- the one-line text form read back -------------------------------------

struct Parser {
  const std::string& s;
  std::size_t at = 0;
  unsigned n = 1;
  std::string error;
  bool outside = false;  // it parsed, but a CPU is at or past nr_cpu_ids

  void blanks() {
    while (at < s.size() && (s[at] == ' ' || s[at] == '\t')) ++at;
  }
  bool eat(std::string_view word) {
    blanks();
    if (s.compare(at, word.size(), word) != 0) return false;
    at += word.size();
    return true;
  }
  bool fail(const std::string& what) {
    if (error.empty()) error = fmt::format("column {}: expected {}", at + 1, what);
    return false;
  }
  bool number(I128* out) {
    blanks();
    const bool minus = at < s.size() && s[at] == '-';
    std::uint64_t u = 0;
    const char* b = s.data() + at + (minus ? 1 : 0);
    auto [p, ec] = std::from_chars(b, s.data() + s.size(), u);
    if (ec != std::errc() || p == b) return false;
    at = static_cast<std::size_t>(p - s.data());
    *out = minus ? -static_cast<I128>(u) : static_cast<I128>(u);
    return true;
  }
  // ` xN` after an array's element (N >= 1), else *times stays 1; a blank
  // must come first, so `0x10` is not `0` ten times.
  bool repeat(std::uint64_t* times) {
    std::size_t b = at;
    while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
    if (b == at || b >= s.size() || s[b] != 'x') return true;
    at = b + 1;
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + s.size(), *times);
    if (ec != std::errc() || p == s.data() + at || *times == 0) return fail("a count after `x` (`0 x8`)");
    at = static_cast<std::size_t>(p - s.data());
    return true;
  }
  bool mask(Value* v) {
    v->words.assign(words_of(n), 0);
    if (!eat("{")) return fail("`{` and a CPU list");
    if (eat("}")) return true;
    do {
      I128 a = 0, b = 0;
      if (!number(&a)) return fail("a CPU number");
      b = a;
      if (eat("-") && !number(&b)) return fail("a CPU number after `-`");
      if (a < 0 || b < a) return fail("a CPU list (`3`, `0-3,64`)");
      if (b >= n) {
        outside = true;
        return fail(fmt::format("CPUs below nr_cpu_ids={}", n));
      }
      for (I128 c = a; c <= b; ++c) v->words[static_cast<std::size_t>(c / 64)] |= 1ULL << (c % 64);
    } while (eat(","));
    return eat("}") || fail("`}`");
  }
  bool value(const Node& node, Value* v) {
    switch (node.kind) {
      case NodeKind::kScalar: {
        I128 x = 0;
        if (node.is_bool && eat("true")) return v->scalar = 1, true;
        if (node.is_bool && eat("false")) return v->scalar = 0, true;
        if (!number(&x)) return fail(fmt::format("a number ({})", node.c_type));
        v->scalar = static_cast<std::uint64_t>(x);
        return true;
      }
      case NodeKind::kMask: return mask(v);
      case NodeKind::kPointer:
        v->kids.resize(1);
        return (eat("&") || fail("`&`")) && value(node.kids[0], &v->kids[0]);
      case NodeKind::kNull: return eat(null_text(node)) || fail(null_text(node));
      case NodeKind::kLess: return eat(callback_text(node)) || fail(callback_text(node));
      case NodeKind::kStruct:
        if (!eat("{")) return fail(fmt::format("`{{` ({})", node.c_type));
        v->kids.resize(node.kids.size());
        for (std::size_t i = 0; i < node.kids.size(); ++i)
          if (!eat(node.kids[i].field + "=") || !value(node.kids[i], &v->kids[i]))
            return fail(fmt::format("`{}=`", node.kids[i].field));
        return eat("}") || fail("`}`");
      case NodeKind::kArray: {
        if (!eat("[")) return fail("`[`");
        if (!eat("]")) {
          // A fixed array (a per-CPU global's KSHIM_NR_PERCPU copies) has its count.
          const std::int64_t most = node.count >= 0 ? node.count : kMaxArrayLength;
          do {
            if (v->kids.size() >= static_cast<std::size_t>(most))
              return fail(fmt::format("at most {} elements", most));
            v->kids.emplace_back();
            if (!value(node.kids[0], &v->kids.back())) return false;
            std::uint64_t times = 1;  // `VALUE xN`: N equal elements (show.h)
            if (!repeat(&times)) return false;
            if (times > static_cast<std::uint64_t>(most) - (v->kids.size() - 1))
              return fail(fmt::format("at most {} elements", most));
            v->kids.insert(v->kids.end(), times - 1, v->kids.back());
          } while (eat(","));
          if (!eat("]")) return fail("`,` or `]`");
        }
        if (node.count >= 0 && v->kids.size() != static_cast<std::size_t>(node.count))
          return fail(fmt::format("{} elements", node.count));
        return true;
      }
    }
    return false;
  }
};

}  // namespace

bool in_domain(const Layout& layout, const Input& input) {
  Tree t;
  if (input.nr_cpu_ids < 1 || input.nr_cpu_ids > 8192 || !decode_input(layout, input, &t)) return false;
  for (std::size_t i = 0; i < t.nodes.size(); ++i)
    if (!value_in_domain(*t.nodes[i], t.values[i], t.n)) return false;
  return true;
}

std::vector<Input> shrink_candidates(const Layout& layout, const Input& input, bool keep_nr_cpu_ids) {
  Tree tree;
  if (!decode_input(layout, input, &tree)) return {};
  std::vector<Input> out;
  std::set<std::vector<std::uint64_t>> seen;
  auto offer = [&](const Tree& t) {
    Input c = encode_input(t);
    std::vector<std::uint64_t> key = c.values;
    key.push_back(c.nr_cpu_ids);
    if (out.size() < kMaxShrinkCandidates && in_domain(layout, c) && seen.insert(key).second)
      out.push_back(std::move(c));
  };
  for (unsigned n : default_nr_cpus())  // nr_cpu_ids lowered first: it shrinks every mask
    if (n < tree.n && !keep_nr_cpu_ids) {
      Tree t = tree;
      t.n = n;
      zero_per_cpu_tails(layout, &t);
      offer(t);
    }
  std::vector<Place> structural, leaves;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    collect(*tree.nodes[i], tree.values[i], tree.n, {i}, &structural, &leaves);
  auto offer_each = [&](const Place& p, const std::vector<Edit>& edits) {
    for (const Edit& e : edits) {
      Tree t = tree;
      e(at(t, p.path));
      offer(t);
    }
  };
  for (const auto* places : {&structural, &leaves})
    for (const Place& p : *places) offer_each(p, p.edits);
  for (const Place& p : leaves) offer_each(p, p.finer);
  return out;
}

namespace {

// ---- the larger and harder neighbours (grow_candidates) -------------------

// The element's key as the number it is (a `T tagged` element's is its key).
I128 elem_key(const Node& e, const Value& v) {
  return scalar_of(e.kind == NodeKind::kScalar ? e : e.kids[0], key_of(e, v));
}

void grow_scalar(const Node& node, const Value& v, unsigned n, std::mt19937_64& rng, Place* p) {
  const auto [lo, hi] = scalar_domain(node, node.spec, n);
  const I128 x = scalar_of(node, v.scalar);
  const I128 far = lo + static_cast<I128>(rng() % static_cast<std::uint64_t>(std::min<I128>(hi - lo, I128{1} << 62) + 1));
  for (const I128 t : {hi, lo, x * 2, x + 1, x - 1, far})
    if (t != x && t >= lo && t <= hi)
      p->edits.push_back([t](Value& w) { w.scalar = static_cast<std::uint64_t>(t); });
}

void grow_mask(const Value& v, unsigned n, std::mt19937_64& rng, Place* p) {
  p->edits.push_back([n](Value& w) {  // every CPU below nr_cpu_ids
    for (unsigned b = 0; b < n; ++b) w.words[b / 64] |= 1ULL << (b % 64);
  });
  const unsigned b = static_cast<unsigned>(rng() % n);
  if (!((v.words[b / 64] >> (b % 64)) & 1))
    p->edits.push_back([b](Value& w) { w.words[b / 64] |= 1ULL << (b % 64); });
}

// Longer (a copy of an element appended, the contents repeated) and harder
// (every key equal, sorted either way, reversed): the shapes that cost a
// sort or a heap the most.
void grow_array(const Node& node, const Value& v, std::mt19937_64& rng, Place* p) {
  const std::size_t c = v.kids.size();
  if (c == 0) return;
  const Node& e = node.kids[0];
  if (dynamic(node)) {
    const std::size_t pick = rng() % c;
    p->edits.push_back([pick](Value& w) { w.kids.push_back(w.kids[pick]); });
    p->edits.push_back([](Value& w) {
      const std::vector<Value> copy = w.kids;  // (inserting a vector's own range is undefined)
      w.kids.insert(w.kids.end(), copy.begin(), copy.end());
    });
  }
  if (c < 2) return;
  p->edits.push_back([](Value& w) {  // every key the first's (a tag, if any, kept)
    for (Value& k : w.kids) (k.kids.empty() ? k.scalar : k.kids[0].scalar) = w.kids[0].kids.empty() ? w.kids[0].scalar : w.kids[0].kids[0].scalar;
  });
  p->edits.push_back([&e](Value& w) {
    std::stable_sort(w.kids.begin(), w.kids.end(), [&](const Value& a, const Value& b) { return elem_key(e, a) < elem_key(e, b); });
  });
  p->edits.push_back([&e](Value& w) {
    std::stable_sort(w.kids.begin(), w.kids.end(), [&](const Value& a, const Value& b) { return elem_key(e, b) < elem_key(e, a); });
  });
  p->edits.push_back([](Value& w) { std::reverse(w.kids.begin(), w.kids.end()); });
}

void collect_growth(const Node& node, const Value& v, unsigned n, std::mt19937_64& rng,
                    std::vector<std::size_t> path, std::vector<Place>* places) {
  Place p{path, {}};
  switch (node.kind) {
    case NodeKind::kScalar: grow_scalar(node, v, n, rng, &p); break;
    case NodeKind::kMask: grow_mask(v, n, rng, &p); break;
    case NodeKind::kArray: grow_array(node, v, rng, &p); break;
    default: break;
  }
  if (!p.edits.empty()) places->push_back(std::move(p));
  for (std::size_t i = 0; i < v.kids.size(); ++i) {
    const Node& kid = node.kind == NodeKind::kStruct ? node.kids[i] : node.kids[0];
    path.push_back(i);
    collect_growth(kid, v.kids[i], n, rng, path, places);
    path.pop_back();
  }
}

}  // namespace

std::vector<Input> grow_candidates(const Layout& layout, const Input& input, std::mt19937_64& rng,
                                   std::size_t max) {
  Tree tree;
  if (!decode_input(layout, input, &tree)) return {};
  std::vector<Place> places;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    collect_growth(*tree.nodes[i], tree.values[i], tree.n, rng, {i}, &places);
  std::vector<std::pair<std::size_t, std::size_t>> edits;  // (place, edit), every one
  for (std::size_t i = 0; i < places.size(); ++i)
    for (std::size_t k = 0; k < places[i].edits.size(); ++k) edits.emplace_back(i, k);
  std::shuffle(edits.begin(), edits.end(), rng);
  std::vector<Input> out;
  std::set<std::vector<std::uint64_t>> seen{input.values};
  for (std::size_t i = 0; i < edits.size() && out.size() < max; ++i) {
    Tree t = tree;
    const Place& p = places[edits[i].first];
    p.edits[edits[i].second](at(t, p.path));
    if (i % 2 == 1 && !edits.empty()) {  // every other candidate stacks a second edit
      const auto& [q, k] = edits[rng() % edits.size()];
      if (q != edits[i].first) places[q].edits[k](at(t, places[q].path));
    }
    Input c = encode_input(t);
    if (in_domain(layout, c) && seen.insert(c.values).second) out.push_back(std::move(c));
  }
  return out;
}

std::string finding_signature(const Layout& layout, const Observation& a, const Observation& b,
                              FnLevel level) {
  if (a.fault && b.fault) return "fault:both";
  if (a.fault || b.fault) {
    // The fault's kind: its numbers (an index, a value that overflowed) may
    // change while the input shrinks, the fault stays the same.
    std::string kind;
    for (const char c : a.fault ? a.fault_what : b.fault_what)
      if (!std::isdigit(static_cast<unsigned char>(c))) kind += c;
      else if (kind.empty() || kind.back() != '#') kind += '#';
    return fmt::format("fault:{}:{}", a.fault ? "old" : "new", kind);
  }
  // A row the spec declares intended is never the finding: minimising on it
  // could lose the row that is one, and the replay would not fail.
  const std::string row = first_differing_row(layout, a, b, level, !layout.intended.empty());
  return row.empty() ? "" : "differs:" + row;
}

}  // namespace diffsched::fn

namespace diffsched::fn {

bool parse_input(const Layout& layout, const std::string& text, Input* input, std::string* error,
                 bool* outside) {
  Parser p{text};
  if (outside) *outside = false;
  I128 n = 0;
  if (!p.eat("nr_cpu_ids=") || !p.number(&n) || n < 1 || n > 8192) {
    *error = "the input must start with nr_cpu_ids=N (1..8192)";
    return false;
  }
  p.n = static_cast<unsigned>(n);
  Tree t;
  t.n = p.n;
  auto slot = [&](const Slot& s) {
    t.nodes.push_back(&s.node);
    t.values.emplace_back();
    if (!p.eat(s.name + "=") || !p.value(s.node, &t.values.back())) {
      *error = fmt::format("input `{}`: {}", s.name, p.error.empty() ? fmt::format("expected `{}=`", s.name) : p.error);
      if (outside) *outside = p.outside;
      return false;
    }
    if (dynamic(s.node)) p.eat(fmt::format("({} = its length)", s.node.length_param));
    if (!value_in_domain(s.node, t.values.back(), t.n)) {
      *error = fmt::format("input `{}` is outside its domain (its type or the spec)", s.name);
      if (outside) *outside = true;
      return false;
    }
    return true;
  };
  for (const Slot& s : layout.globals)
    if (!slot(s)) return false;
  for (const Slot& s : layout.params)
    if (!s.is_length && !slot(s)) return false;
  p.blanks();
  if (p.at != text.size()) {
    *error = fmt::format("column {}: unexpected text after the last input", p.at + 1);
    return false;
  }
  *input = encode_input(t);
  return true;
}

}  // namespace diffsched::fn
