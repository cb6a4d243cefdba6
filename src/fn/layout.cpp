// diffsched fn: the layout of one call (model.h), from the function's C
// types (extract.h) and the spec.
//
// Rules (docs/fn.md "What is generated"):
//  - integers, bool, enums: scalars; struct cpumask: a mask;
//  - a struct: its fields; a fixed array: its elements;
//  - a pointer: one object it points to, allocated per call at its exact
//    size (so ASan sees a read past it), except
//  - a pointer parameter (not a cpumask pointer) directly followed by an
//    integer parameter named like a length (n, len, nr, count, size, num,
//    cnt, or nr_*, num_*, *_len, *_nr, *_count, *_size, *_cnt): an array of
//    that many elements, the length parameter set from it;
//  - a global read by the function (not the shim's, not constant data) must
//    be covered by the spec, else it is a hidden global (exit 2).
#include <algorithm>

#include <fmt/format.h>

#include "fn/layout_internal.h"
#include "fn/model.h"

namespace diffsched::fn {

namespace {

constexpr int kMaxDepth = 6;

}  // namespace

bool is_length_name(const std::string& n) {
  for (const char* exact : {"n", "len", "nr", "count", "size", "num", "cnt"})
    if (n == exact) return true;
  for (const char* prefix : {"nr_", "num_"})
    if (n.rfind(prefix, 0) == 0) return true;
  for (const std::string suffix : {"_len", "_nr", "_count", "_size", "_cnt"})
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  return false;
}

namespace {

bool is_integer(const CType& t) {
  return t.kind == TypeKind::kInteger || t.kind == TypeKind::kEnum;
}

// The spec line that binds a callback of t's shape.
std::string callback_line(const CType& t, const std::string& path) {
  const CType* r = t.target();
  if (r && r->kind == TypeKind::kVoid)
    return fmt::format("`param {} swap TYPE` (the harness's counting swap)", path);
  if (r && r->kind == TypeKind::kBool)
    return fmt::format("`param {} less TYPE` (a counting `<`)", path);
  return fmt::format("`param {} cmp TYPE` (a counting comparison, -1, 0 or 1)", path);
}

// The element of a `void *` array the spec types (`param PATH elements
// TYPE`), refined by the spec's `PATH[]` (`PATH[].key`) lines.
bool elements_kid(const ParamSpec& ps, const Spec* spec, const std::string& path, Node* array,
                  std::string* error) {
  ElemType e;
  if (!parse_elem_type(ps.elements, &e)) {
    *error = fmt::format("`param {} elements {}`: the type is one of: {}", path, ps.elements,
                         known_elem_types());
    return false;
  }
  Node kid = elem_node(e);
  auto refine = [&](Node& n, const std::string& p) {
    if (!spec) return;
    if (auto it = spec->params.find(p); it != spec->params.end()) n.spec = it->second;
  };
  refine(kid, path + "[]");
  kid.path = path + "[]";
  for (Node& k : kid.kids) {
    refine(k, path + "[]." + k.field);
    k.path = path + "[]." + k.field;
  }
  array->kids.push_back(std::move(kid));
  return true;
}

// A spec path below a struct that names none of its fields (`tl.msk`) is
// named here, before a field it meant to refine fails to generate.
bool no_such_field(const CType& t, const Spec& spec, const std::string& path,
                   const std::string& where, std::string* error) {
  auto field_name = [](const CType& f) {  // as node_for names it (a union: its first member)
    if (f.kind != TypeKind::kStruct || !f.is_union || f.inner.empty()) return f.name;
    return f.name.empty() ? f.inner.front().name : f.name + "." + f.inner.front().name;
  };
  const std::string prefix = path + ".";
  for (auto it = spec.params.lower_bound(prefix);
       it != spec.params.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    const std::string rest = it->first.substr(prefix.size());
    bool found = false;
    for (const CType& f : t.inner) {
      const std::string name = field_name(f);
      found |= rest.rfind(name, 0) == 0 &&
               (rest.size() == name.size() || rest[name.size()] == '.' || rest[name.size()] == '[');
    }
    if (found) continue;
    std::string fields;
    for (const CType& f : t.inner) fields += (fields.empty() ? "" : ", ") + path + "." + field_name(f);
    *error = fmt::format("the spec names `{}`, which is no value of {} (below `{}`: {})", it->first,
                         where, path, fields);
    return false;
  }
  return true;
}

bool node_for(const CType& t, int depth, const std::string& where, Node* out, std::string* error,
              const Spec* spec = nullptr, const std::string& path = "");

// `param PATH ring FIELD N`: PATH, a pointer to a struct, points to N of
// them (an array the harness allocates), each one's FIELD, a pointer to the
// same struct, set to the next and the last's to the first: a domain's
// sched_group ring, which a walk leaves when it is back at the start. The
// links are not drawn (`next=ring` in an input line) and not compared.
bool ring_node(const CType& t, int depth, const std::string& where, const Spec* spec,
               const std::string& path, Node* out, std::string* error) {
  const ParamSpec& ps = out->spec;
  const std::string line = fmt::format("`param {} ring {} {}`", path, ps.ring, ps.ring_count);
  const CType* s = t.kind == TypeKind::kPointer ? t.target() : nullptr;
  if (!s || s->kind != TypeKind::kStruct || s->is_union || s->tag.empty() || s->inner.empty()) {
    *error = fmt::format("the spec says {}, but {} (type `{}`) is not a pointer to a struct whose "
                         "fields are known here", line, where, t.spelling);
    return false;
  }
  CType element = *s;
  std::size_t link = element.inner.size();
  for (std::size_t i = 0; i < element.inner.size(); ++i) {
    CType& f = element.inner[i];
    if (f.name != ps.ring) continue;
    if (f.kind != TypeKind::kPointer || !f.target() || f.target()->kind != TypeKind::kStruct ||
        f.target()->tag != s->tag) {
      *error = fmt::format("the spec says {}, but `{}` of `struct {}` is not a `struct {} *`", line,
                           ps.ring, s->tag, s->tag);
      return false;
    }
    f.inner[0].inner.clear();  // not drawn: the harness links the ring
    link = i;
  }
  if (link == element.inner.size()) {
    *error = fmt::format("the spec says {}, but `struct {}` has no field `{}`", line, s->tag, ps.ring);
    return false;
  }
  out->kind = NodeKind::kArray;
  out->count = ps.ring_count;
  out->by_pointer = true;
  Node kid;
  if (!node_for(element, depth + 1, where, &kid, error, spec, path + "[]")) return false;
  for (Node& f : kid.kids)
    if (f.field == ps.ring) {
      const std::string field = f.field, type = f.c_type, at = f.path;
      f = Node{};
      f.kind = NodeKind::kNull;
      f.ring_link = true;
      f.field = field;
      f.c_type = type;
      f.path = at;
    }
  out->kids.push_back(std::move(kid));
  return true;
}

// `path`: the spec's name of this value (`heap.data`: a pointer's pointee
// keeps its path, a field adds `.name`).
bool node_for(const CType& t, int depth, const std::string& where, Node* out, std::string* error,
              const Spec* spec, const std::string& path) {
  // Below the root, the place by its spec path (`tl.mask`, `a[].key`; `*p`
  // for what the root points to), then the root.
  const std::string place =
      depth > 0 && !path.empty()
          ? fmt::format("`{}{}`, in {}", path.find_first_of(".[") == std::string::npos ? "*" : "", path, where)
          : where;
  *out = Node{};
  out->c_type = c_spelling(t);
  out->path = path;
  ParamSpec ps;
  if (spec && !path.empty())
    if (auto it = spec->params.find(path); it != spec->params.end()) ps = it->second;
  out->spec = ps;
  if (ps.null && t.kind == TypeKind::kPointer) {  // a data pointer: NULL, no value drawn
    out->kind = NodeKind::kNull;
    return true;
  }
  if (!ps.less.empty() || !ps.cmp.empty() || ps.swap || ps.null || !ps.fn.empty())
    return callback_node(t, ps, path, place, out, error);
  if (!ps.elements.empty()) {
    if (t.kind != TypeKind::kPointer || !t.target() || t.target()->kind != TypeKind::kVoid) {
      *error = fmt::format("the spec says `param {} elements`, but {} is not a `void *`", path, place);
      return false;
    }
    if (ps.array < 0) {
      *error = fmt::format("the spec says `param {} elements`, but {} has no length parameter "
                           "after it: say how many, `param {} array N`", path, place, path);
      return false;
    }
    out->kind = NodeKind::kArray;
    out->count = ps.array;
    out->by_pointer = true;
    out->spec.array = -1;
    return elements_kid(ps, spec, path, out, error);
  }
  if (t.kind == TypeKind::kPointer && t.target() && t.target()->kind == TypeKind::kVoid) {
    out->kind = NodeKind::kNull;
    return true;
  }
  if (ps.terminated && (!ps.ring.empty() || t.kind != TypeKind::kPointer)) {
    *error = fmt::format("the spec says `param {} array {} terminated`, but {} is {}", path, ps.array, place,
                         ps.ring.empty() ? "not a pointer" : "a ring (`ring FIELD N`): its last links to its first");
    return false;
  }
  if (!ps.ring.empty()) return ring_node(t, depth, where, spec, path, out, error);
  if (ps.array >= 0 && t.kind == TypeKind::kPointer && t.target()) {
    out->kind = NodeKind::kArray;
    out->count = ps.array;
    out->by_pointer = true;
    out->spec.array = -1;
    Node kid;
    if (!node_for(*t.target(), depth + 1, where, &kid, error, spec, path + "[]"))
      return false;
    out->kids.push_back(std::move(kid));
    return true;
  }
  auto fail = [&](const std::string& why) {
    *error = fmt::format("cannot generate {} (type `{}`): {}", place, t.spelling, why);
    return false;
  };
  // A defined struct that deep is zeroed (below), as one past the field depth.
  const bool deep = depth > kMaxDepth;
  if (deep && !(t.kind == TypeKind::kStruct && t.size >= 0)) return fail("nested too deeply");
  switch (t.kind) {
    case TypeKind::kBool:
      out->kind = NodeKind::kScalar;
      out->bits = 1;
      out->is_bool = true;
      return true;
    case TypeKind::kInteger:
    case TypeKind::kEnum:
      out->kind = NodeKind::kScalar;
      out->bits = t.bits;
      out->is_signed = t.is_signed;
      if (t.bits == 0 || t.bits > 64) return fail("integers of 1 to 64 bits only");
      return true;
    case TypeKind::kStruct: {
      if (t.is_cpumask_struct()) {
        out->kind = NodeKind::kMask;
        out->c_type = "struct cpumask";
        return true;
      }
      if (t.is_union) return fail("unions are not generated yet");
      if (t.tag.empty()) return fail("an anonymous struct has no name to allocate it by");
      if ((t.inner.empty() || deep) && depth > 0) {
        // Declared and never defined (struct em_perf_domain, to the shim): an
        // opaque object behind a pointer, its address passed on (to stubs).
        // Defined, but past the field depth the extraction describes (the
        // real fair.c's `env->src_rq->cfs`, `env->tasks.next`): its bytes
        // zeroed, its fields not drawn.
        out->kind = NodeKind::kStruct;
        out->opaque = true;
        out->zeroed = t.size >= 0;
        return true;
      }
      if (t.inner.empty()) return fail("its fields are not known here (empty)");
      if (spec && !path.empty() && !no_such_field(t, *spec, path, where, error)) return false;
      out->kind = NodeKind::kStruct;
      for (const CType& f : t.inner) {
        // A union field is its first member (what `= {0}` would set): an
        // anonymous union's members are the struct's own (`p->cpus_mask`),
        // a named one's are reached through it (`x.u.a`).
        const CType* member = &f;
        std::string name = f.name;
        if (f.kind == TypeKind::kStruct && f.is_union) {
          if (f.inner.empty()) {
            // Its members are past the field depth the extraction describes
            // (`runqueues[].curr->cpus_mask` at depth 2): zeroed, as a struct
            // that deep is; `union` where it has no name.
            Node kid;
            kid.kind = NodeKind::kStruct;
            kid.opaque = kid.zeroed = true;
            kid.c_type = c_spelling(f);
            kid.field = f.name.empty() ? "union" : f.name;
            kid.path = path + "." + kid.field;
            out->kids.push_back(std::move(kid));
            continue;
          }
          member = &f.inner.front();
          name = f.name.empty() ? member->name : f.name + "." + member->name;
        }
        Node kid;
        if (!node_for(*member, depth + 1, where, &kid, error, spec, path + "." + name))
          return false;
        kid.field = name;
        out->kids.push_back(std::move(kid));
      }
      return true;
    }
    case TypeKind::kArray: {
      if (t.array_size < 0 || !t.target()) return fail("an array of unknown size");
      out->kind = NodeKind::kArray;
      out->count = t.array_size;
      Node kid;
      if (!node_for(*t.target(), depth + 1, where, &kid, error, spec, path + "[]"))
        return false;
      out->kids.push_back(std::move(kid));
      return true;
    }
    case TypeKind::kPointer: {
      const CType* p = t.target();
      if (!p || p->kind == TypeKind::kVoid || p->kind == TypeKind::kFunction)
        return fail("a pointer to void or to a function is not generated yet");
      out->kind = NodeKind::kPointer;
      Node kid;
      if (!node_for(*p, depth + 1, where, &kid, error, spec, path)) return false;
      out->kids.push_back(std::move(kid));
      return true;
    }
    case TypeKind::kFunctionPointer:
      // Name the spec line that binds a function pointer of this shape (docs/fn.md).
      return fail(fmt::format("a function pointer is bound by a spec line: {}, `param {} fn "
                              "FUNCTION` (a function of the file, with what it reads), or "
                              "`param {} null` (NULL, where the function takes it for its default)",
                              callback_line(t, path), path, path));
    default:
      return fail(fmt::format("{} values are not generated", type_kind_name(t.kind)));
  }
}

bool is_mask_array_element(const Node& n) {
  return n.kind == NodeKind::kMask ||
         (n.kind == NodeKind::kPointer && n.kids[0].kind == NodeKind::kMask);
}

// The parameters' slots; false with *error.
bool param_slots(const Extraction& x, const Spec& spec, Layout* layout, std::string* error) {
  const auto& ps = x.function.params;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const CType& t = ps[i];
    if (t.name.empty()) {
      *error = fmt::format("parameter {} of {}() has no name", i + 1, x.function.name);
      return false;
    }
    Slot s;
    s.name = t.name;
    const std::string where = fmt::format("parameter `{}` of {}()", t.name, x.function.name);
    const bool array = t.kind == TypeKind::kPointer && !t.is_cpumask_pointer() &&
                       i + 1 < ps.size() && is_integer(ps[i + 1]) && is_length_name(ps[i + 1].name);
    const auto said = spec.params.find(t.name);
    s.node.path = t.name;
    if (array && t.target()->kind == TypeKind::kVoid) {
      s.node.kind = NodeKind::kArray;
      s.node.c_type = c_spelling(t);
      s.node.length_param = ps[i + 1].name;
      if (said == spec.params.end() || said->second.elements.empty()) {
        *error = fmt::format("cannot generate {} (type `{}`): an untyped element array; give its "
                             "elements a type: the spec line `param {} elements TYPE num={}`",
                             where, t.spelling, t.name, ps[i + 1].name);
        return false;
      }
      const std::string& num = said->second.elements_num;
      if (!num.empty() && num != ps[i + 1].name) {
        *error = fmt::format("`param {} elements ... num={}`: the length of `{}` is the parameter "
                             "after it, `{}`", t.name, num, t.name, ps[i + 1].name);
        return false;
      }
      if (!elements_kid(said->second, &spec, t.name, &s.node, error)) return false;
    } else if (array) {
      s.node.kind = NodeKind::kArray;
      s.node.c_type = c_spelling(t);
      s.node.length_param = ps[i + 1].name;
      Node kid;
      if (!node_for(*t.target(), 1, where, &kid, error, &spec, t.name + "[]")) return false;
      s.node.kids.push_back(std::move(kid));
    } else if (!node_for(t, 0, where, &s.node, error, &spec, t.name)) {
      return false;
    }
    if (said != spec.params.end()) {
      const auto it = said;
      s.node.spec = it->second;
      if (it->second.nested && !(s.node.kind == NodeKind::kArray &&
                                 is_mask_array_element(s.node.kids[0]))) {
        *error = fmt::format("the spec says `param {} nested`, but it is not an array of masks",
                             t.name);
        return false;
      }
    }
    if (!layout->params.empty() && layout->params.back().node.kind == NodeKind::kArray &&
        layout->params.back().node.length_param == t.name) {
      s.is_length = true;
      s.array_of = static_cast<int>(layout->params.size()) - 1;
      // The array's length takes the length parameter's domain.
      layout->params.back().node.spec.lo = s.node.spec.lo;
      layout->params.back().node.spec.hi = s.node.spec.hi;
    }
    layout->params.push_back(std::move(s));
  }
  return true;
}

// A `fn` binding (`WHERE fn FUNCTION`) takes the bound function's type from
// the extraction, which made FUNCTION a root (ExtractOptions::roots).
bool take_bound(const Extraction& x, const std::string& where, ParamSpec* ps, std::string* error) {
  const std::string& fn = ps->fn;
  const auto it = std::find_if(x.bound.begin(), x.bound.end(),
                               [&fn](const BoundFunction& b) { return b.name == fn; });
  if (it == x.bound.end()) {
    *error = fmt::format("`{} fn {}`: {} was not extracted as a root", where, fn, fn);
    return false;
  }
  ps->fn_type = it->type;
  ps->fn_shape = std::make_shared<CType>(it->shape);
  return true;
}

// `global NAME fn FUNCTION`: the global's node, FUNCTION assigned per call.
bool bound_global(const Extraction& x, const GlobalRead& g, const std::string& fn, Slot* s,
                  std::string* error) {
  ParamSpec ps;
  ps.fn = fn;
  if (!take_bound(x, "global " + g.name, &ps, error)) return false;
  if (!callback_node(g.type, ps, "global " + g.name, "global `" + g.name + "`", &s->node, error))
    return false;
  s->node.spec = ps;
  return true;
}

bool global_slots(const Extraction& x, const Spec& spec, Layout* layout, std::string* error) {
  struct Hidden {
    std::string name, where, fix;
  };
  std::vector<Hidden> hidden;  // every global read and not covered: named at once
  for (const GlobalRead& g : x.globals) {
    const auto it = spec.globals.find(g.name);
    // The shim's per-CPU state (the run queues, the LLC domains) is zeroed
    // before every input unless a spec line makes it one; the rest of the
    // shim's state (nr_cpu_ids, the CPU masks) is set per input, never drawn.
    if (g.in_shim && it != spec.globals.end() && (!g.per_cpu || !it->second.input)) {
      *error = fmt::format("the spec covers global `{}`, which is the shim's{}", g.name,
                           g.per_cpu ? ": a per-CPU one can be an input (`global " + g.name +
                                           " input`), not a constant or a function"
                                     : " and set per input (nr_cpu_ids and the CPU masks) or "
                                       "fixed by kshim/: drop the spec line");
      return false;
    }
    if (g.in_shim && it == spec.globals.end()) {
      if (g.read) layout->shim_state.push_back(g.name);
      continue;
    }
    if (g.constant) {
      // Its initialiser is what the function reads: a spec line would be ignored.
      if (it != spec.globals.end()) {
        *error = fmt::format("the spec covers global `{}`, which is constant data (const, or "
                             "initialised and written by no function of the file): the function "
                             "reads its initialiser; drop the spec line",
                             g.name);
        return false;
      }
      continue;
    }
    Slot s;
    s.name = g.name;
    s.is_global = true;
    s.per_cpu = g.per_cpu;
    const bool fn_pointer = g.type.kind == TypeKind::kFunctionPointer;
    if (it != spec.globals.end() && !it->second.fn.empty()) {
      if (!bound_global(x, g, it->second.fn, &s, error)) return false;
      layout->globals.push_back(std::move(s));
      continue;
    }
    if (it != spec.globals.end() && fn_pointer) {
      *error = fmt::format("global `{}` is a function pointer (`{}`): bind it to a function of "
                           "the file with `global {} fn FUNCTION`",
                           g.name, g.type.spelling, g.name);
      return false;
    }
    if (it == spec.globals.end()) {
      if (!g.read) {
        if (node_for(g.type, 0, "global `" + g.name + "`", &s.node, error, nullptr, g.name))
          layout->written.push_back(std::move(s));
        error->clear();
        continue;
      }
      std::string by;
      for (const auto& f : g.read_by) {
        by += (by.empty() ? "" : ", ") + f + "()";
        for (const auto& [path, ps] : spec.params)  // a function a spec line binds
          if (ps.fn == f) by += fmt::format(", bound to `{}`", path);
        for (const auto& [name, gs] : spec.globals)
          if (gs.fn == f) by += fmt::format(", bound to `{}`", name);
      }
      // An integer may be a stated constant; a mask, a struct or a table may
      // be a work area the function fills before use (drawn, not compared).
      const bool integer = is_integer_global(g.type);
      const std::string fix =
          fn_pointer ? fmt::format("`global {} fn FUNCTION` (a function of the file)", g.name)
          : integer  ? fmt::format("`global {} input` or `global {} = VALUE`", g.name, g.name)
                     : fmt::format("`global {} input` (drawn, and compared after the call) or `global {} "
                                   "scratch` (drawn, not compared: a work area the function fills before "
                                   "use)", g.name, g.name);
      hidden.push_back({g.name, by.empty() ? "" : " (in " + by + ")", fix});
      continue;
    }
    // `param NAME[].FIELD ...` lines refine a covered global's values too.
    if (!node_for(g.type, 0, "global `" + g.name + "`", &s.node, error, &spec, g.name)) return false;
    s.node.spec.scratch = it->second.scratch;  // drawn, not compared
    if (it->second.constant) {
      if (s.node.kind != NodeKind::kScalar) {
        *error = fmt::format("global `{}`: `= VALUE` is for integers; use `global {} input`",
                             g.name, g.name);
        return false;
      }
      s.node.spec.lo = Bound{*it->second.constant, false};
      s.node.spec.hi = s.node.spec.lo;
    }
    layout->globals.push_back(std::move(s));
  }
  if (hidden.size() == 1) {
    *error = fmt::format("hidden global: {}() reads the global `{}`{}, which no input covers (never "
                         "given zeros): add {} to a --spec file",
                         x.function.name, hidden[0].name, hidden[0].where, hidden[0].fix);
    return false;
  }
  if (!hidden.empty()) {
    std::string names, fixes;
    for (const Hidden& h : hidden) {
      names += fmt::format("{}`{}`{}", names.empty() ? "" : ", ", h.name, h.where);
      fixes += (fixes.empty() ? "" : "; ") + h.fix;
    }
    *error = fmt::format("hidden globals: {}() reads the globals {}, which no input covers (never "
                         "given zeros): add {} to a --spec file",
                         x.function.name, names, fixes);
    return false;
  }
  return true;
}

}  // namespace

bool value_node(const CType& t, const std::string& where, Node* out, std::string* error) {
  return node_for(t, 0, where, out, error);
}

bool build_layout(const Extraction& x, const Spec& spec, Layout* layout, std::string* error) {
  *layout = Layout{};
  layout->function = x.function.name;
  if (x.function.is_variadic) {
    *error = fmt::format("{}() is variadic: not generated", x.function.name);
    return false;
  }
  const CType& r = x.function.result;
  layout->result_void = r.kind == TypeKind::kVoid;
  layout->result_pointer = r.kind == TypeKind::kPointer;
  if (!layout->result_void && !layout->result_pointer) {
    std::string why;
    if (!node_for(r, 0, "the result", &layout->result, &why) ||
        layout->result.kind != NodeKind::kScalar) {
      *error = fmt::format("{}() returns `{}`: only integers, bool, enums and pointers are "
                           "observed yet", x.function.name, r.spelling);
      return false;
    }
  }
  Spec effective = infer_spec(x.function, spec);
  for (auto& [path, ps] : effective.params)
    if (!ps.fn.empty() && !take_bound(x, "param " + path, &ps, error)) return false;
  if (!size_relations(x.function, &effective, error) || !global_slots(x, effective, layout, error) ||
      !stub_slots(x, spec, layout, error) || !param_slots(x, effective, layout, error))
    return false;
  const std::vector<std::string> rows = observation_rows(*layout);
  for (const std::string& row : spec.intended) {
    // A covered global only the other side reads is this side's row too
    // (merge_absent_globals()).
    if (std::find(rows.begin(), rows.end(), row) == rows.end() && !spec.globals.count(row)) {
      std::string all;
      for (const std::string& name : rows) all += (all.empty() ? "" : ", ") + name;
      *error = fmt::format("the spec's `intended {}` names no observation of {}() (it has: {})", row,
                           x.function.name, all);
      return false;
    }
    layout->intended.insert(row);
  }
  return true;
}

}  // namespace diffsched::fn
