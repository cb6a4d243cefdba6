// A subject's part of kernel-check, in its package (src/subjects/<name>/
// kcheck_check.cpp, built into diffsched_kcheck by name): each subject of
// ToolSubjects defines all of these, and a missing one is a link error. The
// run itself (prepare.cpp, build.cpp) dispatches on the descriptor
// (with_tool_subject) and names no subject.
//
//   classify_file<S>(s, file, text, &spec)  the file's form: spec->api (and the
//                      subject's own fields: cpudl's find_return and header,
//                      pick's function); kExitOk or the reason printed (error())
//   describe_form<S>(spec)  what `built FILE (API ...)` adds: ", cpudl_find() returns 0/1"
//   staged_header<S>(spec, shim)  the header staged beside the file as the
//                      kernel's "cpudeadline.h" (pick's too: a function cut from
//                      fair.c includes "sched.h", which includes it)
//   glue_args<S>(spec, shim, staged)  the compile's subject part: the forced
//                      include, its -D flags, the staged file and its glue
//                      (kshim/runtime/glue_<name>.c)
//   module_glue<S>(spec, source)  --in-kernel's module (in_kernel_module.cpp):
//                      its glue and the kbuild flags of the glue and of the
//                      candidate; `source` is the -DKCHECK_SOURCE= flag
//   driver_line<S>(op)  one op as the module driver's input line
//                      (kshim/kmod/kc_driver.h): cpudl "F 50 0-3 1 512 1024" (the
//                      op's letter in kshim/abi/kc_ops.h, then its fields), pick
//                      "p DST CPUS ALLOWED"; masks need the program's nr_cpu_ids
//                      (kernel::NrCpuIdsScope)
//   in_kernel_refusal<S>(spec)  "" or why --in-kernel cannot run the file's
//                      form (cpudl's v3.14)
//   in_kernel_form<S>(spec)  the form in --in-kernel's first line: "the v4.9
//                      API form (...), cpudl_find() returns 0/1", "function F"
//   reproducer_comments<S>(spec)  what a reproducer says of the file after its
//                      "# candidate:" line (pick: "# function: F\n")
//   export_spec<S>(request, source, &spec, &error)  export --kmod: the file's
//                      form from its text and the reproducer's comments
//   form_forced<S>(o)  whether an option fixed the file's form (cpudl's --api
//                      other than auto): the build then tries no other form
//   replay_args<S>(spec)  the file's part of a replay command line, after
//                      --candidate FILE (pick: --function F)
//   glue_file<S>()     its glue, kshim/runtime/'s file: "glue_cpudl.c"
//   form_errors<S>(output, file)  one line when a failed compile's errors are
//                      about the file's form (what the glue expects), not kernel
//                      API; "" otherwise
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kcheck/kernel_check.h"
#include "kcheck/options.h"
#include "kcheck/work.h"
#include "kernel/cpumask.h"

namespace diffsched::kcheck {

struct Session;

template <class S>
int classify_file(Session& s, const std::string& file, const std::string& text,
                  tools::CandidateSpec* spec);
template <class S>
std::string describe_form(const tools::CandidateSpec& spec);
template <class S>
std::filesystem::path staged_header(const tools::CandidateSpec& spec, const tools::ShimTree& shim);
template <class S>
std::vector<std::string> glue_args(const tools::CandidateSpec& spec, const tools::ShimTree& shim,
                                   const std::filesystem::path& staged);

template <class S>
std::string driver_line(const typename S::Op& op);
// A mask in a driver line: its cpulist, "-" for none.
std::string driver_cpulist(const kernel::Cpumask& m);

// The --in-kernel module's subject part.
struct ModuleGlue {
  std::string glue;        // kshim/runtime/'s file, staged as glue.c
  std::string glue_flags;  // CFLAGS_glue.o
  std::string cand_flags;  // CFLAGS_candidate.o
  std::string rename;      // added to ccflags-y (" -Dname=kc_name": a global that clashes)
};
template <class S>
ModuleGlue module_glue(const tools::CandidateSpec& spec, const std::string& source);

// --in-kernel's report and reproducer.
template <class S>
std::string in_kernel_refusal(const tools::CandidateSpec& spec);
template <class S>
std::string in_kernel_form(const tools::CandidateSpec& spec);
template <class S>
std::string reproducer_comments(const tools::CandidateSpec& spec);
// The value of a "# key: value" comment line of a reproducer, or "".
std::string reproducer_comment(const std::string& text, const std::string& key);

// export --kmod: a reproducer (its text) and export's own options.
struct ExportRequest {
  std::string reproducer;
  std::string function;  // --function, or ""
  std::string api;       // --api: "auto" or a cpudl form's name
};
// Fills spec's form (spec->file is set); false with the one-line error.
template <class S>
bool export_spec(const ExportRequest& r, const std::string& source, tools::CandidateSpec* spec,
                 std::string* error);

template <class S>
bool form_forced(const tools::KernelCheckOptions& o);
template <class S>
std::vector<std::string> replay_args(const tools::CandidateSpec& spec);
template <class S>
std::string_view glue_file();
template <class S>
std::string form_errors(const std::string& compiler_output, const std::string& file);

// A file an earlier kernel-check wrote in the given --work-dir (the header it
// staged beside a candidate in candidate/): its leftover, never an input.
bool staged_by_last_run(const Session& s, const std::filesystem::path& p);

}  // namespace diffsched::kcheck
