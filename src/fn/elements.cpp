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

std::string null_text(const Node& node) {
  return node.ring_link ? "ring" : node.spec.fn.empty() ? "NULL" : node.spec.fn;
}

namespace {

// A type's spelling without its own qualifiers ("const volatile int" -> "int").
std::string unqualified(std::string s) {
  for (const std::string q : {"const ", "volatile "})
    while (s.rfind(q, 0) == 0) s.erase(0, q.size());
  return s;
}

// C's type compatibility (C11 6.2.7, 6.7.6.3) as far as assigning a function
// to a pointer needs it. `top`: the type of a result or parameter, whose own
// qualifiers do not count; below a pointer they must match.
bool compatible(const CType& a, const CType& b, bool top) {
  if (!top && a.is_const != b.is_const) return false;
  // Past describe()'s depth a type is its spelling only (kOther).
  if (a.kind == TypeKind::kOther || b.kind == TypeKind::kOther)
    return unqualified(a.canonical) == unqualified(b.canonical);
  // An enum is compatible with its integer type (clang's choice of it: the
  // width and signedness describe() read).
  if (is_int(a) && is_int(b))
    return a.kind != b.kind ? a.bits == b.bits && a.is_signed == b.is_signed
                            : unqualified(a.canonical) == unqualified(b.canonical);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::kVoid:
    case TypeKind::kBool: return true;
    case TypeKind::kStruct: return a.is_union == b.is_union && a.tag == b.tag && !a.tag.empty();
    case TypeKind::kArray:
      if (a.array_size >= 0 && b.array_size >= 0 && a.array_size != b.array_size) return false;
      [[fallthrough]];
    case TypeKind::kPointer:
      return a.target() && b.target() && compatible(*a.target(), *b.target(), false);
    case TypeKind::kFunction:
    case TypeKind::kFunctionPointer: {
      if (a.inner.empty() || b.inner.empty() || !compatible(a.inner[0], b.inner[0], true))
        return false;
      if (!a.prototyped || !b.prototyped) return true;  // `int ()`: any parameters
      if (a.variadic != b.variadic || a.inner.size() != b.inner.size()) return false;
      for (std::size_t i = 1; i < a.inner.size(); ++i)
        if (!compatible(a.inner[i], b.inner[i], true)) return false;
      return true;
    }
    default: return a.canonical == b.canonical;
  }
}

}  // namespace

bool compatible_binding(const CType& pointer, const CType& function) {
  if (pointer.kind != TypeKind::kFunctionPointer || function.kind != TypeKind::kFunction)
    return false;
  CType pointee = pointer;  // a kFunctionPointer's inner is its function's
  pointee.kind = TypeKind::kFunction;
  return compatible(pointee, function, true);
}

bool callback_node(const CType& t, const ParamSpec& ps, const std::string& path,
                   const std::string& where, Node* out, std::string* error) {
  const std::string said = !ps.fn.empty() ? "fn " + ps.fn
                           : !ps.less.empty() ? "less"
                           : !ps.cmp.empty()  ? "cmp"
                           : ps.swap          ? "swap"
                                              : "null";
  // `path` is a parameter's path, or "global NAME" for a global's line.
  const std::string line = path.rfind("global ", 0) == 0 ? path : "param " + path;
  auto fail = [&](const std::string& why) {
    *error = fmt::format("the spec says `{} {}`, but {} {}", line, said, where, why);
    return false;
  };
  if (t.kind != TypeKind::kFunctionPointer)
    return fail(said == "null" ? "is not a pointer" : "is not a function pointer");
  out->fn_type = std::make_shared<CType>(t);
  if (!ps.fn.empty()) {
    if (!ps.fn_shape || !compatible_binding(t, *ps.fn_shape))
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
