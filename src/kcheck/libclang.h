// libclang (clang-14's C API) for the readers of kernel C: kernel-check's
// form detection (kcheck/c_source.cpp) and diffsched fn's extraction
// (fn/extract.cpp). The library is loaded with dlopen, and only in a child
// process that parses:
//
//   ChildOutput out = run_in_child([&] { return serialize(parse(text)); }, 120);
//   if (!out.error.empty()) fail(out.error);        // "libclang crashed ...", one line
//   // in the child:  CXIndex index = DIFFSCHED_LC(clang_createIndex)(0, 0);
//
// Why a child: linking libclang would map libLLVM (over 100 MB of address
// space) into every diffsched process, which the bounded-memory modes cannot
// afford; and clang's parser and Sema recurse on some shapes (a chain of
// 10^5 `+ 1` overflows their stack, which libclang's crash recovery does not
// catch), so the parse gets its own stack, its own memory and a deadline.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <clang-c/Index.h>

namespace diffsched::tools {

// The dlopen handle of DIFFSCHED_LIBCLANG_PATH (the library CMake found), or
// nullptr; libclang_load_error() then says why, in one line naming the
// Debian package.
void* libclang();
std::string libclang_load_error();

// libclang's symbol `name`. Only the parsing child calls it: a missing symbol
// ends the child (status 4), which run_in_child reports.
void* libclang_symbol(const char* name);

// DIFFSCHED_LC(clang_f) is libclang's clang_f, resolved once per call site.
#define DIFFSCHED_LC(f)                                                                \
  ([]() {                                                                              \
    static const auto lc_fn_ = reinterpret_cast<decltype(&::f)>(                            \
        ::diffsched::tools::libclang_symbol(#f));                                      \
    return lc_fn_;                                                                     \
  }())

// The text of a CXString, which is disposed of.
std::string take_string(CXString s);

// The direct children of `c`, in order (one level: callers walk with their
// own explicit stack, so no input nests the walk deeper than the heap).
std::vector<CXCursor> cursor_children(CXCursor c);

// What a child sent back: its bytes, or (error not empty) one line saying
// why it did not finish (a signal, the deadline, a failed fork).
struct ChildOutput {
  std::string data;
  std::string error;
};

// Runs `work` in a forked child (stdin /dev/null, killed by SIGALRM after
// `seconds`) and returns what it returned. The child never returns into the
// caller's code. `what` names the work in errors ("parsing it").
ChildOutput run_in_child(const std::function<std::string()>& work, unsigned seconds,
                         const char* what = "parsing it");

// The shim's static inline helpers that a kernel file may define itself:
// kshim.h and kshim/sched/sched.h guard each with #ifndef KSHIM_OWN_<name>.
inline constexpr const char* kShimOverridable[] = {
    "dl_time_before", "task_cpu", "capacity_orig_of", "sched_asym_cpucap_active",
    "dl_task_fits_capacity",
    // kshim/sched_fair.h: helpers fair.c defined itself before they moved to sched.h
    "cpu_of", "task_of", "task_cfs_rq", "cfs_rq_of", "group_cfs_rq", "task_on_cpu",
    "task_running", "update_avg"};

// The arguments that parse a kernel C file as kernel-check builds it
// (docs/kernel-check.md): C (gnu11), -nostdinc, the shim's include
// directories (`-iquote kshim/sched -I kshim/include -I kshim/abi`),
// `force_include` (a path) force-included, -DKSHIM_OWN_<name> for each of
// `own`; warnings off, no error limit, brackets to depth 1024.
std::vector<std::string> shim_parse_args(const std::string& shim_dir,
                                         const std::string& force_include,
                                         const std::vector<std::string>& own);

// The first #include of `text` whose target exists but is not a regular file
// or directory (a FIFO, a device; reading it could block for ever), or "".
// Relative names are tried in `dirs` (where the parse looks for them). Linear:
// one pass over the lines.
std::string special_include(const std::string& text, const std::vector<std::string>& dirs);

}  // namespace diffsched::tools
