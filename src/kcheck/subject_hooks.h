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
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kcheck/kernel_check.h"
#include "kernel/cpumask.h"

namespace diffsched::kcheck {

struct Session;

template <class S>
int classify_file(Session& s, const std::string& file, const std::string& text,
                  tools::CandidateSpec* spec);
template <class S>
std::string describe_form(const tools::CandidateSpec& spec);
template <class S>
std::filesystem::path staged_header(const tools::CandidateSpec& spec,
                                    const std::filesystem::path& shim);
template <class S>
std::vector<std::string> glue_args(const tools::CandidateSpec& spec,
                                   const std::filesystem::path& shim,
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

// A file an earlier kernel-check wrote in the given --work-dir (the header it
// staged beside a candidate in candidate/): its leftover, never an input.
bool staged_by_last_run(const Session& s, const std::filesystem::path& p);

}  // namespace diffsched::kcheck
