// diffsched fn: untyped element arrays and the sort API's callbacks
// (docs/fn.md "Spec files"): the element types a spec may give a `void *`
// (`param base elements TYPE num=num size=size`), and what the tool infers
// for a function that does not say (lib/sort.c's `sort(void *base, size_t
// num, size_t size, cmp_func_t, swap_func_t)`).
#include <fmt/format.h>

#include "fn/model.h"

namespace diffsched::fn {

namespace {

struct KnownInt {
  const char* name;
  unsigned bytes;
  bool is_signed;
};

// The integer types an element may be, as the shim spells them (LP64).
constexpr KnownInt kKnownInts[] = {
    {"char", 1, true},          {"signed char", 1, true},      {"unsigned char", 1, false},
    {"short", 2, true},         {"unsigned short", 2, false},  {"int", 4, true},
    {"unsigned int", 4, false}, {"long", 8, true},             {"unsigned long", 8, false},
    {"long long", 8, true},     {"unsigned long long", 8, false}, {"u8", 1, false},
    {"u16", 2, false},          {"u32", 4, false},             {"u64", 8, false},
    {"s8", 1, true},            {"s16", 2, true},              {"s32", 4, true},
    {"s64", 8, true},           {"size_t", 8, false},
};

constexpr const char* kTagged = " tagged";

bool is_int(const CType& t) { return t.kind == TypeKind::kInteger || t.kind == TypeKind::kEnum; }

bool is_void_pointer(const CType& t) {
  return t.kind == TypeKind::kPointer && t.target() && t.target()->kind == TypeKind::kVoid;
}

// A length or element-size parameter's name (lib/sort.c: num, size).
bool is_size_name(const std::string& n) {
  return n == "size" || n == "elem_size" || n == "esize" || n == "width";
}

// The callback shapes of the sort API: `int (*)(const void *, const void
// *[, priv])` and `void (*)(void *, void *[, int size[, priv]])`.
bool is_cmp_shape(const CType& t) {
  return t.kind == TypeKind::kFunctionPointer && t.inner.size() >= 3 && t.inner.size() <= 4 &&
         is_int(t.inner[0]) && is_void_pointer(t.inner[1]) && is_void_pointer(t.inner[2]);
}
bool is_swap_shape(const CType& t) {
  return t.kind == TypeKind::kFunctionPointer && t.inner.size() >= 3 &&
         t.inner[0].kind == TypeKind::kVoid && is_void_pointer(t.inner[1]) &&
         is_void_pointer(t.inner[2]);
}

bool says_something(const ParamSpec& p) {
  return !p.less.empty() || !p.cmp.empty() || p.swap || p.null || !p.fn.empty() || !p.elements.empty() ||
         p.array >= 0;
}

}  // namespace

std::string ElemType::c_type() const {
  if (!tagged) return key;
  std::string name = key;
  for (char& c : name)
    if (c == ' ') c = '_';
  return "struct fnh_tagged_" + name;
}

std::int64_t ElemType::size() const {
  if (!tagged) return bytes;
  // { KEY key; unsigned int tag; }: the tag at the key's size rounded up to
  // 4, the whole rounded up to the larger alignment.
  const std::int64_t align = bytes > 4 ? bytes : 4;
  const std::int64_t tag_at = (bytes + 3) / 4 * 4;
  return (tag_at + 4 + align - 1) / align * align;
}

std::string ElemType::text() const { return tagged ? key + kTagged : key; }

bool parse_elem_type(const std::string& text, ElemType* out) {
  std::string key = text;
  const std::string tagged = kTagged;
  out->tagged = key.size() > tagged.size() &&
                key.compare(key.size() - tagged.size(), tagged.size(), tagged) == 0;
  if (out->tagged) key.resize(key.size() - tagged.size());
  for (const KnownInt& k : kKnownInts)
    if (key == k.name) {
      out->key = key;
      out->bytes = k.bytes;
      out->is_signed = k.is_signed;
      return true;
    }
  return false;
}

std::string known_elem_types() {
  std::string all;
  for (const KnownInt& k : kKnownInts) all += (all.empty() ? "" : ", ") + std::string(k.name);
  return all + ", each optionally followed by `tagged`";
}

std::string elem_key_expr(const ElemType& t, const std::string& ptr) {
  if (t.tagged) return fmt::format("((const {} *)({}))->key", t.c_type(), ptr);
  return fmt::format("(*(const {} *)({}))", t.key, ptr);
}

Spec infer_spec(const Signature& f, const Spec& spec) {
  Spec out = spec;
  const auto& ps = f.params;
  std::string type;  // the elements' type, given or inferred
  for (std::size_t i = 0; i < ps.size(); ++i) {
    if (!is_void_pointer(ps[i]) || i + 1 >= ps.size() || !is_int(ps[i + 1])) continue;
    ParamSpec& p = out.params[ps[i].name];
    if (!p.elements.empty()) {
      type = p.elements;
      continue;
    }
    if (says_something(p)) continue;
    const std::string& num = ps[i + 1].name;
    if (!is_length_name(num)) continue;
    p.elements = type = "int tagged";
    p.elements_num = num;
    if (i + 2 < ps.size() && is_int(ps[i + 2]) && is_size_name(ps[i + 2].name))
      p.elements_size = ps[i + 2].name;
  }
  if (type.empty()) return out;
  for (const CType& t : ps) {
    ParamSpec& p = out.params[t.name];
    if (says_something(p)) continue;
    if (is_cmp_shape(t)) p.cmp = type;
    else if (is_swap_shape(t)) {
      p.swap = true;
      if (t.inner.size() < 4 || !is_int(t.inner[3])) p.swap_type = type;  // no size argument
    }
  }
  std::erase_if(out.params, [](const auto& kv) {
    const ParamSpec& p = kv.second;
    return !says_something(p) && !p.lo && !p.hi && !p.nested && !p.heap && !p.scratch;
  });
  return out;
}

std::string callback_text(const Node& node) {
  const ParamSpec& s = node.spec;
  if (node.callback == "cmp") return "cmp(" + s.cmp + ")";
  if (node.callback == "swap") return s.swap_type.empty() ? "swap" : "swap(" + s.swap_type + ")";
  return "<" + s.less;
}

Node elem_node(const ElemType& t) {
  Node key;
  key.kind = NodeKind::kScalar;
  key.c_type = t.key;
  key.bits = 8 * t.bytes;
  key.is_signed = t.is_signed;
  if (!t.tagged) return key;
  Node n;
  n.kind = NodeKind::kStruct;
  n.c_type = t.c_type();
  key.field = "key";
  n.kids.push_back(key);
  Node tag;
  tag.kind = NodeKind::kScalar;
  tag.c_type = "unsigned int";
  tag.bits = 32;
  tag.field = "tag";
  n.kids.push_back(tag);
  return n;
}

std::string null_text(const Node& node) { return node.spec.fn.empty() ? "NULL" : node.spec.fn; }

bool callback_node(const CType& t, const ParamSpec& ps, const std::string& path,
                   const std::string& where, Node* out, std::string* error) {
  const std::string said = !ps.fn.empty() ? "fn " + ps.fn
                           : !ps.less.empty() ? "less"
                           : !ps.cmp.empty()  ? "cmp"
                           : ps.swap          ? "swap"
                                              : "null";
  auto fail = [&](const std::string& why) {
    *error = fmt::format("the spec says `param {} {}`, but {} {}", path, said, where, why);
    return false;
  };
  if (t.kind != TypeKind::kFunctionPointer) return fail("is not a function pointer");
  out->fn_type = std::make_shared<CType>(t);
  if (!ps.fn.empty()) {
    // The pointer's type without its `(*)` is the function's type.
    std::string want = t.canonical;
    if (const auto star = want.find("(*)"); star != std::string::npos) want.erase(star, 3);
    if (want != ps.fn_type)
      return fail(fmt::format("is `{}`, and `{}` is `{}`", t.canonical, ps.fn, ps.fn_type));
    out->kind = NodeKind::kNull;  // no value: the harness assigns the function
    return true;
  }
  if (ps.null) {
    out->kind = NodeKind::kNull;
    return true;
  }
  out->kind = NodeKind::kLess;
  out->callback = said;
  if (t.inner.size() < 3) return fail("does not take two pointers");
  ElemType e;
  if (ps.swap) {
    const bool sized = t.inner.size() >= 4 && is_int(t.inner[3]);
    if (!is_swap_shape(t)) return fail("is not `void (*)(void *, void *, ...)`");
    if (!sized && ps.swap_type.empty())
      return fail("takes no size: say the elements' type, `param " + path + " swap TYPE`");
    if (!ps.swap_type.empty() && !parse_elem_type(ps.swap_type, &e))
      return fail(fmt::format("swaps `{}`, not one of: {}", ps.swap_type, known_elem_types()));
    return true;
  }
  if (!ps.cmp.empty() && !is_int(t.inner[0]))
    return fail("does not return an integer (a `bool` result: `param " + path + " less TYPE`)");
  if (!ps.cmp.empty() && !parse_elem_type(ps.cmp, &e))
    return fail(fmt::format("compares `{}`, not one of: {}", ps.cmp, known_elem_types()));
  return true;
}

}  // namespace diffsched::fn
