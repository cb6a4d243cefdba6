// diffsched fn: comparing two sides' observations of one input at a level,
// and printing them side by side.
//
// Levels (docs/fn.md "Levels"): exact, every field equal; multiset, the
// elements of each array parameter (one with a length parameter) equal as
// multisets; sorted, the same multiset and the same sequence of keys (an
// element's key: itself if a scalar, else its first field), so only the
// order of elements with equal keys may differ. For an array of integers
// sorted is multiset and the same order, which for integers is exact.
#include <algorithm>

#include <fmt/format.h>

#include "fn/check.h"
#include "fn/show.h"

namespace diffsched::fn {

namespace {

using nlohmann::json;

bool is_dynamic_array(const Slot& s) {
  return !s.is_length && s.node.kind == NodeKind::kArray && s.node.count < 0;
}

bool observed(const Slot& s) {
  return !s.is_length && (s.node.kind == NodeKind::kPointer || s.node.kind == NodeKind::kArray);
}

// A scratch value (the spec's `param PATH scratch`) is not an output.
void drop_scratch(const Node& node, json& v) {
  if (node.spec.scratch) {
    v = nullptr;
    return;
  }
  if (!v.is_array()) return;
  switch (node.kind) {
    case NodeKind::kStruct:
      for (std::size_t i = 0; i < node.kids.size() && i < v.size(); ++i) drop_scratch(node.kids[i], v[i]);
      return;
    case NodeKind::kArray:
      for (json& e : v) drop_scratch(node.kids[0], e);
      return;
    case NodeKind::kPointer: drop_scratch(node.kids[0], v); return;
    default: return;
  }
}

// The record without the rows the spec declares intended.
void drop_intended(const Layout& layout, json& r) {
  if (layout.intended.empty() || !r.is_object()) return;
  const std::vector<std::string> rows = observation_rows(layout);
  std::size_t o = 0, g = 0;
  for (const std::string& row : rows) {
    const bool drop = layout.intended.count(row) != 0;
    if (row == "return") {
      if (drop) r.erase("ret");
    } else if (row == "WARN_ON") {
      if (drop) r.erase("warn");
    } else if (row == "calls") {
      if (drop) r.erase("calls");
    } else if (row[0] == '*') {
      if (drop && r.contains("out") && o < r["out"].size()) r["out"][o] = nullptr;
      ++o;
    } else {
      if (drop && r.contains("glob") && g < r["glob"].size()) r["glob"][g] = nullptr;
      ++g;
    }
  }
}

json normalize(const Layout& layout, const json& record, FnLevel level, bool intended_too = false) {
  json r = record;
  if (r.is_object()) {  // what a call cost is not what it did
    r.erase("cost");
    r.erase("mem");
  }
  if (r.is_object() && r.contains("out")) {
    std::size_t o = 0;
    for (const Slot& s : layout.params)
      if (observed(s) && o < r["out"].size()) drop_scratch(s.node, r["out"][o++]);
  }
  if (r.is_object() && r.contains("glob")) {  // `global NAME scratch`
    std::size_t g = 0;
    for (const auto* list : {&layout.globals, &layout.written})
      for (const Slot& s : *list)
        if (!s.is_stub && g < r["glob"].size()) drop_scratch(s.node, r["glob"][g++]);
  }
  if (intended_too) drop_intended(layout, r);
  if (level == FnLevel::kExact || !r.contains("out")) return r;
  std::size_t o = 0;
  for (const Slot& s : layout.params) {
    if (!observed(s)) continue;
    const std::size_t at = o++;
    if (!is_dynamic_array(s) || at >= r["out"].size() || !r["out"][at].is_array()) continue;
    json elems = r["out"][at];
    json keys = json::array();
    for (const json& e : elems) keys.push_back(e.is_array() && !e.empty() ? e[0] : e);
    std::vector<json> sorted(elems.begin(), elems.end());
    std::sort(sorted.begin(), sorted.end());
    json bag(sorted);
    r["out"][at] = level == FnLevel::kMultiset ? bag : json::array({bag, keys});
  }
  return r;
}

std::string show_scalar(const Node& s, const json& v) {
  if (s.is_bool && v.is_number()) return v.get<std::uint64_t>() ? "true" : "false";
  return v.dump();
}

std::string show(const Node& node, const json& v) {
  // Not compared (the record has null): what the input set, as it shows it.
  if (node.kind == NodeKind::kNull)  // a data pointer's identity (&inK+OFF) if it is not as set
    return v.is_string() ? v.get<std::string>() : null_text(node);
  if (node.kind == NodeKind::kLess) return callback_text(node);
  if (v.is_null()) return "NULL";
  switch (node.kind) {
    case NodeKind::kScalar: return show_scalar(node, v);
    case NodeKind::kMask: {
      if (v == "=") return "unchanged";  // the harness left it as drawn (the input line has it)
      if (!v.is_array()) return v.dump();
      std::vector<std::uint64_t> w;
      for (const json& x : v) w.push_back(x.is_number_unsigned() ? x.get<std::uint64_t>() : 0);
      return "{" + cpu_list(w, static_cast<unsigned>(w.size() * 64)) + "}";
    }
    case NodeKind::kStruct: {
      if (!v.is_array()) return v.dump();
      std::string s = "{";
      for (std::size_t i = 0; i < node.kids.size() && i < v.size(); ++i)
        s += (i ? " " : "") + node.kids[i].field + "=" + show(node.kids[i], v[i]);
      return s + "}";
    }
    case NodeKind::kPointer: return show(node.kids[0], v);
    case NodeKind::kNull: return null_text(node);
    case NodeKind::kLess: return callback_text(node);
    case NodeKind::kArray: {
      if (!v.is_array()) return v.dump();
      std::vector<std::string> elems;
      for (const json& e : v) elems.push_back(show(node.kids[0], e));
      return list_text(elems);
    }
  }
  return v.dump();
}

// An array row's elements, one text each (through a pointer to the array);
// false for any other value.
bool elements_of(const Node& node, const json& v, std::vector<std::string>* elems, bool* fixed) {
  const Node* at = &node;
  while (at->kind == NodeKind::kPointer) at = &at->kids[0];
  if (at->kind != NodeKind::kArray || !v.is_array()) return false;
  for (const json& e : v) elems->push_back(show(at->kids[0], e));
  *fixed = at->count >= 0;
  return true;
}

// A struct row's leaves (through pointers; nested structs by path, any
// other field as show() writes it); false for any other value.
bool leaves_of(const Node& node, const json& v, const std::string& prefix, Leaves* out) {
  const Node* at = &node;
  while (at->kind == NodeKind::kPointer) at = &at->kids[0];
  if (at->kind != NodeKind::kStruct || !v.is_array()) return false;
  for (std::size_t i = 0; i < at->kids.size() && i < v.size(); ++i) {
    const Node& kid = at->kids[i];
    const std::string path = prefix + kid.field;
    if (!leaves_of(kid, v[i], path + ".", out)) out->emplace_back(path, show(kid, v[i]));
  }
  return true;
}

struct Row {
  std::string name, old_text, new_text;
  const Node* node = nullptr;  // an array row's node, for show_row()
  json old_value, new_value;
};

// An array row that differs (docs/fn.md "Use"): only its differing
// elements, `[I]=V` (or `[I-J]=V` for a run), and their count, when the
// array has a fixed size (a per-CPU global's copies: I is the CPU) or its
// whole text is long; the whole arrays otherwise. A long row that does not
// differ (an array, a struct: *sd, *p) is written once: its new side is
// `the same`.
constexpr std::size_t kLongArrayText = 120;

std::pair<std::string, std::string> show_row(const Row& r) {
  std::vector<std::string> a, b;
  bool fixed = false;
  if (r.old_text == r.new_text && r.old_text.size() > kLongArrayText) return {r.old_text, "the same"};
  // A long struct that differs: only its differing fields, by path.
  if (Leaves x, y; r.node && r.old_text != r.new_text &&
                   std::max(r.old_text.size(), r.new_text.size()) > kLongArrayText &&
                   leaves_of(*r.node, r.old_value, "", &x) && leaves_of(*r.node, r.new_value, "", &y)) {
    const ListDiff d = leaves_diff(x, y);
    if (d.count > 0)
      return {fmt::format("{}   ({} of {} field{} differ{}; the rest are equal)", d.old_text,
                          d.count, x.size(), x.size() == 1 ? "" : "s", d.count == 1 ? "s" : ""),
              d.new_text};
  }
  if (!r.node || r.old_text == r.new_text || !elements_of(*r.node, r.old_value, &a, &fixed) ||
      !elements_of(*r.node, r.new_value, &b, &fixed) || a.size() != b.size() ||
      (!fixed && std::max(r.old_text.size(), r.new_text.size()) <= kLongArrayText))
    return {r.old_text, r.new_text};
  const ListDiff d = list_diff(a, b);
  return {fmt::format("{}   ({} of {} element{} differ{}; the rest are equal)", d.old_text, d.count,
                      a.size(), a.size() == 1 ? "" : "s", d.count == 1 ? "s" : ""),
          d.new_text};
}

std::vector<Row> rows_of(const Layout& layout, const Observation& a, const Observation& b) {
  std::vector<Row> rows;
  auto field = [](const Observation& o, const char* key, std::size_t i) -> json {
    if (!o.record.contains(key)) return json();
    const json& v = o.record[key];
    return i < v.size() ? v[i] : json();
  };
  if (!layout.result_void) {
    const json ra = a.record.value("ret", json()), rb = b.record.value("ret", json());
    // A pointer result is its identity: NULL, &inK+OFF (into the input's
    // K-th object) or &other.
    auto pointer = [](const json& v) { return v.is_string() ? v.get<std::string>() : std::string("NULL"); };
    rows.push_back({"return", layout.result_pointer ? pointer(ra) : show(layout.result, ra),
                    layout.result_pointer ? pointer(rb) : show(layout.result, rb), nullptr, json(), json()});
  }
  std::size_t o = 0;
  for (const Slot& s : layout.params) {
    if (!observed(s)) continue;
    const json x = field(a, "out", o), y = field(b, "out", o);
    rows.push_back({"*" + s.name, show(s.node, x), show(s.node, y), &s.node, x, y});
    ++o;
  }
  std::size_t g = 0;
  for (const auto* list : {&layout.globals, &layout.written})
    for (const Slot& s : *list) {
      if (s.is_stub) continue;  // an input, not an output
      const json x = field(a, "glob", g), y = field(b, "glob", g);
      rows.push_back({s.name, show(s.node, x), show(s.node, y), &s.node, x, y});
      ++g;
    }
  if (!layout.stubs.empty()) {  // the stubs' calls: the first differing call, both sides
    const auto [ca, cb] = show_calls_diff(layout, a.record.value("calls", json()),
                                          b.record.value("calls", json()));
    rows.push_back({"calls", ca, cb, nullptr, json(), json()});
  }
  rows.push_back({"WARN_ON", a.record.value("warn", json()).dump(),
                  b.record.value("warn", json()).dump(), nullptr, json(), json()});
  return rows;
}

}  // namespace

bool parse_level(const std::string& name, FnLevel* level) {
  if (name == "exact") *level = FnLevel::kExact;
  else if (name == "sorted") *level = FnLevel::kSorted;
  else if (name == "multiset") *level = FnLevel::kMultiset;
  else return false;
  return true;
}

const char* level_name(FnLevel l) {
  return l == FnLevel::kExact ? "exact" : l == FnLevel::kSorted ? "sorted" : "multiset";
}

bool equal_at(const Layout& layout, const Observation& a, const Observation& b, FnLevel level,
              bool but_intended) {
  if (a.fault || b.fault) return false;  // one side only: a divergence; both: a finding
  return normalize(layout, a.record, level, but_intended) == normalize(layout, b.record, level, but_intended);
}

std::string first_differing_row(const Layout& layout, const Observation& a, const Observation& b,
                                FnLevel level, bool but_intended) {
  Observation x = a, y = b;
  x.record = normalize(layout, a.record, level, but_intended);
  y.record = normalize(layout, b.record, level, but_intended);
  for (const Row& r : rows_of(layout, x, y))
    if (r.old_text != r.new_text) return r.name;
  return "";
}

std::string show_observations(const Layout& layout, const Observation& a, const Observation& b,
                              unsigned /*nr_cpu_ids*/) {
  std::string s;
  if (a.fault || b.fault) {
    s += fmt::format("  old: {}\n", a.fault ? "FAULT: " + a.fault_what : "no fault");
    s += fmt::format("  new: {}\n", b.fault ? "FAULT: " + b.fault_what : "no fault");
    if (a.fault != b.fault) {
      const Observation& ok = a.fault ? b : a;
      for (const Row& r : rows_of(layout, ok, ok))
        s += fmt::format("  {:<12} {}: {}\n", r.name, a.fault ? "new" : "old", r.old_text);
    }
    return s;
  }
  for (const Row& r : rows_of(layout, a, b)) {
    const bool differs = r.old_text != r.new_text;
    const auto [old_text, new_text] = show_row(r);
    const std::size_t w = std::max<std::size_t>(12, r.name.size());  // a long name: `new:` under `old:`
    s += fmt::format("  {:<{}} old: {}\n", r.name, w, old_text);
    s += fmt::format("  {:<{}} new: {}{}\n", "", w, new_text,
                     !differs                        ? ""
                     : layout.intended.count(r.name) ? "   <-- differs (intended)"
                                                     : "   <-- differs");
  }
  return s;
}

}  // namespace diffsched::fn
