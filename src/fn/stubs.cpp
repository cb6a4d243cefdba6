// diffsched fn: stubs for the external functions the shim lacks (model.h
// "Stub", docs/fn.md "Stubs"). A stub's results are inputs: the slot
// `NAME()` holds kStubValues of them, drawn from its result type as any
// value is, and the k-th call (in one call of the checked function) returns
// the (k mod kStubValues)-th. Both sides read the same values, so their
// stubs return the same as long as their call sequences agree; each call is
// recorded with its arguments in the call trace, compared as the row
// `calls`.
//
// A call's arguments in the trace: an integer, bool or enum by value; a
// `struct cpumask *` as the mask it points to (its words); any other pointer
// as its identity: "&inK+OFF" when it points into the K-th object the
// harness allocated for the call's input (in the value stream's order: the
// same on both sides), OFF bytes in, "&other" elsewhere (a local, a global
// of the file), null for NULL. An implicit callee's arguments are unknown
// (no prototype): only the call is recorded.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "fn/model.h"

namespace diffsched::fn {

namespace {

using nlohmann::json;

// The stub's C result type: an implicit callee's without the pointee's
// const (the value may be written through, as the kernel's would be).
CType stub_result(const Stub& s) {
  CType r = s.result;
  if (s.implicit && r.kind == TypeKind::kPointer && !r.inner.empty()) r.inner[0].is_const = false;
  r.is_const = false;
  return r;
}

std::string ident(const std::string& name) { return "fnh_sv_" + name; }

// How the trace records an argument of type t: the helper's name.
const char* recorder(const CType& t) {
  if (t.is_cpumask_pointer()) return "fnh_stub_mask";
  switch (t.kind) {
    case TypeKind::kBool:
    case TypeKind::kInteger:
    case TypeKind::kEnum: return t.is_signed ? "fnh_stub_int" : "fnh_stub_uint";
    case TypeKind::kPointer:
    case TypeKind::kArray: return "fnh_stub_ptr";
    default: return nullptr;  // a struct by value, a function pointer: not recorded
  }
}

}  // namespace

bool stub_slots(const Extraction& x, const Spec& spec, Layout* layout, std::string* error) {
  std::vector<Slot> slots;
  for (const External& e : x.externals) {
    if (e.in_shim && !e.implicit) continue;
    if (!e.is_function) {  // defined by the harness; covered (or hidden) as any global
      layout->defined_externs.push_back(e.name);
      continue;
    }
    const Piece* own = x.piece(e.name);
    Stub s{e.name, e.result, e.params, e.prototyped, e.implicit, true, own && own->prototype};
    if (!s.prototyped) s.params.clear();
    const CType r = stub_result(s);
    if (r.kind != TypeKind::kVoid) {
      Slot slot;
      slot.name = e.name + "()";
      slot.is_global = slot.is_stub = true;
      Node value;
      const auto said = spec.stubs.find(e.name);
      const bool constant = said != spec.stubs.end() && said->second.constant;
      std::string why;
      const bool pointer = r.kind == TypeKind::kPointer || r.kind == TypeKind::kFunctionPointer;
      if (constant && pointer) {
        if (*said->second.constant != 0) {
          *error = fmt::format("`stub {} = {}`: {}() returns a pointer; the constant is 0 (NULL)",
                               e.name, *said->second.constant, e.name);
          return false;
        }
        value.kind = NodeKind::kNull;
        value.c_type = c_spelling(r);
      } else if (r.kind == TypeKind::kFunctionPointer ||
                 !value_node(r, fmt::format("the result of stub {}()", e.name), &value, &why)) {
        *error = fmt::format("{}() calls {}(), which the kernel shim lacks, and its result (type "
                             "`{}`) is not drawn: {}", x.function.name, e.name, r.spelling,
                             pointer && why.empty()
                                 ? fmt::format("add `stub {} = 0` to a --spec file (every call "
                                               "returns NULL)", e.name)
                             : pointer ? fmt::format("{}; or add `stub {} = 0` to a --spec file "
                                                     "(every call returns NULL)", why, e.name)
                                       : why + "; a result of this type cannot be stubbed yet");
        return false;
      } else if (constant) {
        if (value.kind != NodeKind::kScalar) {
          *error = fmt::format("`stub {} = VALUE`: {}() returns `{}`; a constant is for "
                               "integers and pointers (0)", e.name, e.name, r.spelling);
          return false;
        }
        value.spec.lo = value.spec.hi = Bound{*said->second.constant, false};
      }
      if (value.c_type.empty()) value.c_type = c_spelling(r);
      slot.node.kind = NodeKind::kArray;
      slot.node.count = kStubValues;
      slot.node.c_type = value.c_type + "[]";
      slot.node.kids.push_back(std::move(value));
      slots.push_back(std::move(slot));
    }
    layout->stubs.push_back(std::move(s));
  }
  for (Slot& slot : slots) layout->globals.push_back(std::move(slot));
  return true;
}

bool merge_stubs(Layout* a, Layout* b, std::string* error) {
  struct Both {
    const Stub* stub = nullptr;
    const Slot* slot = nullptr;
    bool in[2] = {false, false};
  };
  std::map<std::string, Both> all;
  Layout* sides[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    for (const Stub& s : sides[i]->stubs) {
      Both& e = all[s.name];
      if (!e.stub) e.stub = &s;
      e.in[i] = true;
    }
    for (const Slot& slot : sides[i]->globals) {
      if (!slot.is_stub) continue;
      Both& e = all[slot.name.substr(0, slot.name.size() - 2)];
      if (e.slot && e.slot->node.kids[0].c_type != slot.node.kids[0].c_type) {
        *error = fmt::format("the two sides' stub {} returns `{}` and `{}`", slot.name,
                             e.slot->node.kids[0].c_type, slot.node.kids[0].c_type);
        return false;
      }
      if (!e.slot) e.slot = &slot;
    }
  }
  Layout merged[2];
  for (int i = 0; i < 2; ++i) {
    for (const Slot& slot : sides[i]->globals)
      if (!slot.is_stub) merged[i].globals.push_back(slot);
    for (const auto& [name, e] : all) {
      Stub s = *e.stub;
      s.called = e.in[i];
      merged[i].stubs.push_back(std::move(s));
      if (e.slot) merged[i].globals.push_back(*e.slot);
    }
  }
  for (int i = 0; i < 2; ++i) {
    sides[i]->stubs = std::move(merged[i].stubs);
    sides[i]->globals = std::move(merged[i].globals);
  }
  return true;
}

namespace {

// `struct T;` for each opaque struct the inputs point to: one first declared
// in a prototype (`int f(struct em_perf_domain *pd)`) is scoped to it in C, a
// type apart from the harness's.
void opaque_tags(const Node& node, std::set<std::string>* tags) {
  if (node.opaque && !node.c_type.empty()) tags->insert(node.c_type);
  for (const Node& k : node.kids) opaque_tags(k, tags);
}

}  // namespace

std::string stub_prototypes(const Layout& layout) {
  std::set<std::string> tags;
  for (const auto* list : {&layout.globals, &layout.params})
    for (const Slot& slot : *list) opaque_tags(slot.node, &tags);
  std::string out;
  for (const std::string& t : tags) out += t + ";\t/* opaque (diffsched fn): declared, never defined */\n";
  for (const Stub& s : layout.stubs) {
    if (!s.implicit || !s.called) continue;
    const CType r = stub_result(s);
    if (r.kind == TypeKind::kPointer && r.target() && r.target()->kind == TypeKind::kStruct &&
        !r.target()->tag.empty())
      out += fmt::format("{} {};\n", r.target()->is_union ? "union" : "struct", r.target()->tag);
    const std::string c = c_spelling(r, true);
    out += fmt::format("__typeof__({}) {}();\t/* a stub (diffsched fn): called, never declared */\n",
                       c.empty() ? "int" : c, s.name);
  }
  return out;
}

std::string stub_definitions(const Layout& layout) {
  std::string out;
  if (!layout.defined_externs.empty())
    out += "\n/* ---- external variables the shim lacks (docs/fn.md \"Stubs\") ---- */\n";
  for (const std::string& name : layout.defined_externs)  // the type of the unit's declaration
    out += fmt::format("__typeof__({}) {};\n", name, name);
  out += absent_definitions(layout);
  out += R"(
/* A pointer as its identity (a stub's argument, a pointer result): the
 * input object it points into, "&inK+OFF", or "&other". */
static __attribute__((unused)) void fnh_put_ptr(const void *p)
{
	const char *c = p;
	int i;

	if (!p) {
		fnh_puts("null");
		return;
	}
	for (i = 0; i < fnh_nptrs; i++) {
		const char *b = fnh_ptrs[i];

		if (c >= b && (c < b + fnh_psize[i] || c == b)) {
			fnh_puts("\"&in");
			fnh_putu((unsigned long long)i);
			fnh_puts("+");
			fnh_putu((unsigned long long)(c - b));
			fnh_puts("\"");
			return;
		}
	}
	fnh_puts("\"&other\"");
}
)";
  if (layout.stubs.empty()) return out;
  out += fmt::format(R"(
/* ---- stubs: external functions the shim lacks (docs/fn.md "Stubs") ---- */
#define FNH_STUB_VALUES {}
#define FNH_MAX_TRACE 64
static unsigned long fnh_ncalls;	/* stub calls in this call */

static int fnh_stub_begin(const char *name)
{{
	if (fnh_timing || fnh_ncalls++ >= FNH_MAX_TRACE)
		return 0;
	fnh_to_tr = 1;
	fnh_puts(fnh_ncalls > 1 ? ",[\"" : "[\"");
	fnh_puts(name);
	fnh_puts("\"");
	return 1;
}}

static void fnh_stub_end(void)
{{
	fnh_puts("]");
	fnh_to_tr = 0;
}}

static void fnh_stub_int(long long v) {{ fnh_puts(","); fnh_puti(v); }}
static void fnh_stub_ptr(const void *p) {{ fnh_puts(","); fnh_put_ptr(p); }}
static void fnh_stub_uint(unsigned long long v) {{ fnh_puts(","); fnh_putu(v); }}

static void fnh_stub_mask(const struct cpumask *m)
{{
	fnh_puts(",");
	if (!m)
		fnh_puts("null");
	else
		fnh_put_mask(m);
}}


)", kStubValues);
  std::string reset;
  for (const Stub& s : layout.stubs) {
    const bool drawn = s.result.kind != TypeKind::kVoid;
    const CType r = stub_result(s);
    const std::string ret = drawn ? "__typeof__(" + c_spelling(r, true) + ")" : "void";
    if (drawn) out += fmt::format("static {} {}[FNH_STUB_VALUES];\n", ret, ident(s.name));
    if (!s.called) continue;
    out += fmt::format("static unsigned long fnh_sc_{};\n", s.name);
    reset += fmt::format("\tfnh_sc_{} = 0;\n", s.name);
    std::string params, record;
    for (std::size_t i = 0; i < s.params.size(); ++i) {
      const std::string t = c_spelling(s.params[i], true);
      params += fmt::format("{}{} fnh_a{}", i ? ", " : "",
                            t.empty() ? "__typeof__(" + s.params[i].canonical + ")" : t, i);
      if (const char* rec = recorder(s.params[i]); rec && !t.empty())
        record += fmt::format("\t\t{}(fnh_a{});\n", rec, i);
    }
    if (s.prototyped && params.empty()) params = "void";
    out += fmt::format("{} {}({})\n{{\n\tunsigned long fnh_k = fnh_sc_{}++;\n\n", ret, s.name, params,
                       s.name);
    out += fmt::format("\tif (fnh_stub_begin(\"{}\")) {{\n{}\t\tfnh_stub_end();\n\t}}\n", s.name, record);
    out += drawn ? fmt::format("\treturn {}[fnh_k % FNH_STUB_VALUES];\n}}\n\n", ident(s.name))
                 : "\t(void)fnh_k;\n}\n\n";
  }
  out += "static void fnh_stubs_reset(void)\n{\n\tfnh_ncalls = 0;\n\tfnh_trlen = 0;\n" + reset + "}\n";
  return out;
}

namespace {

std::string show_arg(const CType* t, const json& v) {
  if (t && t->is_cpumask_pointer() && v.is_array()) {
    std::vector<std::uint64_t> w;
    for (const json& x : v) w.push_back(x.is_number_unsigned() ? x.get<std::uint64_t>() : 0);
    return "{" + cpu_list(w, static_cast<unsigned>(w.size() * 64)) + "}";
  }
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "NULL";
  return v.dump();
}

std::string show_call(const Layout& layout, const json& call) {
  if (!call.is_array() || call.empty() || !call[0].is_string()) return call.dump();
  const std::string name = call[0].get<std::string>();
  if (name == "...") return fmt::format("... and {} more", call.size() > 1 ? call[1].dump() : "?");
  const Stub* stub = nullptr;
  for (const Stub& s : layout.stubs)
    if (s.name == name) stub = &s;
  std::string args;
  for (std::size_t i = 1; i < call.size(); ++i) {
    const CType* t = stub && i - 1 < stub->params.size() ? &stub->params[i - 1] : nullptr;
    args += (i > 1 ? ", " : "") + show_arg(t, call[i]);
  }
  return name + "(" + args + ")";
}

}  // namespace

std::string show_calls(const Layout& layout, const json& calls) {
  if (!calls.is_array()) return calls.is_null() ? "-" : calls.dump();
  if (calls.empty()) return "none";
  std::string s;
  for (std::size_t i = 0; i < calls.size() && i < 6; ++i) s += (i ? ", " : "") + show_call(layout, calls[i]);
  if (calls.size() > 6) s += fmt::format(", ... ({} calls)", calls.size());
  return s;
}

std::pair<std::string, std::string> show_calls_diff(const Layout& layout, const json& a, const json& b) {
  if (a == b || !a.is_array() || !b.is_array()) return {show_calls(layout, a), show_calls(layout, b)};
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  auto side = [&](const json& c) {
    if (k >= c.size()) return fmt::format("{} calls, then none (call {})", c.size(), k + 1);
    return fmt::format("call {} of {}: {}", k + 1, c.size(), show_call(layout, c[k]));
  };
  return {side(a), side(b)};
}

std::string outside_text(const Layout& layout, nlohmann::json* j) {
  std::string text;
  if (!layout.era_why.empty()) {  // not the shim's default era (fn/era.h)
    text += fmt::format("shim era: {}\n", layout.era_why);
    (*j)["shim_era"] = layout.era;
  }
  if (!layout.stubs.empty()) {  // the externals the shim lacks (docs/fn.md "Stubs")
    std::string names;
    (*j)["stubs"] = nlohmann::json::array();
    for (const Stub& st : layout.stubs) {
      names += (names.empty() ? "" : ", ") + st.name + "()";
      (*j)["stubs"].push_back(st.name);
    }
    const auto in_file = std::count_if(layout.stubs.begin(), layout.stubs.end(),
                                       [](const Stub& st) { return st.in_file; });
    const std::size_t n = layout.stubs.size();
    text += fmt::format("stubs: {} ({}: results drawn from the input, calls compared)\n", names,
                        in_file == 0 ? "external functions the shim lacks"
                        : static_cast<std::size_t>(in_file) == n
                            ? "functions of the file the spec makes stubs"
                            : "external functions the shim lacks, and functions of the file the "
                              "spec makes stubs");
  }
  if (!layout.shim_state.empty()) {  // read, never drawn: the shim's values
    text += fmt::format("shim state read: {} (the shim's values, not inputs: nr_cpu_ids and the "
                        "CPU masks per input, the rest fixed by kshim/)\n",
                        fmt::join(layout.shim_state, ", "));
    (*j)["shim_state"] = layout.shim_state;
  }
  return text;
}

}  // namespace diffsched::fn
