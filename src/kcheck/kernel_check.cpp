#include "kcheck/kernel_check.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "kcheck/c_source.h"
#include "util/text.h"

namespace diffsched::tools {

namespace {

// The parameter count of the definition of `name` in `src`, or -1 when the
// text does not define it (a prototype is not a definition).
int defined_params(const CSource& src, std::string_view name) {
  const CFunction* f = src.definition(name);
  return f ? f->params : -1;
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), is_word_char);
}

// Every `PREFIX<text>'` in `out` (text: one or more characters other than
// '), with where it starts; a linear scan, no regex.
std::vector<std::pair<std::size_t, std::string>> quoted_after(const std::string& out,
                                                              std::string_view prefix) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (std::size_t at = out.find(prefix); at != std::string::npos; at = out.find(prefix, at + 1)) {
    const std::size_t b = at + prefix.size(), e = out.find('\'', b);
    if (e == std::string::npos) break;
    if (e > b) found.emplace_back(at, out.substr(b, e - b));
  }
  return found;
}

// The identifier at `at` in `out` ("" if none).
std::string identifier_at(const std::string& out, std::size_t at) {
  std::size_t e = at;
  while (e < out.size() && is_word_char(out[e])) ++e;
  const std::string id = out.substr(at, e - at);
  return is_identifier(id) ? id : std::string();
}

// The compiler's lines about the subject's glue (kshim/runtime/glue_cpudl.c):
// what it expects of the file's form, not kernel API.
bool is_glue_line(const std::string& line, std::string_view glue) {
  return line.find(fmt::format("{}:", glue)) != std::string::npos;
}

std::string select_lines(const std::string& out, std::string_view glue, bool about_glue) {
  std::istringstream in(out);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (is_glue_line(line, glue) == about_glue) kept += line + "\n";
  return kept;
}

}  // namespace

std::vector<std::string> shim_helpers_defined_by(const std::string& source) {
  // The shim's static inline helpers that a kernel file has been seen to
  // define itself (kshim.h and kshim/sched/sched.h guard each with
  // #ifndef KSHIM_OWN_<name>).
  static const char* const kOverridable[] = {"dl_time_before", "task_cpu", "capacity_orig_of",
                                             "sched_asym_cpucap_active",
                                             "dl_task_fits_capacity"};
  const CSource& src = parse_c_source(source);
  std::vector<std::string> out;
  for (const char* name : kOverridable)
    if (defined_params(src, name) >= 0) out.emplace_back(name);
  return out;
}

std::string without_glue_errors(const std::string& out, std::string_view glue) {
  return select_lines(out, glue, false);
}

std::string summarize_glue_errors(const std::string& out, const GlueForms& g) {
  const std::string glue = select_lines(out, g.glue, true);
  if (glue.find("error:") == std::string::npos) return {};
  std::string expects = summarize_missing_api(glue);
  const std::string prefix = "the kernel shim (kshim/) lacks: ";
  if (expects.starts_with(prefix)) {
    expects = expects.substr(prefix.size());
    expects = expects.substr(0, expects.find(" (unless"));
  }
  return fmt::format("the file has an API form kernel-check does not support (not a limit "
                     "of the shim): the glue "
                     "(kshim/runtime/{}) expects of the file{}{}{}, "
                     "which are the supported forms' own definitions, not kernel API; "
                     "supported: {}",
                     g.glue, g.expects_of, expects.empty() ? " what the compiler names above" : ": ",
                     expects, g.supported);
}

std::string summarize_form_errors(const std::string& out, const std::string& /*file*/,
                                  std::string_view glue) {
  // Every kernel entry point whose definition conflicts with the form's
  // declaration, named at once.
  static constexpr std::string_view kConflict = "conflicting types for '";
  std::vector<std::string> names;
  for (std::size_t at = out.find(kConflict); at != std::string::npos;
       at = out.find(kConflict, at + 1)) {
    std::string name = identifier_at(out, at + kConflict.size());
    const std::size_t end = at + kConflict.size() + name.size();
    if (!name.starts_with("cpudl_") || end >= out.size() || out[end] != '\'') continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  if (!names.empty()) {
    std::string each;
    for (const auto& name : names)
      each += fmt::format("{}`{}` has an unsupported signature (its definition conflicts with the "
                          "declaration of the API form kernel-check built it as)",
                          each.empty() ? "" : "; ", name);
    return fmt::format("{}; supported: {}", each, supported_cpudl_forms());
  }
  return summarize_glue_errors(out, {glue, " or its cpudeadline.h", supported_cpudl_forms()});
}

std::string_view kernel_api_name(KernelApi api) {
  switch (api) {  // the forms of kcheck_abi.h's one list
#define DIFFSCHED_KERNEL_API_CASE(id, name) \
  case KernelApi::k##id: return name;
    KCHECK_APIS(DIFFSCHED_KERNEL_API_CASE)
#undef DIFFSCHED_KERNEL_API_CASE
  }
  return "?";
}

// Each form its own value: the harness tells the forms apart by it.
static_assert([] {
  constexpr int values[] = {
#define DIFFSCHED_KERNEL_API_VALUE(id, name) KCHECK_API_##id,
      KCHECK_APIS(DIFFSCHED_KERNEL_API_VALUE)
#undef DIFFSCHED_KERNEL_API_VALUE
  };
  for (std::size_t i = 0; i < std::size(values); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (values[i] == values[j]) return false;
  return true;
}());

std::string_view find_return_name(FindReturn r) {
  return r == FindReturn::kCpu ? "a CPU or -1" : "0/1";
}

std::string describe_cpudl_form(KernelApi api, FindReturn ret) {
  const char* what = api == KernelApi::kV3_14 ? "cpudl_set(cp, cpu, dl, is_valid), cpu_to_idx[]"
                     : api == KernelApi::kV4_8  ? "one cpudl_set(cp, cpu, dl, is_valid)"
                     : api == KernelApi::kV6_19 ? "cpudl_clear(cp, cpu, online)"
                                                : "cpudl_set()/cpudl_clear() split";
  return fmt::format("the {} API form ({}), cpudl_find() returns {}", kernel_api_name(api), what,
                     find_return_name(ret));
}

namespace {

// What detection accepts, once: each form, the layout and entry points it is
// recognised by, and what it takes of the free-CPU helpers
// (cpudl_set_freecpu()/cpudl_clear_freecpu()). detect_cpudl_api() reads the
// `helpers` column, supported_cpudl_forms() prints the table.
enum class Helpers { kIgnored, kPairOrNone };
struct FormSpec {
  KernelApi api;
  const char* entry_points;
  Helpers helpers;
};
constexpr FormSpec kForms[] = {
    {KernelApi::kV3_14, "cpudl_set(cp, cpu, dl, is_valid) with struct cpudl's cpu_to_idx[]",
     Helpers::kIgnored},
    {KernelApi::kV4_8, "cpudl_set(cp, cpu, dl, is_valid) with elements[cpu].idx",
     Helpers::kPairOrNone},
    {KernelApi::kV4_9, "cpudl_set(cp, cpu, dl) and cpudl_clear(cp, cpu)", Helpers::kPairOrNone},
    {KernelApi::kV6_19, "cpudl_clear(cp, cpu, online)", Helpers::kIgnored},
};

const FormSpec& form_spec(KernelApi api) {
  for (const auto& f : kForms)
    if (f.api == api) return f;
  return kForms[2];
}

}  // namespace

std::optional<KernelApi> parse_kernel_api(std::string_view name) {
  for (const FormSpec& f : kForms)  // cpudl's forms only
    if (kernel_api_name(f.api) == name) return f.api;
  return std::nullopt;
}

std::string supported_cpudl_forms() {
  std::string out;
  for (const auto& f : kForms)
    out += fmt::format("{}{} ({}{})", out.empty() ? "" : ", ", kernel_api_name(f.api),
                       f.entry_points,
                       f.helpers == Helpers::kPairOrNone
                           ? ", with or without the free-CPU helpers"
                           : f.api == KernelApi::kV3_14 ? ", no free-CPU helpers" : "");
  return out + ", each with cpudl_find(cp, p, later_mask) returning 0/1 or a CPU or -1";
}

namespace {

// An expression without blanks around it and its outer parentheses, its
// inner blanks made one space.
std::string trim_expr(std::string e) {
  for (;;) {
    e = std::string(util::trim(e));
    if (e.empty()) return {};
    if (e.size() >= 2 && e.front() == '(' && e.back() == ')') {
      e = e.substr(1, e.size() - 2);
      continue;
    }
    std::string out;
    bool blank = false;
    for (char c : e) {
      const bool b = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
      if (!b && blank) out += ' ';
      blank = b;
      if (!b) out += c;
    }
    return out;
  }
}

bool is_literal_01(const std::string& e) {
  return e == "0" || e == "1" || e == "true" || e == "false";
}

// A value that is a CPU: -1, or a call of a function that returns one.
bool is_cpu_value(const std::string& v) {
  if (v == "-1" || v == "- 1") return true;
  for (std::string_view f : {"cpumask_any", "cpumask_first", "cpudl_maximum"})
    if (v.starts_with(f) && (v.size() == f.size() || !is_word_char(v[f.size()]))) return true;
  return false;
}

}  // namespace

std::optional<FindReturn> detect_find_return(const std::string& source, std::string* error,
                                             std::string* evidence) {
  const CSource& src = parse_c_source(source);
  const CFunction* find = src.definition("cpudl_find");
  if (!find) {
    *error = src.parsed ? "does not define cpudl_find()"
                        : fmt::format("cannot be read as C ({})", src.error);
    return std::nullopt;
  }
  bool literal_01 = false, cpu = false;
  std::vector<std::string> other, seen;
  for (const CReturn& r : find->returns) {
    const std::string e = trim_expr(r.expr);
    if (std::find(seen.begin(), seen.end(), e) == seen.end()) seen.push_back(e);
    if (is_literal_01(e)) {
      literal_01 = true;
    } else if (e == "-1" || e == "- 1") {
      cpu = true;
    } else if (is_identifier(e)) {
      // A variable: a CPU if the function gives it -1 or a CPU; 0/1 if every
      // value it is given is a literal 0/1.
      bool as_cpu = false, as_01 = false, as_other = false;
      for (const CAssignment& a : find->assignments) {
        if (a.variable != e) continue;
        const std::string v = trim_expr(a.value);
        if (is_cpu_value(v))
          as_cpu = true;
        else if (is_literal_01(v))
          as_01 = true;
        else
          as_other = true;
      }
      if (as_cpu)
        cpu = true;
      else if (as_01 && !as_other)
        literal_01 = true;
      else
        other.push_back(e);
    } else {
      other.push_back(e);
    }
  }
  std::string list;
  for (const auto& e : seen) list += (list.empty() ? "return " : ", return ") + e;
  if (evidence) *evidence = list;
  if (cpu && !literal_01 && other.empty()) return FindReturn::kCpu;
  if (literal_01 && !cpu && other.empty()) return FindReturn::kBool;
  *error = fmt::format(
      "cpudl_find() returns neither only 0/1 nor a CPU or -1 as kernel-check recognises them "
      "({}); supported: return 1/0 (v4.15+), or return a CPU or -1 through a variable set to "
      "-1 (best_cpu, v3.14..v4.14); name it with --find-returns 0/1|cpu",
      list.empty() ? "no return statement" : list);
  return std::nullopt;
}

namespace {

// Every entry point whose definition has a signature no supported form has,
// named at once ("" if none).
std::string unsupported_signatures(const CSource& src) {
  struct Signature {
    const char* name;
    std::vector<int> counts;
    const char* supported;
  };
  static const Signature kSignatures[] = {
      {"cpudl_find", {3}, "cpudl_find(cp, p, later_mask)"},
      {"cpudl_set", {3, 4}, "cpudl_set(cp, cpu, dl) or cpudl_set(cp, cpu, dl, is_valid)"},
      {"cpudl_clear", {2, 3}, "cpudl_clear(cp, cpu) or cpudl_clear(cp, cpu, online)"},
      {"cpudl_init", {1}, "cpudl_init(cp)"},
      {"cpudl_cleanup", {1}, "cpudl_cleanup(cp)"},
      {"cpudl_set_freecpu", {2}, "cpudl_set_freecpu(cp, cpu)"},
      {"cpudl_clear_freecpu", {2}, "cpudl_clear_freecpu(cp, cpu)"},
  };
  std::string out;
  for (const auto& sig : kSignatures) {
    const CFunction* f = src.definition(sig.name);
    if (!f || std::find(sig.counts.begin(), sig.counts.end(), f->params) != sig.counts.end())
      continue;
    out += fmt::format("{}`{}` has an unsupported signature: {}({}) ({} parameter{}); "
                       "kernel-check supports {}",
                       out.empty() ? "" : "; ", sig.name, sig.name, f->param_text, f->params,
                       f->params == 1 ? "" : "s", sig.supported);
  }
  return out;
}

}  // namespace

std::optional<KernelApi> detect_cpudl_api(const std::string& source, std::string* error) {
  const CSource& src = parse_c_source(source);
  if (!src.parsed) {
    *error = fmt::format("cannot be read as C ({})", src.error);
    return std::nullopt;
  }
  const int set = defined_params(src, "cpudl_set");
  const int clear = defined_params(src, "cpudl_clear");
  const int find = defined_params(src, "cpudl_find");
  const int init = defined_params(src, "cpudl_init");
  if (set < 0 && clear < 0 && find < 0 && init < 0) {
    *error = "defines none of the expected functions (cpudl_set, cpudl_clear, cpudl_find, "
             "cpudl_init): is it kernel/sched/cpudeadline.c?";
    return std::nullopt;
  }
  // Entry points whose signature no supported form has: named as such (all
  // of them), not as "conflicting types" from the compiler.
  if (std::string bad = unsupported_signatures(src); !bad.empty()) {
    *error = std::move(bad);
    return std::nullopt;
  }
  // v3.14..v3.18: the CPU -> slot map is an array of struct cpudl, and there
  // are no free-CPU helpers (the layout: a field of the file's struct cpudl,
  // or the name the file's code uses).
  const bool cpu_to_idx =
      src.identifiers.count("cpu_to_idx") != 0 || src.fields.count("cpudl.cpu_to_idx") != 0;
  if (cpu_to_idx && set != 4) {
    *error = fmt::format("has a cpu_to_idx[] array (the v3.14 layout) with {}, an API form "
                         "kernel-check does not support; supported: {}",
                         set < 0 ? "no cpudl_set()" : "cpudl_set(cp, cpu, dl)",
                         supported_cpudl_forms());
    return std::nullopt;
  }
  const KernelApi api = cpu_to_idx ? KernelApi::kV3_14
                        : set == 4 ? KernelApi::kV4_8
                        : clear == 3 ? KernelApi::kV6_19
                                     : KernelApi::kV4_9;
  std::vector<std::string> needed = {"cpudl_set", "cpudl_find", "cpudl_init", "cpudl_cleanup"};
  if (api != KernelApi::kV4_8 && api != KernelApi::kV3_14) needed.push_back("cpudl_clear");
  // The free-CPU helpers come as a pair, or not at all (v3.16 .. v3.18 and the
  // Android 3.18 trees that backported the v4.9 split without them: the glue
  // keeps free_cpus as rq_online_dl()/rq_offline_dl() did from v3.19).
  if (form_spec(api).helpers == Helpers::kPairOrNone &&
      (defined_params(src, "cpudl_set_freecpu") >= 0 ||
       defined_params(src, "cpudl_clear_freecpu") >= 0)) {
    needed.push_back("cpudl_set_freecpu");
    needed.push_back("cpudl_clear_freecpu");
  }
  std::string missing;
  for (const auto& f : needed)
    if (defined_params(src, f) < 0) missing += (missing.empty() ? "" : ", ") + f + "()";
  if (!missing.empty()) {
    *error = fmt::format("looks like the {} API form but does not define {}, which that form "
                         "needs; supported: {}",
                         kernel_api_name(api), missing, supported_cpudl_forms());
    return std::nullopt;
  }
  return api;
}

bool defines_function(const std::string& source, const std::string& function) {
  return defined_params(parse_c_source(source), function) >= 0;
}

std::string summarize_missing_api(const std::string& out) {
  // What clang says of API it does not know, in the order the kinds are
  // listed: (prefix, the text before the name in the item, how it is shown).
  struct Pattern {
    std::string_view prefix;
    std::string_view suffix;  // what must follow the closing quote
    const char* format;
  };
  static constexpr Pattern kPatterns[] = {
      {"fatal error: '", "' file not found", "<{}>"},
      {"implicit declaration of function '", "'", "{}()"},
      {"use of undeclared identifier '", "'", "{}"},
      {"unknown type name '", "'", "type {}"},
      {"incomplete type 'struct ", "'", "struct {}"},
      {"incomplete definition of type 'struct ", "'", "struct {}"},
  };
  std::vector<std::string> lacks;
  std::set<std::string> seen;
  auto add = [&](std::string item) {
    if (seen.insert(item).second) lacks.push_back(std::move(item));
  };
  for (std::size_t k = 0; k < std::size(kPatterns); ++k) {
    const Pattern& p = kPatterns[k];
    // Both spellings of "incomplete type" are one kind, in the order found.
    std::vector<std::pair<std::size_t, std::string>> found = quoted_after(out, p.prefix);
    if (k == 4) {
      auto more = quoted_after(out, kPatterns[5].prefix);
      found.insert(found.end(), more.begin(), more.end());
      std::sort(found.begin(), found.end());
    }
    if (k == 5) continue;
    for (const auto& [at, name] : found) {
      const std::size_t end = at + p.prefix.size() + name.size();
      if (out.compare(end, p.suffix.size(), p.suffix) != 0) continue;
      add(fmt::format(fmt::runtime(p.format), name));
    }
  }
  // "no member named 'F' in 'struct S'" -> struct S.F
  static constexpr std::string_view kMember = "no member named '";
  for (const auto& [at, field] : quoted_after(out, kMember)) {
    const std::size_t in = at + kMember.size() + field.size();
    static constexpr std::string_view kIn = "' in 'struct ";
    if (out.compare(in, kIn.size(), kIn) != 0) continue;
    const std::size_t b = in + kIn.size(), e = out.find('\'', b);
    if (e == std::string::npos || e == b) continue;
    add(fmt::format("struct {}.{}", out.substr(b, e - b), field));
  }
  if (lacks.empty()) return {};
  std::string list;
  for (std::size_t i = 0; i < lacks.size() && i < 8; ++i) list += (i ? ", " : "") + lacks[i];
  if (lacks.size() > 8) list += fmt::format(" and {} more", lacks.size() - 8);
  return fmt::format("the kernel shim (kshim/) lacks: {} (unless that is a typo in the file; "
                     "add it to kshim/include/kshim/kshim.h or kshim/sched/sched.h)",
                     list);
}

std::string summarize_link_errors(const std::string& output, const std::string& source,
                                  const std::string& file) {
  // ld's "undefined reference to `X'", lld's and dlopen()'s "undefined
  // symbol: X", "hidden symbol `X'": every name, in the order of the output.
  static constexpr std::string_view kPrefixes[] = {
      "undefined reference to `", "undefined reference to '", "undefined symbol: ",
      "hidden symbol `", "hidden symbol '"};
  std::vector<std::pair<std::size_t, std::string>> names;
  for (std::string_view prefix : kPrefixes)
    for (std::size_t at = output.find(prefix); at != std::string::npos;
         at = output.find(prefix, at + 1))
      if (std::string name = identifier_at(output, at + prefix.size()); !name.empty())
        names.emplace_back(at, std::move(name));
  std::sort(names.begin(), names.end());
  std::vector<std::string> shim, own;
  std::set<std::string> seen;
  const CSource* src = names.empty() ? nullptr : &parse_c_source(source);
  for (const auto& [at, name] : names) {
    if (!seen.insert(name).second) continue;
    // Declared static in the file (a prototype, maybe inline): its own code.
    (src->declares_static(name) ? own : shim).push_back(name + "()");
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < 8; ++i) out += (i ? ", " : "") + v[i];
    if (v.size() > 8) out += fmt::format(" and {} more", v.size() - 8);
    return out;
  };
  std::string out;
  if (!own.empty())
    out = fmt::format("{} declares {} static but never defines {} (an error in the file's own "
                      "code, not a limit of the shim)",
                      file, list(own), own.size() == 1 ? "it" : "them");
  if (!shim.empty())
    out += fmt::format("{}the kernel shim (kshim/) lacks: {} (it links against no kernel "
                       "definition of {}; add {} to kshim/runtime/runtime.c or "
                       "kshim/include/kshim/kshim.h)",
                       out.empty() ? "" : "; ", list(shim), shim.size() == 1 ? "it" : "them",
                       shim.size() == 1 ? "it" : "them");
  return out;
}

}  // namespace diffsched::tools
