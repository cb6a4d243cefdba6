// diffsched fn: an input as a tree of values (input_tree.h): the stream of
// words read into it and written back, and the domain the generator draws
// from.
#include "fn/input_tree.h"

#include "fn/show.h"

namespace diffsched::fn::tree {

namespace {

struct Reader {
  const std::vector<std::uint64_t>& v;
  std::size_t at = 0;
  bool ok = true;
  std::uint64_t next() {
    if (at < v.size()) return v[at++];
    ok = false;
    return 0;
  }
};

Value decode(const Node& node, Reader& r, unsigned n) {
  Value v;
  switch (node.kind) {
    case NodeKind::kScalar: v.scalar = r.next(); break;
    case NodeKind::kMask:
      for (unsigned i = 0; i < words_of(n); ++i) v.words.push_back(r.next());
      break;
    case NodeKind::kStruct:
      for (const Node& k : node.kids) v.kids.push_back(decode(k, r, n));
      break;
    case NodeKind::kPointer: v.kids.push_back(decode(node.kids[0], r, n)); break;
    case NodeKind::kNull:
    case NodeKind::kLess: break;
    case NodeKind::kArray: {
      const std::uint64_t count = node.count < 0 ? r.next() : static_cast<std::uint64_t>(node.count);
      if (count > static_cast<std::uint64_t>(kMaxArrayLength) * 1024) {  // a damaged stream
        r.ok = false;
        break;
      }
      for (std::uint64_t i = 0; i < count && r.ok; ++i) v.kids.push_back(decode(node.kids[0], r, n));
      break;
    }
  }
  return v;
}

}  // namespace

void encode(const Node& node, const Value& v, unsigned n, std::vector<std::uint64_t>* out) {
  switch (node.kind) {
    case NodeKind::kScalar: out->push_back(v.scalar); return;
    case NodeKind::kMask:
      for (unsigned i = 0; i < words_of(n); ++i) {
        std::uint64_t w = i < v.words.size() ? v.words[i] : 0;
        if (i == n / 64 && n % 64) w &= (1ULL << (n % 64)) - 1;  // no bit at or past n
        out->push_back(w);
      }
      return;
    case NodeKind::kStruct:
      for (std::size_t i = 0; i < node.kids.size(); ++i) encode(node.kids[i], v.kids[i], n, out);
      return;
    case NodeKind::kPointer: encode(node.kids[0], v.kids[0], n, out); return;
    case NodeKind::kNull:
    case NodeKind::kLess: return;
    case NodeKind::kArray:
      if (node.count < 0) out->push_back(v.kids.size());
      for (const Value& e : v.kids) encode(node.kids[0], e, n, out);
      return;
  }
}

std::vector<const Node*> top_nodes(const Layout& layout) {
  std::vector<const Node*> nodes;
  for (const Slot& s : layout.globals) nodes.push_back(&s.node);
  for (const Slot& s : layout.params)
    if (!s.is_length) nodes.push_back(&s.node);
  return nodes;
}

bool decode_input(const Layout& layout, const Input& in, Tree* t) {
  t->n = in.nr_cpu_ids;
  t->nodes = top_nodes(layout);
  Reader r{in.values};
  for (const Node* node : t->nodes) t->values.push_back(decode(*node, r, in.nr_cpu_ids));
  return r.ok && r.at == in.values.size();
}

Input encode_input(const Tree& t) {
  Input in;
  in.nr_cpu_ids = t.n;
  for (std::size_t i = 0; i < t.nodes.size(); ++i) encode(*t.nodes[i], t.values[i], t.n, &in.values);
  return in;
}

// ---- the domain ------------------------------------------------------------

std::uint64_t key_of(const Node& e, const Value& v) {
  return e.kind == NodeKind::kScalar ? v.scalar : v.kids.empty() ? 0 : v.kids[0].scalar;
}

bool value_in_domain(const Node& node, const Value& v, unsigned n) {
  switch (node.kind) {
    case NodeKind::kScalar: {
      const auto [lo, hi] = scalar_domain(node, node.spec, n);
      const I128 x = scalar_of(node, v.scalar);
      return x >= lo && x <= hi && (node.is_signed || node.bits >= 64 || v.scalar >> node.bits == 0);
    }
    case NodeKind::kMask:
      for (unsigned b = n; b < words_of(n) * 64; ++b)
        if ((v.words[b / 64] >> (b % 64)) & 1) return false;
      return true;
    case NodeKind::kStruct:
    case NodeKind::kPointer:
      for (std::size_t i = 0; i < v.kids.size(); ++i)
        if (!value_in_domain(node.kids[i], v.kids[i], n)) return false;
      return true;
    case NodeKind::kNull:
    case NodeKind::kLess: return true;
    case NodeKind::kArray: {
      const Node& e = node.kids[0];
      if (dynamic(node)) {
        const auto len = static_cast<std::int64_t>(v.kids.size());
        const std::int64_t lo = std::max<std::int64_t>(node.spec.lo ? node.spec.lo->at(n) : 0, 0);
        const std::int64_t hi = std::min<std::int64_t>(node.spec.hi ? node.spec.hi->at(n) : kMaxArrayLength,
                                                       kMaxArrayLength);
        if (len < lo || len > std::max(lo, hi)) return false;
      }
      std::vector<std::uint64_t> before;  // nested: the element before, as the generator ORs it
      for (std::size_t i = 0; i < v.kids.size(); ++i) {
        if (!value_in_domain(e, v.kids[i], n)) return false;
        if (node.spec.nested) {
          std::vector<std::uint64_t> flat;
          encode(e, v.kids[i], n, &flat);
          for (std::size_t w = 0; w < before.size() && w < flat.size(); ++w)
            if ((before[w] & ~flat[w]) != 0) return false;
          before = std::move(flat);
        }
        if (i == 0) continue;
        if (node.spec.heap && i >= 2 &&
            scalar_of(e.kind == NodeKind::kScalar ? e : e.kids[0], key_of(e, v.kids[i])) <
                scalar_of(e.kind == NodeKind::kScalar ? e : e.kids[0], key_of(e, v.kids[i - 1])))
          return false;
      }
      return true;
    }
  }
  return true;
}

}  // namespace diffsched::fn::tree
