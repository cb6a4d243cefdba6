// diffsched fn: the parts of a call's layout (layout.cpp) that need no
// node: the C spelling of a type, the observation rows, and the size
// relations a spec's `elements` lines state.
#include <fmt/format.h>

#include "fn/layout_internal.h"
#include "fn/model.h"

namespace diffsched::fn {

namespace {

std::string strip_const(std::string s) {
  if (s.rfind("const ", 0) == 0) s = s.substr(6);
  return s;
}

}  // namespace

// A spec's `elements TYPE size=PATH` fixes PATH to the element's size;
// `size=N` must be it. false with *error.
bool size_relations(const Signature& f, Spec* spec, std::string* error) {
  std::vector<std::pair<std::string, ParamSpec>> typed;
  for (const auto& [path, p] : spec->params)
    if (!p.elements.empty()) typed.emplace_back(path, p);
  for (const auto& [path, p] : typed) {
    ElemType e;
    if (!parse_elem_type(p.elements, &e)) {
      *error = fmt::format("`param {} elements {}`: the type is one of: {}", path, p.elements,
                           known_elem_types());
      return false;
    }
    const std::int64_t size = e.size();
    if (p.elements_size_value >= 0 && p.elements_size_value != size) {
      *error = fmt::format("`param {} elements {} size={}`: an element of `{}` is {} bytes", path,
                           p.elements, p.elements_size_value, p.elements, size);
      return false;
    }
    if (p.elements_size.empty()) continue;
    const std::string name = p.elements_size.substr(0, p.elements_size.find_first_of(".["));
    bool found = false;
    for (const CType& t : f.params) found |= t.name == name;
    if (!found) {
      *error = fmt::format("`param {} elements ... size={}`: {}() has no parameter `{}`", path,
                           p.elements_size, f.name, name);
      return false;
    }
    ParamSpec& q = spec->params[p.elements_size];
    if ((q.lo && q.lo->at(1) > size && !q.lo->per_nr_cpu_ids) ||
        (q.hi && q.hi->at(1) < size && !q.hi->per_nr_cpu_ids)) {
      *error = fmt::format("`param {} elements {} size={}`: the spec's range of `{}` does not "
                           "hold the element's size, {}", path, p.elements, p.elements_size,
                           p.elements_size, size);
      return false;
    }
    q.lo = q.hi = Bound{size, false};
  }
  return true;
}

std::string c_spelling(const CType& t, bool keep_const) {
  const std::string c = keep_const && t.is_const ? "const " : "";
  switch (t.kind) {
    case TypeKind::kBool: return c + "_Bool";
    case TypeKind::kInteger:
    case TypeKind::kEnum: return c + strip_const(t.canonical);
    case TypeKind::kStruct:
      return t.tag.empty() ? "" : c + (t.is_union ? "union " : "struct ") + t.tag;
    case TypeKind::kPointer: {
      if (!t.target()) return "";
      const std::string inner = c_spelling(*t.target(), true);
      if (inner.empty()) return "";
      return inner + " *" + (keep_const && t.is_const ? "const" : "");
    }
    default: return strip_const(t.canonical);
  }
}

std::vector<std::string> observation_rows(const Layout& layout) {
  std::vector<std::string> rows;
  if (!layout.result_void) rows.push_back("return");
  for (const Slot& s : layout.params)
    if (!s.is_length && (s.node.kind == NodeKind::kPointer || s.node.kind == NodeKind::kArray))
      rows.push_back("*" + s.name);
  for (const auto* list : {&layout.globals, &layout.written})
    for (const Slot& s : *list)
      if (!s.is_stub) rows.push_back(s.name);
  if (!layout.stubs.empty()) rows.push_back("calls");
  rows.push_back("WARN_ON");
  return rows;
}

}  // namespace diffsched::fn
