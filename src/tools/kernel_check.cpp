#include "tools/kernel_check.h"

#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "tools/process.h"

namespace diffsched::tools {

namespace {

using tools::read_text;

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
int defined_params(const std::string& code, const std::string& name) {
  const std::regex def("\\b" + name + "\\s*\\(([^;{)]*)\\)\\s*\\{");
  std::smatch m;
  if (!std::regex_search(code, m, def)) return -1;
  const std::string params = m[1].str();
  if (params.find_first_not_of(" \t\n") == std::string::npos) return 0;
  return static_cast<int>(std::count(params.begin(), params.end(), ',')) + 1;
}

}  // namespace

std::string_view kernel_api_name(KernelApi api) {
  switch (api) {
    case KernelApi::kV4_8: return "v4.8";
    case KernelApi::kV4_9: return "v4.9";
    case KernelApi::kV6_19: return "v6.19";
    case KernelApi::kPick: return "pick";
  }
  return "?";
}

std::optional<KernelApi> parse_kernel_api(std::string_view name) {
  for (KernelApi a : {KernelApi::kV4_8, KernelApi::kV4_9, KernelApi::kV6_19})
    if (kernel_api_name(a) == name) return a;
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
  const KernelApi api = set == 4 ? KernelApi::kV4_8 : clear == 3 ? KernelApi::kV6_19 : KernelApi::kV4_9;
  std::vector<std::string> needed = {"cpudl_set", "cpudl_find", "cpudl_init", "cpudl_cleanup"};
  if (api != KernelApi::kV4_8) needed.push_back("cpudl_clear");
  if (api != KernelApi::kV6_19) {
    needed.push_back("cpudl_set_freecpu");
    needed.push_back("cpudl_clear_freecpu");
  }
  std::string missing;
  for (const auto& f : needed)
    if (defined_params(code, f) < 0) missing += (missing.empty() ? "" : ", ") + f + "()";
  if (!missing.empty()) {
    *error = fmt::format("looks like the {} API but does not define {}", kernel_api_name(api),
                         missing);
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

BuildResult build_candidate(const CandidateSpec& spec, const fs::path& work_dir) {
  BuildResult r;
  const auto start = std::chrono::steady_clock::now();
  const fs::path src = source_dir();
  const fs::path shim = src / "kshim";
  const fs::path stage = work_dir / spec.role;
  std::error_code ec;
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  if (ec) {
    r.summary = fmt::format("cannot create {}: {}", stage.string(), ec.message());
    return r;
  }
  const fs::path file = fs::absolute(spec.file);
  const fs::path staged = stage / file.filename();
  fs::copy_file(file, staged, fs::copy_options::overwrite_existing, ec);
  // A pick candidate gets one too: a function cut from fair.c includes
  // "sched.h", and the kernel's (like the shim's) includes "cpudeadline.h".
  const KernelApi header_api = spec.api == KernelApi::kPick ? KernelApi::kV4_9 : spec.api;
  const fs::path header =
      spec.header.empty()
          ? shim / "cpudeadline" / fmt::format("cpudeadline-{}.h", kernel_api_name(header_api))
          : fs::absolute(spec.header);
  fs::copy_file(header, stage / "cpudeadline.h", fs::copy_options::overwrite_existing, ec);
  if (ec) {
    r.summary = fmt::format("cannot stage {}: {}", file.string(), ec.message());
    return r;
  }
  fs::path clang = find_program("clang-14");
  if (clang.empty()) clang = find_program("clang");
  if (clang.empty()) {
    r.summary = "clang-14 not found on PATH (run scripts/install-deps.sh)";
    return r;
  }
  r.shared_object = stage / (spec.role + ".so");
  std::vector<std::string> argv = {
      clang.string(), "-std=gnu11", "-g", "-O1", "-fPIC", "-shared", "-nostdinc",
      "-fsanitize=address,undefined,fuzzer-no-link", "-fno-sanitize-recover=all",
      "-fno-omit-frame-pointer", "-fno-strict-aliasing", "-fno-common",
      "-Wall", "-Wno-unused-function", "-Werror=implicit-function-declaration",
      "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
      "-Werror=return-type", "-fdiagnostics-color=never",
      // Messages and WARN_ON() records name the user's file, not the stage.
      fmt::format("-ffile-prefix-map={}/={}/", stage.string(), file.parent_path().string()),
      "-iquote", stage.string(), "-iquote", (shim / "sched").string(),
      "-I", (shim / "include").string(), "-I", (shim / "abi").string(),
      fmt::format("-DKCHECK_SOURCE=\"{}\"", file.string())};
  if (spec.api == KernelApi::kPick) {
    argv.insert(argv.end(), {"-include", (shim / "include" / "kshim" / "kshim.h").string(),
                             fmt::format("-DKCHECK_FUNCTION={}", spec.function),
                             staged.string(), (shim / "runtime" / "glue_pick.c").string()});
  } else {
    const int api = spec.api == KernelApi::kV4_8 ? 48 : spec.api == KernelApi::kV4_9 ? 49 : 619;
    argv.insert(argv.end(), {"-include", (shim / "sched" / "sched.h").string(),
                             fmt::format("-DKCHECK_API={}", api), staged.string(),
                             (shim / "runtime" / "glue_cpudl.c").string()});
  }
  argv.insert(argv.end(), {(shim / "runtime" / "runtime.c").string(), "-Wl,-Bsymbolic", "-o",
                           r.shared_object.string()});
  for (const auto& a : argv) r.command += (r.command.empty() ? "" : " ") + a;
  const fs::path log = stage / "compile.log";
  const int rc = run(argv, RunOptions{.log = log});
  r.compiler_output = read_text(log);
  // Messages name the user's files, not the staged copies.
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = r.compiler_output.find(from, at)) != std::string::npos;
         at += to.size())
      r.compiler_output.replace(at, from.size(), to);
  };
  replace_all(staged.string(), file.string());
  replace_all((stage / "cpudeadline.h").string(), header.string());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rc != 0) {
    r.summary = summarize_missing_api(r.compiler_output);
    if (r.summary.empty())
      r.summary = summarize_link_errors(r.compiler_output, read_text(file), file.string());
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace diffsched::tools
