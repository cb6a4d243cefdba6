// diffsched fn: the C harness appended to one side's extracted unit
// (docs/fn.md "The harness"). It includes nothing but the shim's ABI header
// and declares the few libc calls it makes. Its argv: BATCH OUT START.
//
// Batch file (host byte order, u64 words): "DSFNBAT1", the number of
// inputs, then per input: nr_cpu_ids, the number of values, the values
// (model.h: the value stream). From input START on, each input is one call,
// and one JSON line is appended to OUT after it returns:
//
//   {"k":K,"ret":R,"out":[...],"glob":[...],"warn":W}
//
// ret: the result (absent for void; a pointer result is its identity,
// null, "&inK+OFF" or "&other", fnh_put_ptr());
// out: for each pointer or array parameter, its pointee after the call; glob:
// each covered or written global after the call; a mask is its words, a
// struct or array a JSON array; a mask the call left as drawn is "=" (below).
// warn: the WARN_ON/BUG_ON count of the call (kshim_warn, through the
// runtime's kshim_take_warning()).
//
// "=": a mask in memory the harness allocated for the call, whose words
// below nr_cpu_ids equal what was drawn into them (a copy taken before the
// call). Both sides draw the same values, so "=" on both is the same mask,
// and "=" against words is a difference, as the words would be: the record
// says exactly what printing the words says, without printing 128 of them
// per 8192-CPU mask. Not inside a dynamic array, whose elements the
// multiset and sorted levels compare as a bag.
#include <set>

#include <fmt/format.h>

#include "fn/model.h"

namespace diffsched::fn {

namespace {


struct Emitter {
  std::string out;
  std::string types;  // the tagged element structs, first
  std::string defs;   // the callbacks, defined before fnh_call()
  std::vector<std::string> callbacks;  // "kind|type|signature", fnh_cb<i> each, counting calls
  std::set<std::string> tagged_done;
  int temps = 0;
  bool in_bag = false;  // emitting a dynamic array's elements (the levels compare them as a bag)
  bool as_drawn = false;  // a record may say "=": fnh_snap() before the call

  void tagged_struct(const ElemType& e) {
    if (!e.tagged || !tagged_done.insert(e.c_type()).second) return;
    types += fmt::format("{} {{\n\t{} key;\n\tunsigned int tag;\n}};\n\n", e.c_type(), e.key);
  }

  // The key of the element at `ptr`: the type's (elem_key_expr), or for a
  // `less` over a type the harness does not know, the whole object.
  std::string key_of(const std::string& type, const std::string& ptr) {
    ElemType e;
    if (!parse_elem_type(type, &e)) return fmt::format("(*(const {} *)({}))", type, ptr);
    tagged_struct(e);
    return elem_key_expr(e, ptr);
  }

  // The harness's callback for `node` with the callback's own signature: a
  // and b, then whatever else it takes (a swap's int size is used; the rest
  // unused). It counts its calls in fnh_cb<i>_calls.
  std::string callback(const Node& node, const CType& t) {
    const ParamSpec& s = node.spec;
    const std::string type = node.callback == "less" ? s.less : node.callback == "cmp" ? s.cmp : s.swap_type;
    const std::string key = node.callback + "|" + type + "|" + t.canonical;
    for (std::size_t i = 0; i < callbacks.size(); ++i)
      if (callbacks[i] == key) return fmt::format("fnh_cb{}", i);
    const std::string name = fmt::format("fnh_cb{}", callbacks.size());
    callbacks.push_back(key);
    const bool swap = node.callback == "swap";
    std::string params = swap ? "void *fnh_a, void *fnh_b" : "const void *fnh_a, const void *fnh_b";
    std::string size;
    for (std::size_t i = 3; i < t.inner.size(); ++i) {
      const std::string pt = c_spelling(t.inner[i], true);
      params += fmt::format(", {} fnh_x{}", pt.empty() ? "void *" : pt, i);
      if (swap && i == 3 && (t.inner[i].kind == TypeKind::kInteger)) size = fmt::format("(size_t)fnh_x{}", i);
    }
    std::string body;
    if (swap) {
      ElemType e;
      if (size.empty() && parse_elem_type(type, &e)) size = fmt::format("{}", e.size());
      body = fmt::format("\tunsigned char *x = fnh_a, *y = fnh_b, c;\n\tsize_t i;\n\n\t{}_calls++;\n"
                         "\tfor (i = 0; i < {}; i++) {{\n\t\tc = x[i];\n\t\tx[i] = y[i];\n"
                         "\t\ty[i] = c;\n\t}}\n", name, size.empty() ? "0" : size);
    } else if (node.callback == "cmp") {
      body = fmt::format("\t{}_calls++;\n\tif ({} < {})\n\t\treturn -1;\n\treturn {} > {};\n",
                         name, key_of(type, "fnh_a"), key_of(type, "fnh_b"), key_of(type, "fnh_a"),
                         key_of(type, "fnh_b"));
    } else {
      body = fmt::format("\t{}_calls++;\n\treturn {} < {};\n", name, key_of(type, "fnh_a"),
                         key_of(type, "fnh_b"));
    }
    const std::string ret = swap ? "void" : c_spelling(t.inner[0]);
    defs += fmt::format("static unsigned long {}_calls;\nstatic {} {}({})\n{{\n{}}}\n\n", name,
                        ret.empty() ? "_Bool" : ret, name, params, body);
    return name;
  }

  void line(int indent, const std::string& text) { out += std::string(indent, '\t') + text + "\n"; }
  std::string temp(const char* prefix) { return fmt::format("fnh_{}{}", prefix, temps++); }

  // Code that sets the lvalue `lv` of `node`'s type from the value stream.
  void gen(const Node& node, const std::string& lv, int indent, int depth) {
    switch (node.kind) {
      case NodeKind::kScalar:
        if (node.is_bool)
          line(indent, fmt::format("{} = fnh_draw() != 0;", lv));
        else
          line(indent, fmt::format("{} = ({})fnh_draw();", lv, node.c_type));
        return;
      case NodeKind::kMask: line(indent, fmt::format("fnh_draw_mask(&({}));", lv)); return;
      case NodeKind::kNull:
        line(indent, fmt::format("{} = {};", lv, node.spec.fn.empty() ? "0" : node.spec.fn));
        return;
      case NodeKind::kLess:
        line(indent, fmt::format("{} = (__typeof__({})){};", lv, lv, callback(node, *node.fn_type)));
        return;
      case NodeKind::kStruct:
        if (ElemType e; node.c_type.rfind("struct fnh_tagged_", 0) == 0 && node.kids.size() == 2 &&
                        parse_elem_type(node.kids[0].c_type + " tagged", &e))
          tagged_struct(e);
        for (const Node& k : node.kids) gen(k, fmt::format("({}).{}", lv, k.field), indent, depth);
        return;
      case NodeKind::kPointer: {
        const std::string p = temp("p");
        const std::string& t = node.kids[0].c_type;
        const bool small = node.kids[0].opaque && !node.kids[0].zeroed;  // zeroed: sizeof(t)
        const std::string size = small ? std::to_string(kOpaqueBytes) : "sizeof(" + t + ")";
        line(indent, fmt::format("{{ {} *{} = fnh_alloc({});", t, p, size));
        gen(node.kids[0], "(*" + p + ")", indent + 1, depth);
        line(indent + 1, fmt::format("{} = {}; }}", lv, p));
        return;
      }
      case NodeKind::kArray: {
        const std::string i = fmt::format("fnh_i{}", depth);
        std::string at = lv;
        if (node.by_pointer) {  // exactly count elements (and a zeroed terminator), allocated for the call
          at = temp("p");
          const std::string& t = node.kids[0].c_type;
          line(indent, fmt::format("{{ {} *{} = fnh_alloc({} * sizeof({}));", t, at,
                                   node.count + (node.spec.terminated ? 1 : 0), t));
        }
        line(indent, fmt::format("{{ int {}; for ({} = 0; {} < {}; {}++) {{", i, i, i, node.count, i));
        gen(node.kids[0], fmt::format("({})[{}]", at, i), indent + 1, depth + 1);
        line(indent, "} }");
        if (!node.spec.ring.empty())  // `ring FIELD N`: each to the next, the last to the first
          line(indent, fmt::format("{{ int {0}; for ({0} = 0; {0} < {1}; {0}++) ({2})[{0}].{3} = &({2})[({0} + 1) % {1}]; }}",
                                   i, node.count, at, node.spec.ring));
        if (node.by_pointer) line(indent, fmt::format("{} = {}; }}", lv, at));
        return;
      }
    }
  }

  // Code that prints the rvalue `e` of `node`'s type as JSON.
  void emit(const Node& node, const std::string& e, int indent, int depth) {
    switch (node.kind) {
      case NodeKind::kScalar:
        if (node.is_signed)
          line(indent, fmt::format("fnh_puti((long long)({}));", e));
        else
          line(indent, fmt::format("fnh_putu((unsigned long long)({}));", e));
        return;
      case NodeKind::kMask:  // "=" as drawn, but not in a bag (the header comment)
        line(indent, fmt::format("fnh_put{}_mask(&({}));", in_bag ? "" : "_out", e));
        as_drawn |= !in_bag;
        return;
      case NodeKind::kNull:  // a data pointer (NULL, a ring's link): its identity, compared
        if (!node.fn_type) {
          line(indent, fmt::format("fnh_put_ptr((const void *)({}));", e));
          return;
        }
        [[fallthrough]];
      case NodeKind::kLess: line(indent, "fnh_puts(\"null\");"); return;  // not compared
      case NodeKind::kStruct: {
        line(indent, "fnh_puts(\"[\");");
        bool first = true;
        for (const Node& k : node.kids) {
          if (!first) line(indent, "fnh_puts(\",\");");
          first = false;
          emit(k, fmt::format("({}).{}", e, k.field), indent, depth);
        }
        line(indent, "fnh_puts(\"]\");");
        return;
      }
      case NodeKind::kPointer:
        line(indent, fmt::format("if (!({})) fnh_puts(\"null\"); else {{", e));
        emit(node.kids[0], "(*(" + e + "))", indent + 1, depth);
        line(indent, "}");
        return;
      case NodeKind::kArray:
        if (node.by_pointer) line(indent, fmt::format("if (!({})) fnh_puts(\"null\"); else", e));
        // A pointer's elements by their own type (a `void *` the spec typed).
        emit_elements(node, node.by_pointer ? fmt::format("(({} *)({}))", node.kids[0].c_type, e) : e,
                      std::to_string(node.count), indent, depth);
        return;
    }
  }

  void emit_elements(const Node& node, const std::string& e, const std::string& count, int indent,
                     int depth) {
    const std::string i = fmt::format("fnh_i{}", depth);
    line(indent, fmt::format("{{ unsigned long long {}; fnh_puts(\"[\");", i));
    line(indent, fmt::format("for ({} = 0; {} < (unsigned long long)({}); {}++) {{", i, i, count, i));
    line(indent + 1, fmt::format("if ({}) fnh_puts(\",\");", i));
    emit(node.kids[0], fmt::format("({})[{}]", e, i), indent + 1, depth + 1);
    line(indent, "} fnh_puts(\"]\"); }");
  }
};

// A type to declare a variable of: a function pointer's spelling
// (`int (*)(const void *, const void *)`) through GNU C's __typeof__.
std::string declarable(const std::string& c_type) {
  return c_type.find("(*)") == std::string::npos ? c_type : "__typeof__(" + c_type + ")";
}

bool observed_param(const Slot& s) {
  return !s.is_length && (s.node.kind == NodeKind::kPointer || s.node.kind == NodeKind::kArray);
}

// fnh_call(k): one input's call (of FNH_TARGET, target_of()) and its record.
std::string call_function(const Layout& layout) {
  Emitter em;
  em.line(0, "static void fnh_call(unsigned long long k)\n{");
  for (std::size_t i = 0; i < layout.params.size(); ++i)
    em.line(1, fmt::format("{} fnh_arg{};", declarable(layout.params[i].node.c_type), i));
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    // An array's storage is of its element type, top-level const dropped.
    const std::string keep = s.node.kind == NodeKind::kArray && s.node.count < 0
                                 ? s.node.kids[0].c_type + " *"
                             : s.node.kind == NodeKind::kPointer ? s.node.c_type
                                                                 : std::string("void *");
    em.line(1, fmt::format("{} fnh_keep{} = 0; unsigned long long fnh_len{} = 0;", keep, i, i));
  }
  em.line(1, "struct kcheck_warning fnh_w;");
  em.line(1, "unsigned int fnh_nwarn = 0;");
  for (const Slot& g : layout.globals)
    em.gen(g.node, g.is_stub ? "fnh_sv_" + g.name.substr(0, g.name.size() - 2) : g.lvalue(), 1, 0);
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    const std::string arg = fmt::format("fnh_arg{}", i);
    if (s.is_length) continue;
    if (s.node.kind == NodeKind::kArray && s.node.count < 0) {
      const Node& e = s.node.kids[0];
      const std::size_t len = i + 1;
      em.line(1, fmt::format("fnh_len{} = fnh_draw();", i));
      em.line(1, fmt::format("fnh_keep{} = fnh_alloc(fnh_len{} * sizeof({}));", i, i, e.c_type));
      em.line(1, fmt::format("{{ unsigned long long fnh_j; for (fnh_j = 0; fnh_j < fnh_len{}; fnh_j++) {{", i));
      em.gen(e, fmt::format("fnh_keep{}[fnh_j]", i), 2, 0);
      em.line(1, "} }");
      em.line(1, fmt::format("{} = fnh_keep{};", arg, i));
      em.line(1, fmt::format("fnh_arg{} = ({})fnh_len{};", len, layout.params[len].node.c_type, i));
    } else {
      em.gen(s.node, arg, 1, 0);
      if (s.node.kind == NodeKind::kPointer) em.line(1, fmt::format("fnh_keep{} = {};", i, arg));
    }
  }
  em.line(1, "/*fnh_snap*/");  // made a call if a record says "=" (below)
  em.line(1, "kshim_take_warning(&fnh_w);");
  if (!layout.stubs.empty()) em.line(1, "fnh_stubs_reset();");
  for (std::size_t i = 0; i < em.callbacks.size(); ++i) em.line(1, fmt::format("fnh_cb{}_calls = 0;", i));
  std::string args;
  for (std::size_t i = 0; i < layout.params.size(); ++i)
    args += fmt::format("{}fnh_arg{}", i ? ", " : "", i);
  // Only the call's own loads and stores count (fnh_counting); only the
  // call is timed (the clock build), and then nothing is recorded.
  const std::string call =
      fmt::format("(fnh_mem = 0, fnh_counting = 1, fnh_t0 = fnh_timing ? fnh_now() : 0, FNH_TARGET({}))",
                  args);
  const std::string after =
      "fnh_ns = fnh_timing ? fnh_now() - fnh_t0 : 0; fnh_counting = 0; "
      "__asm__ volatile(\"\" ::: \"memory\"); if (fnh_timing) { fnh_free_all(); return; }";
  if (layout.result_pointer) {
    em.line(1, fmt::format("{{ const void *fnh_p = (const void *){}; {}", call, after));
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
    em.line(1, "fnh_puts(\",\\\"ret\\\":\"); fnh_put_ptr(fnh_p); }");
  } else if (!layout.result_void) {
    // The result kept (its address escapes), so the call is not dropped.
    em.line(1, fmt::format("{{ {} fnh_ret = {}; __asm__ volatile(\"\" : : \"r\"(&fnh_ret) : \"memory\"); {}",
                           layout.result.c_type, call, after));
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
    em.line(1, "fnh_puts(\",\\\"ret\\\":\");");
    em.emit(layout.result, "fnh_ret", 1, 0);
    em.line(1, "}");
  } else {
    em.line(1, call + "; " + after);
    em.line(1, "fnh_puts(\"{\\\"k\\\":\"); fnh_putu(k);");
  }
  em.line(1, "if (kshim_take_warning(&fnh_w)) fnh_nwarn = fnh_w.count;");
  em.line(1, "fnh_puts(\",\\\"out\\\":[\");");
  bool first = true;
  for (std::size_t i = 0; i < layout.params.size(); ++i) {
    const Slot& s = layout.params[i];
    if (!observed_param(s)) continue;
    if (!first) em.line(1, "fnh_puts(\",\");");
    first = false;
    if (s.node.kind == NodeKind::kArray && s.node.count < 0) {
      em.in_bag = true;
      em.emit_elements(s.node, fmt::format("fnh_keep{}", i), fmt::format("fnh_len{}", i), 1, 0);
      em.in_bag = false;
    } else
      em.emit(s.node, fmt::format("fnh_keep{}", i), 1, 0);
  }
  if (!em.callbacks.empty()) {  // the cost: callback calls of this call, compared only by --max-cost-ratio
    std::string sum;
    for (std::size_t i = 0; i < em.callbacks.size(); ++i)
      sum += fmt::format("{}fnh_cb{}_calls", i ? " + " : "", i);
    em.line(1, fmt::format("fnh_puts(\"],\\\"cost\\\":\"); fnh_putu({}); fnh_puts(\",\\\"mem\\\":\");", sum));
  } else {
    em.line(1, "fnh_puts(\"],\\\"mem\\\":\");");
  }
  em.line(1, "fnh_putu(fnh_mem);");
  if (!layout.stubs.empty()) {  // the stubs' calls (stubs.cpp): the row `calls`
    em.line(1, "fnh_tr[fnh_trlen] = 0; fnh_puts(\",\\\"calls\\\":[\"); fnh_puts(fnh_tr);");
    em.line(1, "if (fnh_ncalls > FNH_MAX_TRACE) { fnh_puts(\",[\\\"...\\\",\"); "
               "fnh_putu(fnh_ncalls - FNH_MAX_TRACE); fnh_puts(\"]\"); }");
    em.line(1, "fnh_puts(\"]\");");
  }
  em.line(1, "fnh_puts(\",\\\"glob\\\":[\");");
  first = true;
  for (const auto* list : {&layout.globals, &layout.written})
    for (const Slot& g : *list) {
      if (g.is_stub) continue;  // inputs, not outputs
      if (!first) em.line(1, "fnh_puts(\",\");");
      first = false;
      em.emit(g.node, g.lvalue(), 1, 0);
    }
  em.line(1, "fnh_puts(\"],\\\"warn\\\":\"); fnh_putu(fnh_nwarn); fnh_puts(\"}\\n\");");
  em.line(1, "fnh_flush();");
  em.line(1, "fnh_free_all();");
  em.line(0, "}");
  const std::string marker = "/*fnh_snap*/";
  em.out.replace(em.out.find(marker), marker.size(), em.as_drawn ? "fnh_snap();" : "");
  return em.types + em.defs + em.out;
}

// The function as the harness calls it. The counted build calls it through
// a volatile pointer: inlined into the harness (not instrumented), its loads
// and stores would not count (a small function counted 0). The clock build
// calls it directly, as a caller in the kernel would.
std::string target_of(const std::string& function) {
  return fmt::format(
      "#ifdef FNH_CLOCK_REPS\n#define FNH_TARGET {0}\n#else\n"
      "static __typeof__({0}) *volatile fnh_target = {0};\n#define FNH_TARGET fnh_target\n#endif\n",
      function);
}

}  // namespace

std::string harness_source(const Layout& layout, const std::string& function) {
  // The harness is not instrumented for memory operations: only the unit is.
  return fmt::format("#define FNH_HANG_SECONDS {}\n", kHangSeconds) +
         "#pragma clang attribute push (__attribute__((no_sanitize(\"coverage\"))), apply_to = function)\n" +
         harness_prologue() + harness_numbers() + harness_prologue_masks() + stub_definitions(layout) + "\n" + target_of(function) +
         call_function(layout) + harness_library_entry() + harness_main() +
         "#pragma clang attribute pop\n";
}

}  // namespace diffsched::fn
