// diffsched fn: the .fnspec format (docs/fn.md "Spec files"). One
// directive a line, '#' starts a comment:
//
//   param NAME range LO HI    the parameter's domain, LO <= value <= HI;
//                             a bound is an integer or nr_cpu_ids[+-K]
//   param NAME nested         an array of masks: each holds the one before
//   param NAME array N        a pointer: to N elements (allocated exactly)
//   param NAME array N terminated
//                             the same and one zeroed element after them, never
//                             drawn (a table walked to its `{ NULL, }`)
//   param NAME heap           an array: its elements after the first sorted
//                             ascending (a min-heap), the first any value
//   param NAME less TYPE      a comparison callback `bool (*)(const void *,
//                             const void *, ...)`: the harness's `<` over TYPE
//   param NAME cmp TYPE       `int (*)(const void *, const void *[, priv])`:
//                             the harness's counting -1/0/1 over TYPE
//   param NAME swap [TYPE]    `void (*)(void *, void *[, int size, ...])`: the
//                             harness's counting swap (of TYPE without a size)
//   param NAME null           a function pointer: NULL (the function's default)
//   param NAME fn FUNCTION    a function pointer: FUNCTION, defined in the file
//                             (its closure and the globals it reads come along)
//   param NAME elements TYPE [num=NAME] [size=NAME|N]
//                             a `void *` array: of TYPE (an integer type, or
//                             `T tagged`: a key and a tag), its length in the
//                             parameter NAME, size=NAME set to sizeof(TYPE)
//   NAME is a parameter, or a path to a field: `heap.data`, `ops.less`, or
//   through a covered global: `runqueues[].nr_running`.
//   global NAME input         generate the global from its type, per call
//   global NAME scratch       the same, but not an output: not compared
//   global NAME = VALUE       the global is this integer constant
//   global NAME fn FUNCTION   a function-pointer global: FUNCTION, of the file
//   level exact|multiset|sorted
//   param NAME scratch        not an output: what the call leaves there is not compared
//   param NAME ring FIELD N   a pointer to a struct: to N of them, each one's
//                             FIELD pointing to the next, the last's to the
//                             first (a domain's sched_group ring)
//   depth N                   struct fields generated N levels below a
//                             parameter or global (default 2, at most 4)
//   intended ROW              a difference in this observation row (return,
//                             *PARAM, GLOBAL, WARN_ON) is intended, not a finding
//   stub NAME input           a function the file defines, or an external the
//   stub NAME = VALUE         shim lacks: a stub (results drawn, or VALUE)
//   config CONFIG_X [= N]     the kernel option defined (to N, default 1) for
//                             both sides' parse and unit (the shim's are off)
//   kernel MAJOR.MINOR        the shim's era both sides are built at (as
//                             --kernel-version; fn/era.h)
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "fn/era.h"
#include "fn/model.h"

namespace diffsched::fn {

namespace {

bool parse_int(const std::string& s, std::int64_t* out) {
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, *out);
  return ec == std::errc() && p == end && !s.empty();
}

bool parse_bound(const std::string& s, Bound* b) {
  const std::string kName = "nr_cpu_ids";
  if (s.rfind(kName, 0) == 0) {
    b->per_nr_cpu_ids = true;
    const std::string rest = s.substr(kName.size());
    if (rest.empty()) return true;
    if (rest[0] != '+' && rest[0] != '-') return false;
    std::int64_t k = 0;
    if (!parse_int(rest.substr(1), &k)) return false;
    b->value = rest[0] == '-' ? -k : k;
    return true;
  }
  return parse_int(s, &b->value);
}

// w[from..] joined by single blanks ("unsigned long", "int tagged").
std::string words_from(const std::vector<std::string>& w, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < w.size(); ++i) s += (i > from ? " " : "") + w[i];
  return s;
}

// `param NAME elements TYPE [num=NAME] [size=NAME|N]`; "" or why not.
std::string parse_elements(const std::vector<std::string>& w, ParamSpec* p) {
  std::size_t end = 3;
  while (end < w.size() && w[end].find('=') == std::string::npos) ++end;
  p->elements = words_from(std::vector<std::string>(w.begin(), w.begin() + end), 3);
  for (std::size_t i = end; i < w.size(); ++i) {
    const std::size_t eq = w[i].find('=');
    const std::string key = w[i].substr(0, eq), value = w[i].substr(eq == std::string::npos ? w[i].size() : eq + 1);
    if (eq == std::string::npos || value.empty() || (key != "num" && key != "size"))
      return "the form is `param NAME elements TYPE [num=NAME] [size=NAME|N]`";
    std::int64_t n = 0;
    if (key == "num") p->elements_num = value;
    else if (!parse_int(value, &n)) p->elements_size = value;
    else if (n < 1) return "`size=N`: N is an element's size in bytes, at least 1";
    else p->elements_size_value = n;
  }
  if (p->elements.empty()) return "the form is `param NAME elements TYPE [num=NAME] [size=NAME|N]`";
  return {};
}

// One directive (words of a line); "" or why it is wrong.
std::string parse_directive(const std::vector<std::string>& w, Spec* spec) {
  if (w[0] == "level") {
    if (w.size() != 2 || (w[1] != "exact" && w[1] != "multiset" && w[1] != "sorted"))
      return "the form is `level exact|multiset|sorted`";
    spec->level = w[1];
    return {};
  }
  if (w[0] == "kernel") {
    if (w.size() != 2) return "the form is `kernel MAJOR.MINOR` (the shim's era, e.g. `kernel 6.1`)";
    if (const std::string why = check_fn_kernel_version(w[1]); !why.empty()) return why;
    spec->kernel = w[1];
    spec->kernel_from = "the spec's `kernel` line";
    return {};
  }
  if (w[0] == "depth") {
    std::int64_t n = 0;
    if (w.size() != 2 || !parse_int(w[1], &n) || n < 1 || n > kMaxFieldDepth)
      return fmt::format("the form is `depth N`: struct fields generated N levels below a "
                         "parameter or global, 1 to {} (default {})", kMaxFieldDepth,
                         kDefaultFieldDepth);
    spec->depth = static_cast<int>(n);
    return {};
  }
  if (w[0] == "config") {
    std::int64_t v = 1;
    const bool named = w.size() >= 2 && w[1].size() > 7 && w[1].rfind("CONFIG_", 0) == 0 &&
                       std::all_of(w[1].begin(), w[1].end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
    if (!named || (w.size() != 2 && (w.size() != 4 || w[2] != "=" || !parse_int(w[3], &v))))
      return "the form is `config CONFIG_NAME` or `config CONFIG_NAME = INTEGER` (a kernel "
             "option defined for both sides' parse and unit)";
    spec->config[w[1]] = v;
    return {};
  }
  if (w[0] == "param") {
    if (w.size() == 3 && w[2] == "nested") {
      spec->params[w[1]].nested = true;
      return {};
    }
    if (w.size() == 3 && w[2] == "heap") {
      spec->params[w[1]].heap = true;
      return {};
    }
    if (w.size() == 3 && w[2] == "scratch") {
      spec->params[w[1]].scratch = true;
      return {};
    }
    if ((w.size() == 4 || w.size() == 5) && w[2] == "array") {
      std::int64_t n = 0;
      if (!parse_int(w[3], &n) || n < 0 || n > kMaxArrayLength || (w.size() == 5 && w[4] != "terminated"))
        return fmt::format("`param NAME array N [terminated]`: N from 0 to {} (terminated: a zeroed "
                           "element after them, as `{{ NULL, }}` ends a table)", kMaxArrayLength);
      spec->params[w[1]].array = n;
      spec->params[w[1]].terminated = w.size() == 5;
      return {};
    }
    if (w.size() >= 3 && w[2] == "ring") {
      std::int64_t n = 0;
      if (w.size() != 5 || !parse_int(w[4], &n) || n < 1 || n > kMaxArrayLength)
        return fmt::format("the form is `param NAME ring FIELD N`: a pointer to N structs (1 to "
                           "{}), each one's FIELD pointing to the next, the last's to the first",
                           kMaxArrayLength);
      spec->params[w[1]].ring = w[3];
      spec->params[w[1]].ring_count = n;
      return {};
    }
    if (w.size() == 3 && w[2] == "null") {
      spec->params[w[1]].null = true;
      return {};
    }
    if (w.size() >= 3 && w[2] == "fn") {
      if (w.size() != 4) return "the form is `param NAME fn FUNCTION` (a function of the file)";
      spec->params[w[1]].fn = w[3];
      return {};
    }
    if (w.size() >= 4 && (w[2] == "less" || w[2] == "cmp")) {
      (w[2] == "less" ? spec->params[w[1]].less : spec->params[w[1]].cmp) = words_from(w, 3);
      return {};
    }
    if (w.size() >= 3 && w[2] == "swap") {
      spec->params[w[1]].swap = true;
      spec->params[w[1]].swap_type = words_from(w, 3);
      return {};
    }
    if (w.size() >= 4 && w[2] == "elements") return parse_elements(w, &spec->params[w[1]]);
    Bound lo, hi;
    if (w.size() != 5 || w[2] != "range" || !parse_bound(w[3], &lo) || !parse_bound(w[4], &hi))
      return "the form is `param NAME range LO HI` (a bound: an integer or nr_cpu_ids[+-K]) "
             "or `param NAME nested|heap|scratch|null|fn FUNCTION|array N [terminated]|ring FIELD N|less TYPE|cmp "
             "TYPE|swap [TYPE]|elements TYPE [num=NAME] [size=NAME|N]`";
    spec->params[w[1]].lo = lo;
    spec->params[w[1]].hi = hi;
    return {};
  }
  if (w[0] == "global" && w.size() >= 3 && w[2] == "fn") {
    if (w.size() != 4) return "the form is `global NAME fn FUNCTION` (a function of the file)";
    spec->globals[w[1]].fn = w[3];
    return {};
  }
  if (w[0] == "global" || w[0] == "stub") {
    // `KIND NAME input` or `KIND NAME = INTEGER`: generated per call, or fixed.
    const bool global = w[0] == "global";
    std::int64_t v = 0;
    const bool scratch = global && w.size() == 3 && w[2] == "scratch";
    const bool input = (w.size() == 3 && w[2] == "input") || scratch;
    if (!input && (w.size() != 4 || w[2] != "=" || !parse_int(w[3], &v)))
      return global ? "the form is `global NAME input`, `global NAME scratch`, `global NAME = "
                      "INTEGER` or `global NAME fn FUNCTION`"
                    : "the form is `stub NAME input` or `stub NAME = INTEGER` (a pointer: 0, NULL)";
    if (global && input) spec->globals[w[1]].input = true;
    if (scratch) spec->globals[w[1]].scratch = true;
    if (global && !input) spec->globals[w[1]].constant = v;
    if (!global) spec->stubs[w[1]] = input ? StubSpec{} : StubSpec{v};
    return {};
  }
  if (w[0] == "intended") {
    if (w.size() != 2) return "the form is `intended ROW` (return, *PARAM, GLOBAL, calls or WARN_ON)";
    spec->intended.insert(w[1]);
    return {};
  }
  return fmt::format("unknown directive `{}` (param, global, stub, level, depth, intended, config)",
                     w[0]);
}

// What a line is about, and which kind of thing it says there, for the check
// that no two lines say one thing twice or contradict each other:
// {"param heap.less", "binding"}, {"global level", ""}; {"", ""} for a line
// that has no subject (an unknown directive fails before this).
std::pair<std::string, std::string> directive_key(const std::vector<std::string>& w) {
  if (w[0] == "level" || w[0] == "depth" || w[0] == "kernel") return {w[0], ""};
  if ((w[0] == "global" || w[0] == "stub" || w[0] == "intended" || w[0] == "config") &&
      w.size() >= 2)
    return {w[0] + " " + w[1], ""};
  if (w[0] != "param" || w.size() < 3) return {};
  // A function pointer gets one binding; a path gets each other kind once.
  for (const char* callback : {"less", "cmp", "swap", "null", "fn"})
    if (w[2] == callback) return {"param " + w[1], "binding"};
  // `ring` says how many structs the pointer points to, as `array` does.
  return {"param " + w[1], w[2] == "ring" ? "array" : w[2]};
}

// The kinds of line a binding of a function pointer excludes on its path.
bool excludes_binding(const std::string& kind) {
  return kind == "range" || kind == "nested" || kind == "heap" || kind == "array" ||
         kind == "elements";
}

}  // namespace

bool add_config_options(const std::vector<std::string>& options, Spec* spec, std::string* error) {
  for (const std::string& o : options) {
    const std::size_t eq = o.find('=');
    std::vector<std::string> w = {"config", o.substr(0, eq)};
    if (eq != std::string::npos) w.insert(w.end(), {"=", o.substr(eq + 1)});
    Spec one;
    if (const std::string why = parse_directive(w, &one); !why.empty()) {
      *error = fmt::format("--config {}: the form is --config CONFIG_NAME or --config "
                           "CONFIG_NAME=INTEGER (a kernel option defined for both sides)", o);
      return false;
    }
    const auto& [name, value] = *one.config.begin();
    if (const auto it = spec->config.find(name); it != spec->config.end() && it->second != value) {
      *error = fmt::format("--config {}: the spec defines {} = {}", o, name, it->second);
      return false;
    }
    if (!spec->config.count(name)) spec->config_options.insert(name);
    spec->config[name] = value;
  }
  return true;
}

bool parse_spec(const std::string& text, const std::string& file, Spec* spec, std::string* error) {
  std::istringstream in(text);
  unsigned number = 0;
  struct Said {
    unsigned line;
    std::string text;
  };
  std::map<std::string, std::map<std::string, Said>> said;  // directive_key()
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    if (const std::string why = parse_directive(w, spec); !why.empty()) {
      *error = fmt::format("{}:{}: {}", file, number, why);
      return false;
    }
    // A second line about the same thing would silently win over the first:
    // name the line it repeats or contradicts.
    const auto [subject, kind] = directive_key(w);
    if (subject.empty()) continue;
    auto& kinds = said[subject];
    const Said* clash = nullptr;
    if (auto it = kinds.find(kind); it != kinds.end()) clash = &it->second;
    for (const auto& [other, earlier] : kinds)
      if (!clash && ((kind == "binding" && excludes_binding(other)) ||
                     (other == "binding" && excludes_binding(kind))))
        clash = &earlier;
    if (clash) {
      const bool binding = kind == "binding" || kinds.count("binding");
      *error = fmt::format("{}:{}: `{}` conflicts with line {}, `{}`: {}", file, number,
                           words_from(w, 0), clash->line, clash->text,
                           binding ? "a function pointer takes one binding (less, cmp, swap, "
                                     "null or fn) and no range, array, nested, heap or elements"
                                   : "say it once");
      return false;
    }
    kinds.emplace(kind, Said{number, words_from(w, 0)});
  }
  return true;
}

}  // namespace diffsched::fn
