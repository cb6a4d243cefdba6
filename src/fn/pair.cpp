// diffsched fn: what the two sides of a pair must share. They take the same
// inputs (same_inputs()), and a covered global only one side reads is drawn
// for both (merge_absent_globals()), so the value streams agree.
#include <algorithm>

#include <fmt/format.h>

#include "fn/model.h"

namespace diffsched::fn {

namespace {

bool same_node(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.c_type != b.c_type || a.count != b.count || a.bits != b.bits ||
      a.is_signed != b.is_signed || a.kids.size() != b.kids.size())
    return false;
  for (std::size_t i = 0; i < a.kids.size(); ++i)
    if (!same_node(a.kids[i], b.kids[i]) || a.kids[i].field != b.kids[i].field) return false;
  return true;
}

// The names of a's slots that b has none of: "`x`, `y`".
std::string only_in(const std::vector<Slot>& a, const std::vector<Slot>& b) {
  std::string names;
  for (const Slot& s : a)
    if (std::none_of(b.begin(), b.end(), [&](const Slot& t) { return t.name == s.name; }))
      names += (names.empty() ? "`" : ", `") + s.name + "`";
  return names;
}

std::string same_slots(const std::vector<Slot>& a, const std::vector<Slot>& b, const char* what) {
  if (a.size() != b.size()) {
    const std::string old_only = only_in(a, b), new_only = only_in(b, a);
    std::string which;
    if (!old_only.empty()) which += "old only: " + old_only;
    if (!new_only.empty()) which += (which.empty() ? "" : "; ") + std::string("new only: ") + new_only;
    return fmt::format("the two sides take different {} ({} and {}{}): both must take the same "
                       "inputs", what, a.size(), b.size(), which.empty() ? "" : "; " + which);
  }
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || !same_node(a[i].node, b[i].node))
      return fmt::format("{} `{}` of the old side and `{}` of the new side differ in name or type",
                         what, a[i].name, b[i].name);
  return {};
}


// Copies into `to` each covered global of `from` it lacks, marked absent, at
// the place it has in `from` (after the global before it there).
void add_absent(const std::vector<Slot>& from, std::vector<Slot>* to) {
  auto has = [&](const std::string& name) {
    return std::find_if(to->begin(), to->end(), [&](const Slot& s) { return s.name == name; });
  };
  auto at = to->begin();
  for (const Slot& s : from) {
    if (s.is_stub) continue;
    if (auto it = has(s.name); it != to->end()) {
      at = it + 1;
      continue;
    }
    Slot copy = s;
    copy.absent = true;
    at = to->insert(at, std::move(copy)) + 1;
  }
}

// `T name[N]...`: a declaration of a variable of node's type.
std::string declaration(const Node& node, const std::string& name) {
  if (node.kind == NodeKind::kArray && !node.by_pointer && node.count >= 0)
    return declaration(node.kids[0], fmt::format("{}[{}]", name, node.count));
  if (node.c_type.find("(*)") != std::string::npos)
    return fmt::format("__typeof__({}) {}", node.c_type, name);
  return fmt::format("{} {}", node.c_type, name);
}

}  // namespace

void merge_absent_globals(Layout* a, Layout* b) {
  add_absent(a->globals, &b->globals);
  add_absent(b->globals, &a->globals);
}

std::string join_sides(Layout* a, Layout* b) {
  merge_absent_globals(a, b);
  std::string why;
  if (!merge_stubs(a, b, &why)) return why;
  return same_inputs(*a, *b);
}

std::string absent_definitions(const Layout& layout) {
  std::string out;
  for (const Slot& s : layout.globals)
    if (s.absent) {
      if (out.empty())
        out = "\n/* ---- covered globals only the other side reads (docs/fn.md \"Globals\") ---- */\n";
      out += fmt::format("static {};\n", declaration(s.node, s.lvalue()));
    }
  return out;
}

std::string same_inputs(const Layout& a, const Layout& b) {
  if (std::string why = same_slots(a.params, b.params, "parameters"); !why.empty()) return why;
  if (std::string why = same_slots(a.globals, b.globals, "covered globals"); !why.empty())
    return why;
  if (a.result_void != b.result_void || a.result_pointer != b.result_pointer ||
      a.result.c_type != b.result.c_type)
    return "the two sides' result types differ";
  return {};
}

}  // namespace diffsched::fn
