#include "kcheck/libclang.h"
#include "kcheck/work.h"
#include "engine/exit_status.h"
#include "tools/process.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#ifndef DIFFSCHED_LIBCLANG_PATH
#error "DIFFSCHED_LIBCLANG_PATH must be defined by the build"
#endif

namespace diffsched::tools {

void* libclang() {
  static void* const handle = ::dlopen(DIFFSCHED_LIBCLANG_PATH, RTLD_NOW | RTLD_LOCAL);
  return handle;
}

std::string libclang_load_error() {
  if (libclang()) return {};
  const char* why = ::dlerror();
  return fmt::format("cannot load libclang {}: {} (Debian package libclang1-14)",
                     DIFFSCHED_LIBCLANG_PATH, why ? why : "unknown error");
}

void* libclang_symbol(const char* name) {
  void* p = libclang() ? ::dlsym(libclang(), name) : nullptr;
  if (!p) ::_exit(4);  // only the parsing child calls into libclang
  return p;
}

std::string take_string(CXString s) {
  const char* c = DIFFSCHED_LC(clang_getCString)(s);
  std::string out = c ? c : "";
  DIFFSCHED_LC(clang_disposeString)(s);
  return out;
}

std::vector<CXCursor> cursor_children(CXCursor c) {
  std::vector<CXCursor> out;
  DIFFSCHED_LC(clang_visitChildren)(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

ChildOutput run_in_child(const std::function<std::string()>& work, unsigned seconds,
                         const char* what) {
  tools::CallResult r = tools::call_in_child(work, seconds);
  if (!r.error.empty()) return {{}, std::move(r.error)};
  if (r.status == tools::kExitTimedOut)
    return {{}, fmt::format("libclang did not finish {} in {} s", what, seconds)};
  // The child exits 0, or 3 (a failed write) or 4 (out of memory): any other
  // status above 128 is a signal's.
  if (r.status > kExitSignalBase)
    return {{}, fmt::format("libclang stopped with signal {} while {}", r.status - kExitSignalBase,
                            what)};
  if (r.status != 0) return {{}, "libclang's parse did not complete"};
  return {std::move(r.data), {}};
}

std::vector<std::string> shim_parse_args(const std::string& shim_dir,
                                         const std::string& force_include,
                                         const std::vector<std::string>& own) {
  std::vector<std::string> args = {"-x", "c", "-std=gnu11", "-nostdinc", "-w", "-ferror-limit=0",
                                   "-fbracket-depth=1024",
                                   "-iquote", ShimTree{shim_dir}.sched().string(),
                                   "-I", ShimTree{shim_dir}.include().string(),
                                   "-I", ShimTree{shim_dir}.abi().string(),
                                   "-include", force_include};
  for (const auto& name : own) args.push_back("-DKSHIM_OWN_" + name);
  return args;
}

// An #include whose target exists but is not a regular file (a FIFO, a
// device): reading it could block for ever, so the text is not parsed.
// Linear: one pass over the lines. Relative names are tried where the parse
// looks for them (the shim's directories).
std::string special_include(const std::string& text, const std::vector<std::string>& dirs) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    const std::size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || line[hash] != '#') continue;
    const std::size_t inc = line.find("include", hash);
    if (inc == std::string_view::npos) continue;
    const std::size_t open = line.find_first_of("\"<", inc);
    if (open == std::string_view::npos) continue;
    const std::size_t close = line.find(line[open] == '<' ? '>' : '"', open + 1);
    if (close == std::string_view::npos) continue;
    const std::string name(line.substr(open + 1, close - open - 1));
    std::vector<std::string> tries;
    if (!name.empty() && name[0] == '/') tries.push_back(name);
    else for (const auto& d : dirs) tries.push_back(d + "/" + name);
    for (const auto& t : tries) {
      struct stat st {};
      if (::stat(t.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return t;
    }
  }
  return {};
}

}  // namespace diffsched::tools
