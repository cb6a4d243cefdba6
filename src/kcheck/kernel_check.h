// kernel-check: building a user's kernel C file through the kshim (kshim/)
// and running the kcheck harness on it. The CLI (`diffsched kernel-check`,
// src/cli/cmd_kernel_check.cpp) is a thin caller.
//
//   auto api = detect_cpudl_api(text, &error);            // v4.8 | v4.9 | v6.19
//   BuildResult b = build_candidate(spec, work_dir);       // clang, ASan+UBSan, sancov
//   if (!b.ok) print(b.compiler_output, b.summary);       // exit 2
//
// A candidate is staged in its own directory (the file, its neighbouring or
// the shim's cpudeadline.h) so that the user's kernel headers are never seen,
// compiled with the shim's include directories and -nostdinc, and linked into
// a shared object with the C glue that exports its table (kshim/abi).
#pragma once

#include "subject_tools.h"

#include <kcheck_abi.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::tools {

namespace fs = std::filesystem;

// A candidate's API form: the rows of kshim/abi/kcheck_abi.h's KCHECK_APIS,
// each with its KCHECK_API_<ID> value (what the glue's -DKCHECK_API= takes).
enum class KernelApi : int {
#define DIFFSCHED_KERNEL_API(id, name) k##id = KCHECK_API_##id,
  KCHECK_APIS(DIFFSCHED_KERNEL_API)
#undef DIFFSCHED_KERNEL_API
};

std::string_view kernel_api_name(KernelApi api);  // the list's: "v3.14", "v4.8", ..., "pick"
// One of cpudl's forms by its name (--api): v3.14, v4.8, v4.9, v6.19.
std::optional<KernelApi> parse_kernel_api(std::string_view name);

// What cpudl_find() returns: 1 or 0 (v4.15+), or a CPU or -1 ("best_cpu",
// v3.14..v4.14, and backports of either). Detected from the text of
// cpudl_find(), never from a version number.
enum class FindReturn { kBool, kCpu };
std::string_view find_return_name(FindReturn r);  // "0/1", "a CPU or -1"

// The convention of the cpudl_find() defined in `source`, from its return
// statements: all literal 0/1 -> kBool; `return -1` or a variable that the
// function sets to -1 (or to cpumask_any()/cpudl_maximum()) -> kCpu. nullopt
// with a one-line reason when neither fits. `evidence` (optional) gets the
// return statements it went by.
std::optional<FindReturn> detect_find_return(const std::string& source, std::string* error,
                                             std::string* evidence = nullptr);

// "the v4.9 API form (cpudl_set/cpudl_clear split), cpudl_find() returns a CPU or -1".
std::string describe_cpudl_form(KernelApi api, FindReturn ret);
// The forms kernel-check supports, for the "not supported" messages.
std::string supported_cpudl_forms();

// The cpudeadline.c API form of `source`, from the functions it defines
// (comments stripped): cpudl_set with 4 parameters -> v4.8, cpudl_clear with
// 3 -> v6.19, else v4.9. nullopt with a one-line reason when it defines none
// of the expected functions or lacks one its form needs.
std::optional<KernelApi> detect_cpudl_api(const std::string& source, std::string* error);
// Whether `source` defines `function` (a pick candidate).
bool defines_function(const std::string& source, const std::string& function);

struct CandidateSpec {
  // The subject whose file it is: its package builds it (kcheck/subject_hooks.h).
  const SubjectTool* tool = &kCpudlTool;
  fs::path file;
  KernelApi api = KernelApi::kV4_9;
  FindReturn find_return = FindReturn::kBool;  // cpudl
  std::string function = "select_dst_cpu";  // pick
  fs::path header;                           // cpudeadline.h to stage; empty: the shim's
  std::string role = "candidate";            // staging subdirectory
  std::vector<std::string> extra_flags;      // added to the compile (tests: a planted shim primitive)
  std::string kernel_version;  // the shim's contracts: this kernel's ("6.14"); "": v6.19
  // The compile runs in the sandbox (tools::sandboxed: only its staging
  // directory writable, stdin /dev/null) and is killed after this long (an
  // #include of a FIFO must not hang it).
  double build_seconds = 120;
};

struct BuildResult {
  bool ok = false;
  fs::path shared_object;
  std::string command;          // the compile command, for the log
  std::string compiler_output;  // as the compiler printed it
  std::string summary;          // one line: what the shim lacks, if that is the cause
  double seconds = 0;
  bool cached = false;  // the build cache's copy of the same build (kcheck/build_cache.h)
};

// Stages `spec` under work_dir/<role>/ and builds work_dir/<role>/<role>.so
// with clang-14 (-fsanitize=address,undefined,fuzzer-no-link).
BuildResult build_candidate(const CandidateSpec& spec, const fs::path& work_dir);

// One line naming the kernel API the shim lacks, from clang's errors
// ("the kernel shim lacks: rb_first_cached(), <linux/rbtree.h>"), or "".
std::string summarize_missing_api(const std::string& compiler_output);

// The shim helpers (dl_time_before, task_cpu, ...) that `source` defines
// itself: they are built with -DKSHIM_OWN_<name>, so the file's own
// definition wins over the shim's.
std::vector<std::string> shim_helpers_defined_by(const std::string& source);

// The compiler's output without its lines about the subject's glue `glue`
// (kshim/runtime/'s file: "glue_cpudl.c").
std::string without_glue_errors(const std::string& compiler_output, std::string_view glue);
// A subject's glue and what it expects of a file (its form_errors hook).
struct GlueForms {
  std::string_view glue;        // "glue_cpudl.c"
  std::string_view expects_of;  // after "expects of the file": " or its cpudeadline.h"
  std::string supported;        // the supported forms, after "supported: "
};
// One line when the compile's errors are in the glue, which expects the
// supported forms' own definitions ("the file has an API form kernel-check
// does not support: ... expects ... cpudl_set_freecpu() ..."); "" otherwise.
std::string summarize_glue_errors(const std::string& compiler_output, const GlueForms& glue);
// cpudl's form errors (its form_errors hook): a cpudl_* entry point with
// "conflicting types" ("`cpudl_find` has an unsupported signature ..."), else
// summarize_glue_errors() with its glue `glue` (glue_cpudl.c); "" otherwise.
std::string summarize_form_errors(const std::string& compiler_output, const std::string& file,
                                  std::string_view glue);

// One line for link errors (ld's "undefined reference to `X'", lld's and
// dlopen()'s "undefined symbol: X") in `output`, or "" if there are none.
// A symbol the candidate declares `static` but never defines is the
// candidate's own error ("FILE declares X() static but never defines it");
// any other is kernel API the shim lacks ("the kernel shim (kshim/) lacks:
// X() (...)"), as the kernel defines what a kernel file declares and uses.
std::string summarize_link_errors(const std::string& output, const std::string& source,
                                  const std::string& file);

}  // namespace diffsched::tools
