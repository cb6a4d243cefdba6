// diffsched fn --print-spec: the spec the tool infers for a function pair,
// in the .fnspec format (spec.cpp, docs/fn.md "Spec files"), for a user to
// start from. Given back with --spec it makes the same layout, so the same
// inputs and the same run:
//   - a scalar's domain is a `param PATH range LO HI` line: the spec's, or
//     its type's whole range (the generator's domain without a spec);
//   - nested, heap, array N, elements, less/cmp/swap/null and scratch as
//     the given spec says or the tool infers;
//   - what the generator draws without a directive (masks, an array's
//     length, `void *`) and the observed outputs are comments;
//   - every global the function reads: `global NAME input`/`= VALUE` if
//     covered, a commented-out `global NAME input` if not (the run then
//     stops as a hidden global: the printed spec is incomplete, exit 2);
//     the shim's, constant data and globals only written, as comments;
//   - the level in effect, the intended rows.
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "fn/check.h"
#include "fn/era.h"
#include "fn/sides.h"

namespace diffsched::fn {

// The stubs' lines (below).
std::string stub_lines(const Layout& layout, const Spec& spec);

namespace {

using I128 = __int128;

std::string bound_text(const Bound& b) {
  if (!b.per_nr_cpu_ids) return std::to_string(b.value);
  if (b.value == 0) return "nr_cpu_ids";
  return fmt::format("nr_cpu_ids{}{}", b.value > 0 ? "+" : "-", b.value > 0 ? b.value : -b.value);
}

std::string int_text(I128 v) {
  if (v >= 0) return std::to_string(static_cast<unsigned long long>(v));
  return "-" + std::to_string(static_cast<unsigned long long>(-v));
}

struct Printer {
  std::string out;
  std::set<std::string> done;  // directives already written (a pointer's pointee keeps its path)
  bool given_only = false;     // a covered global's refinements: only what a spec line set

  void line(const std::string& directive, const std::string& why) {
    if (given_only && directive.starts_with("#")) return;
    if (!done.insert(directive).second) return;
    out += why.empty() ? directive + "\n" : fmt::format("{:<48} # {}\n", directive, why);
  }

  void scalar(const Node& n, const std::string& path) {
    if (n.spec.lo && n.spec.hi) {
      line(fmt::format("param {} range {} {}", path, bound_text(*n.spec.lo), bound_text(*n.spec.hi)),
           n.c_type + ", the spec's domain");
      return;
    }
    if (given_only) return;
    const I128 lo = n.is_bool || !n.is_signed ? 0 : -(static_cast<I128>(1) << (n.bits - 1));
    const I128 hi = n.is_bool ? 1 : (static_cast<I128>(1) << (n.is_signed ? n.bits - 1 : n.bits)) - 1;
    const std::string d = fmt::format("param {} range {} {}", path, int_text(lo), int_text(hi));
    if (hi <= INT64_MAX)
      line(d, n.c_type + ": its type's range");
    else
      line("# " + d, n.c_type + ": its type's range (above what a spec bound holds)");
  }

  void callback(const Node& n, const std::string& path) {
    const ParamSpec& s = n.spec;
    if (n.callback == "cmp")
      line(fmt::format("param {} cmp {}", path, s.cmp), "a counting comparison: -1, 0 or 1");
    else if (n.callback == "swap")
      line(fmt::format("param {} swap{}", path, s.swap_type.empty() ? "" : " " + s.swap_type),
           "a counting swap");
    else
      line(fmt::format("param {} less {}", path, s.less), "a counting `<`");
  }

  void node(const Node& n, const std::string& path) {
    const ParamSpec& s = n.spec;
    if (s.scratch) line(fmt::format("param {} scratch", path), "not compared");
    if (s.nested) line(fmt::format("param {} nested", path), "each mask holds the one before");
    if (s.heap) line(fmt::format("param {} heap", path), "a min-heap below its first element");
    switch (n.kind) {
      case NodeKind::kScalar: scalar(n, path); return;
      case NodeKind::kMask:
        line(fmt::format("# {}: struct cpumask", path),
             "empty, full, one bit, a range, word-boundary bits or random, at nr_cpu_ids");
        return;
      case NodeKind::kNull:
        if (n.ring_link) line(fmt::format("# {}: the ring's link", path), "set by the harness, not compared");
        else if (!s.fn.empty()) line(fmt::format("param {} fn {}", path, s.fn), "a function of the file");
        else if (s.null) line(fmt::format("param {} null", path), "NULL: the function's own default");
        else line(fmt::format("# {}: void *", path),
                  fmt::format("NULL; elements: `param {} elements TYPE`, `param {} array N`", path, path));
        return;
      case NodeKind::kLess: callback(n, path); return;
      case NodeKind::kPointer: node(n.kids[0], path); return;
      case NodeKind::kStruct:
        if (n.opaque)
          line(fmt::format("# {}: {}", path, n.c_type),
               n.zeroed ? std::string("past the field depth: zeroed, its fields not drawn")
                        : fmt::format("opaque (declared, never defined): {} zeroed bytes", kOpaqueBytes));
        for (const Node& k : n.kids) node(k, path + "." + k.field);
        return;
      case NodeKind::kArray:
        if (!s.elements.empty()) {
          std::string d = fmt::format("param {} elements {}", path, s.elements);
          if (!s.elements_num.empty()) d += " num=" + s.elements_num;
          if (!s.elements_size.empty()) d += " size=" + s.elements_size;
          if (s.elements_size_value >= 0) d += fmt::format(" size={}", s.elements_size_value);
          line(d, "a `void *`: its elements' type");
        }
        if (!s.ring.empty())
          line(fmt::format("param {} ring {} {}", path, s.ring, n.count),
               "that many structs, each one's link to the next, the last's to the first");
        else if (n.by_pointer && s.terminated)
          line(fmt::format("param {} array {} terminated", path, n.count),
               "a pointer to that many and a zeroed one after them");
        else if (n.by_pointer)
          line(fmt::format("param {} array {}", path, n.count), "a pointer to that many");
        if (n.count < 0)
          line(fmt::format("# {}: an array, its length in `{}`", path, n.length_param),
               "0..64 elements, keys random, duplicate-heavy, sorted, reversed or equal");
        node(n.kids[0], path + "[]");
        return;
    }
  }
};

// The globals the function reads that the spec does not cover.
std::vector<const GlobalRead*> hidden_globals(const Extraction& x, const Spec& spec) {
  std::vector<const GlobalRead*> out;
  for (const GlobalRead& g : x.globals)
    if (!g.in_shim && !g.constant && g.read && !spec.globals.count(g.name)) out.push_back(&g);
  return out;
}

std::string print(const Side& a, const Side& b, const Spec& spec, const std::string& level,
                  const std::set<std::string>& hidden, const std::string& era_why) {
  Printer p;
  p.out = fmt::format(
      "# diffsched fn --print-spec: the spec inferred for {}() (docs/fn.md \"Spec files\")\n"
      "#   old: {}\n#   new: {}\n"
      "# Given back with --spec, the same inputs and the same run; edit it from here.\n\n",
      a.function, a.file, b.file);
  p.line(fmt::format("level {}", level.empty() ? "exact" : level), "exact, multiset or sorted");
  if (spec.depth > 0)
    p.line(fmt::format("depth {}", spec.depth), "struct fields generated that many levels deep");
  if (!spec.kernel.empty()) p.line("kernel " + spec.kernel, "the shim's era: " + era_why);
  for (const auto& [name, value] : spec.config)
    p.line(value == 1 ? "config " + name : fmt::format("config {} = {}", name, value),
           "a kernel option the shim leaves off, defined for both sides");
  p.out += "\n# parameters\n";
  for (const Slot& s : a.layout.params) {
    if (s.is_length) {
      const Node& n = s.node;
      if (n.spec.lo && n.spec.hi)
        p.line(fmt::format("param {} range {} {}", s.name, bound_text(*n.spec.lo), bound_text(*n.spec.hi)),
               "the array's length, the spec's domain");
      else
        p.line(fmt::format("# {}: the length of `{}`", s.name, a.layout.params[static_cast<std::size_t>(s.array_of)].name),
               "0..64, 16 at most two times in three; `param NAME range LO HI` bounds it");
      continue;
    }
    p.node(s.node, s.name);
  }
  std::string rows;
  for (const std::string& r : observation_rows(a.layout)) rows += (rows.empty() ? "" : ", ") + r;
  p.out += fmt::format("# outputs, compared after each call: {}\n", rows);
  p.out += "#   (`param NAME scratch` leaves what a pointer parameter points to out)\n";
  p.out += stub_lines(a.layout, spec);
  p.out += "\n# globals the function reads or writes\n";
  std::vector<const GlobalRead*> globals;  // both sides', each name once
  std::set<std::string> seen;
  for (const Side* side : {&a, &b})
    for (const GlobalRead& g : side->x.globals)
      if (seen.insert(g.name).second) globals.push_back(&g);
  if (globals.empty()) p.out += "# (none)\n";
  for (const GlobalRead* gp : globals) {
    const GlobalRead& g = *gp;
    std::string by;
    for (const auto& f : g.read_by) by += (by.empty() ? "" : ", ") + f + "()";
    const auto it = spec.globals.find(g.name);
    const bool integer = is_integer_global(g.type);
    if (hidden.count(g.name))
      p.line(fmt::format("# global {} input", g.name),
             fmt::format("NOT COVERED: read by {}; choose `input` or {}", by,
                         integer ? "`= VALUE`" : "`scratch` (a work area, not compared)"));
    else if (it != spec.globals.end() && !it->second.fn.empty())
      p.line(fmt::format("global {} fn {}", g.name, it->second.fn), "a function of the file");
    else if (it != spec.globals.end() && it->second.constant)
      p.line(fmt::format("global {} = {}", g.name, *it->second.constant), "a stated constant");
    else if (it != spec.globals.end() && it->second.scratch)
      p.line(fmt::format("global {} scratch", g.name), "generated per call, not compared");
    else if (it != spec.globals.end())
      p.line(fmt::format("global {} input", g.name), "generated from its type per call");
    else if (g.in_shim)
      p.line(fmt::format("# {}: the shim's", g.name),
             "its value, not an input (nr_cpu_ids, the CPU masks: per input; the rest fixed)");
    else if (g.constant)
      p.line(fmt::format("# {}: constant data", g.name), "not generated");
    else
      p.line(fmt::format("# {}: written only", g.name), "observed after each call, not generated");
    // A covered global's `param NAME...` lines (a table's length, a level's
    // callback, a field's range), as the spec gave them: once, from the
    // first side that lays it out.
    if (hidden.count(g.name) || it == spec.globals.end() || !it->second.fn.empty() || it->second.constant)
      continue;
    const Slot* covered = nullptr;
    for (const Side* side : {&a, &b})
      for (const Slot& slot : side->layout.globals)
        if (!covered && slot.name == g.name) covered = &slot;
    if (covered) {
      p.given_only = true;
      p.node(covered->node, covered->name);
      p.given_only = false;
    }
  }
  if (!spec.intended.empty()) p.out += "\n# intended differences\n";
  for (const std::string& r : spec.intended) p.line("intended " + r, "");
  return p.out;
}

}  // namespace

// The stubs (docs/fn.md "Stubs"): one line each, with what a call returns.
std::string stub_lines(const Layout& layout, const Spec& spec) {
  if (layout.stubs.empty()) return {};
  std::string out = "\n# stubs: external functions the shim lacks (and functions of the file a `stub`\n"
                    "# line names), defined by the harness; each call is recorded with its\n"
                    "# arguments (the row `calls`)\n";
  for (const Stub& s : layout.stubs) {
    const auto it = spec.stubs.find(s.name);
    std::string line = it != spec.stubs.end() && it->second.constant
                           ? fmt::format("stub {} = {}", s.name, *it->second.constant)
                           : fmt::format("stub {} input", s.name);
    std::string what = s.result.kind == TypeKind::kVoid
                           ? "returns void"
                           : fmt::format("returns `{}`: the k-th call the input's value k mod {}",
                                         s.result.spelling, kStubValues);
    if (s.implicit) what += "; never declared";
    if (s.in_file) what += "; a function of the file";
    if (!s.called) what += "; called by one side only";
    out += fmt::format("{:<48} # {}\n", line, what);
  }
  return out;
}

int print_spec(const FnOptions& o, const Spec& spec, const std::string& level) {
  auto bad = [](const std::string& m) {
    fmt::print(stderr, "diffsched: error: {}\n", m);
    return 2;
  };
  // A hidden global is listed (commented out), not an error, until the
  // spec is printed: a second pass lays the sides out without it.
  std::set<std::string> uncovered;
  Side old_side{"old", o.old_file, o.old_function, {}};
  Side new_side{"new", o.new_file, o.new_function, {}};
  auto prepare = [&](const Spec& at, std::string* error) {
    uncovered.clear();
    for (Side* s : {&old_side, &new_side}) s->x = {};
    for (int pass = 0; pass < 2; ++pass) {
      bool again = false;
      for (Side* s : {&old_side, &new_side}) {
        if (prepare_side(*s, at, error, uncovered)) continue;
        const auto hidden = s->x.ok() ? hidden_globals(s->x, at) : std::vector<const GlobalRead*>{};
        if (hidden.empty() || pass == 1) return false;
        for (const GlobalRead* g : hidden) again |= uncovered.insert(g->name).second;
      }
      if (!again) break;
    }
    *error = sides_agree(at, old_side, new_side);
    return error->empty();
  };
  EraChoice era;
  if (std::string error; !resolve_era(spec, o.old_file, o.new_file, prepare,
                                      [&] { return unit_failed(old_side) || unit_failed(new_side); },
                                      &era, &error))
    return bad(error);
  Spec at = spec;
  at.kernel = era.version;
  std::cout << print(old_side, new_side, at, level, uncovered, era.why);
  if (uncovered.empty()) return 0;
  std::string names;
  for (const std::string& g : uncovered) names += fmt::format("{}`{}`", names.empty() ? "" : ", ", g);
  return bad(fmt::format("the printed spec leaves {} {} uncovered (read by the function): choose "
                         "`global NAME input` or `global NAME = VALUE` for each before --spec",
                         uncovered.size() == 1 ? "global" : "globals", names));
}

}  // namespace diffsched::fn
