#include "tools/kernel_check.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "util/text.h"

namespace diffsched::tools {

namespace {

// Comments and string literals blanked, so that regexes see only code.
std::string strip_comments(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      const std::size_t end = out.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (std::size_t k = i; k < stop; ++k)
        if (out[k] != '\n') out[k] = ' ';
      i = stop - 1;
    } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    }
  }
  return out;
}

// Parameter count of the definition of `name` (-1 if not defined here).
// The definition of `name`: its parameter text (parentheses balanced, so a
// function-pointer parameter is one parameter) and where its body's '{' is.
struct Definition {
  std::string params;
  std::size_t body_open = 0;  // index of the '{'
};
std::optional<Definition> find_definition(const std::string& code, const std::string& name) {
  const std::regex call("\\b" + name + "\\s*\\(");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), call); it != std::sregex_iterator();
       ++it) {
    const std::size_t open = static_cast<std::size_t>(it->position(0) + it->length(0));
    int depth = 1;
    std::size_t i = open;
    for (; i < code.size() && depth > 0; ++i) {
      if (code[i] == '(') ++depth;
      if (code[i] == ')') --depth;
      if (code[i] == ';' || code[i] == '{' || code[i] == '}') break;
    }
    if (depth != 0) continue;
    const std::size_t after = code.find_first_not_of(" \t\n\r", i);
    if (after == std::string::npos || code[after] != '{') continue;
    return Definition{code.substr(open, i - 1 - open), after};
  }
  return std::nullopt;
}

int defined_params(const std::string& code, const std::string& name) {
  const auto def = find_definition(code, name);
  if (!def) return -1;
  const std::string& params = def->params;
  if (params.find_first_not_of(" \t\n") == std::string::npos) return 0;
  int count = 1, depth = 0;
  for (char c : params) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    count += c == ',' && depth == 0;
  }
  return count;
}


// The compiler's lines about the glue (kshim/runtime/glue_cpudl.c): what it
// expects of the file's form, not kernel API.
bool is_glue_line(const std::string& line) {
  return line.find("glue_cpudl.c:") != std::string::npos ||
         line.find("glue_pick.c:") != std::string::npos;
}

std::string select_lines(const std::string& out, bool glue) {
  std::istringstream in(out);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (is_glue_line(line) == glue) kept += line + "\n";
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
  const std::string code = strip_comments(source);
  std::vector<std::string> out;
  for (const char* name : kOverridable)
    if (defined_params(code, name) >= 0) out.emplace_back(name);
  return out;
}

std::string without_glue_errors(const std::string& out) { return select_lines(out, false); }

std::string summarize_form_errors(const std::string& out, const std::string& /*file*/) {
  // A kernel entry point whose definition conflicts with the form's declaration.
  static const std::regex kConflict("conflicting types for '(cpudl_[A-Za-z0-9_]*)'");
  std::smatch m;
  if (std::regex_search(out, m, kConflict))
    return fmt::format("`{}` has an unsupported signature (its definition conflicts with the "
                       "declaration of the API form kernel-check built it as); supported: {}",
                       m[1].str(), supported_cpudl_forms());
  const std::string glue = select_lines(out, true);
  if (glue.find("error:") == std::string::npos) return {};
  std::string expects = summarize_missing_api(glue);
  const std::string prefix = "the kernel shim (kshim/) lacks: ";
  if (expects.starts_with(prefix)) {
    expects = expects.substr(prefix.size());
    expects = expects.substr(0, expects.find(" (unless"));
  }
  return fmt::format("the file has an API form kernel-check does not support (not a limit "
                     "of the shim): the glue "
                     "(kshim/runtime/glue_cpudl.c) expects of the file or its cpudeadline.h{}{}, "
                     "which are the supported forms' own definitions, not kernel API; "
                     "supported: {}",
                     expects.empty() ? " what the compiler names above" : ": ", expects,
                     supported_cpudl_forms());
}

std::string_view kernel_api_name(KernelApi api) {
  switch (api) {
    case KernelApi::kV3_14: return "v3.14";
    case KernelApi::kV4_8: return "v4.8";
    case KernelApi::kV4_9: return "v4.9";
    case KernelApi::kV6_19: return "v6.19";
    case KernelApi::kPick: return "pick";
  }
  return "?";
}

std::optional<KernelApi> parse_kernel_api(std::string_view name) {
  for (KernelApi a : {KernelApi::kV3_14, KernelApi::kV4_8, KernelApi::kV4_9, KernelApi::kV6_19})
    if (kernel_api_name(a) == name) return a;
  return std::nullopt;
}

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

std::string supported_cpudl_forms() {
  return "v3.14 (cpudl_set(cp, cpu, dl, is_valid) with struct cpudl's cpu_to_idx[], no "
         "free-CPU helpers), v4.8 (cpudl_set(cp, cpu, dl, is_valid) with elements[cpu].idx and "
         "the free-CPU helpers), v4.9 (cpudl_set(cp, cpu, dl) and cpudl_clear(cp, cpu)), v6.19 "
         "(cpudl_clear(cp, cpu, online)), each with cpudl_find(cp, p, later_mask) returning "
         "0/1 or a CPU or -1";
}

namespace {

// The parameter list of the definition of `name`, or nullopt.
std::optional<std::string> defined_param_text(const std::string& code, const std::string& name) {
  const auto def = find_definition(code, name);
  if (!def) return std::nullopt;
  std::string p = def->params;
  std::replace_if(p.begin(), p.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
  p = std::regex_replace(p, std::regex(" +"), " ");
  const auto b = p.find_first_not_of(' '), e = p.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : p.substr(b, e - b + 1);
}

// The body (between the braces) of the definition of `name`, or "".
std::string function_body(const std::string& code, const std::string& name) {
  const auto def = find_definition(code, name);
  if (!def) return {};
  const std::size_t open = def->body_open + 1;
  int depth = 1;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{') ++depth;
    if (code[i] == '}' && --depth == 0) return code.substr(open, i - open);
  }
  return code.substr(open);
}

// An expression without blanks around it and its outer parentheses.
std::string trim_expr(std::string e) {
  for (;;) {
    e = std::string(util::trim(e));
    if (e.empty()) return {};
    if (e.size() >= 2 && e.front() == '(' && e.back() == ')') {
      e = e.substr(1, e.size() - 2);
      continue;
    }
    return std::regex_replace(e, std::regex("\\s+"), " ");
  }
}

}  // namespace

std::optional<FindReturn> detect_find_return(const std::string& source, std::string* error,
                                             std::string* evidence) {
  const std::string code = strip_comments(source);
  const std::string body = function_body(code, "cpudl_find");
  if (body.empty()) {
    *error = "does not define cpudl_find()";
    return std::nullopt;
  }
  static const std::regex kReturn("\\breturn\\b([^;]*);");
  bool literal_01 = false, cpu = false;
  std::vector<std::string> other, seen;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), kReturn);
       it != std::sregex_iterator(); ++it) {
    const std::string e = trim_expr((*it)[1].str());
    if (std::find(seen.begin(), seen.end(), e) == seen.end()) seen.push_back(e);
    if (e == "0" || e == "1" || e == "true" || e == "false") {
      literal_01 = true;
    } else if (e == "-1" || e == "- 1") {
      cpu = true;
    } else if (std::regex_match(e, std::regex("[A-Za-z_][A-Za-z0-9_]*"))) {
      // A variable: a CPU if the function gives it -1 or a CPU; 0/1 if every
      // value it is given is a literal 0/1.
      const std::regex assign("\\b" + e + "\\s*=(?!=)\\s*([^;,]*)");
      bool as_cpu = false, as_01 = false, as_other = false;
      for (auto a = std::sregex_iterator(body.begin(), body.end(), assign);
           a != std::sregex_iterator(); ++a) {
        const std::string v = trim_expr((*a)[1].str());
        if (v == "-1" || v == "- 1" ||
            std::regex_search(v, std::regex("^(?:cpumask_any|cpumask_first|cpudl_maximum)\\b")))
          as_cpu = true;
        else if (v == "0" || v == "1" || v == "true" || v == "false")
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

std::optional<KernelApi> detect_cpudl_api(const std::string& source, std::string* error) {
  const std::string code = strip_comments(source);
  const int set = defined_params(code, "cpudl_set");
  const int clear = defined_params(code, "cpudl_clear");
  const int find = defined_params(code, "cpudl_find");
  const int init = defined_params(code, "cpudl_init");
  if (set < 0 && clear < 0 && find < 0 && init < 0) {
    *error = "defines none of the expected functions (cpudl_set, cpudl_clear, cpudl_find, "
             "cpudl_init): is it kernel/sched/cpudeadline.c?";
    return std::nullopt;
  }
  // An entry point whose signature no supported form has: named as such, not
  // as "conflicting types" from the compiler.
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
  for (const auto& sig : kSignatures) {
    const int n = defined_params(code, sig.name);
    if (n < 0 || std::find(sig.counts.begin(), sig.counts.end(), n) != sig.counts.end()) continue;
    *error = fmt::format("`{}` has an unsupported signature: {}({}) ({} parameter{}); "
                         "kernel-check supports {}",
                         sig.name, sig.name, defined_param_text(code, sig.name).value_or(""), n,
                         n == 1 ? "" : "s", sig.supported);
    return std::nullopt;
  }
  // v3.14..v3.18: the CPU -> slot map is an array of struct cpudl, and there
  // are no free-CPU helpers.
  const bool cpu_to_idx = std::regex_search(code, std::regex("\\bcpu_to_idx\\b"));
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
  if ((api == KernelApi::kV4_8 || api == KernelApi::kV4_9) &&
      (defined_params(code, "cpudl_set_freecpu") >= 0 ||
       defined_params(code, "cpudl_clear_freecpu") >= 0)) {
    needed.push_back("cpudl_set_freecpu");
    needed.push_back("cpudl_clear_freecpu");
  }
  std::string missing;
  for (const auto& f : needed)
    if (defined_params(code, f) < 0) missing += (missing.empty() ? "" : ", ") + f + "()";
  if (!missing.empty()) {
    *error = fmt::format("looks like the {} API form but does not define {}, which that form "
                         "needs; supported: {}",
                         kernel_api_name(api), missing, supported_cpudl_forms());
    return std::nullopt;
  }
  return api;
}

bool defines_function(const std::string& source, const std::string& function) {
  return defined_params(strip_comments(source), function) >= 0;
}

std::string summarize_missing_api(const std::string& out) {
  struct Pattern {
    const char* regex;
    const char* format;
  };
  static const Pattern kPatterns[] = {
      {"fatal error: '([^']+)' file not found", "<{}>"},
      {"implicit declaration of function '([^']+)'", "{}()"},
      {"use of undeclared identifier '([^']+)'", "{}"},
      {"unknown type name '([^']+)'", "type {}"},
      {"incomplete (?:definition of )?type '(struct [^']+)'", "{}"},
      {"no member named '([^']+)' in '(struct [^']+)'", "{1}.{0}"},
  };
  std::vector<std::string> lacks;
  std::set<std::string> seen;
  for (const auto& p : kPatterns) {
    const std::regex re(p.regex);
    for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator();
         ++it) {
      std::string item = (*it).size() > 2 ? fmt::format(fmt::runtime(p.format), (*it)[1].str(),
                                                        (*it)[2].str())
                                          : fmt::format(fmt::runtime(p.format), (*it)[1].str());
      if (seen.insert(item).second) lacks.push_back(item);
    }
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
  static const std::regex kUndefined(
      "(?:undefined reference to [`']|undefined symbol: |hidden symbol [`'])([A-Za-z_][A-Za-z0-9_]*)");
  std::vector<std::string> shim, own;
  std::set<std::string> seen;
  const std::string code = strip_comments(source);
  for (auto it = std::sregex_iterator(output.begin(), output.end(), kUndefined);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    if (!seen.insert(name).second) continue;
    // Declared static in the file (a prototype, maybe inline): its own code.
    const std::regex own_decl("\\bstatic\\b[^;{}()]*\\b" + name + "\\s*\\(");
    (std::regex_search(code, own_decl) ? own : shim).push_back(name + "()");
  }
  auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 8) out += fmt::format(" and {} more", names.size() - 8);
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
