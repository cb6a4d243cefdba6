// pick's part of kernel-check (kcheck/subject_hooks.h): a kernel-style file
// that defines the destination pick (--function, select_dst_cpu(dst_grpmask,
// cpus, allowed) by default), built with kshim/runtime/glue_pick.c.
#include <fmt/format.h>

#include "kcheck/c_source.h"
#include "kcheck/session.h"
#include "kcheck/subject_hooks.h"

namespace diffsched::kcheck {

template <>
std::string_view glue_file<pick::Subject>() {
  return "glue_pick.c";
}

// The glue calls the one function: errors there are about its signature.
template <>
std::string form_errors<pick::Subject>(const std::string& output, const std::string&) {
  return tools::summarize_glue_errors(
      output, {glue_file<pick::Subject>(), "",
               "a function (--function) of the destination pick's signature, "
               "int F(const struct cpumask *dst_grpmask, const struct cpumask *cpus, "
               "const struct cpumask *allowed)"});
}

template <>
int classify_file<pick::Subject>(Session& s, const std::string& file, const std::string& text,
                                 tools::CandidateSpec* spec) {
  spec->api = tools::KernelApi::kPICK;
  spec->function = s.o.function;
  if (const tools::CSource& src = tools::parse_c_source(text); !src.parsed)
    return error("build", fmt::format("{} cannot be read as C ({})", file, src.error));
  if (!tools::defines_function(text, s.o.function))
    return error("build", fmt::format("{} defines no function {}(dst_grpmask, cpus, allowed) "
                                      "(name another with --function)", file, s.o.function));
  return kExitOk;
}

template <>
std::string describe_form<pick::Subject>(const tools::CandidateSpec&) {
  return "";
}

// A function cut from fair.c includes "sched.h", and the kernel's (like the
// shim's) includes "cpudeadline.h": the v4.9 form's.
template <>
fs::path staged_header<pick::Subject>(const tools::CandidateSpec&, const tools::ShimTree& shim) {
  return shim.cpudeadline_header(tools::kernel_api_name(tools::KernelApi::kV4_9));
}

template <>
std::vector<std::string> glue_args<pick::Subject>(const tools::CandidateSpec& spec,
                                                  const tools::ShimTree& shim,
                                                  const fs::path& staged) {
  return {"-include", shim.shim_header().string(),
          fmt::format("-DKCHECK_FUNCTION={}", spec.function), staged.string(),
          shim.runtime(glue_file<pick::Subject>()).string()};
}

// Kernels before v6.6 lack cpumask_first_and_and(): kbuild asks the headers
// it builds against (kc_pick.h has the stand-in). The function is renamed in
// the module, where the kernel may define one of that name.
template <>
ModuleGlue module_glue<pick::Subject>(const tools::CandidateSpec& spec, const std::string& source) {
  const std::string need = " $(KC_FAA)";
  return {.glue = std::string(glue_file<pick::Subject>()),
          .glue_flags = fmt::format("-D__NO_FORTIFY -DKCHECK_FUNCTION={} {}{}", spec.function,
                                    source, need),
          .cand_flags = fmt::format("-include $(src)/kc_pick.h{}", need),
          .rename = fmt::format(" -D{}=kc_{}", spec.function, spec.function)};
}

template <>
std::string driver_line<pick::Subject>(const pick::Op& op) {
  const auto& o = std::get<pick::Pick>(op);
  return fmt::format("p {} {} {}", driver_cpulist(o.dst), driver_cpulist(o.cpus),
                     driver_cpulist(o.allowed));
}

template <>
std::string in_kernel_refusal<pick::Subject>(const tools::CandidateSpec&) {
  return "";
}

template <>
std::string in_kernel_form<pick::Subject>(const tools::CandidateSpec& spec) {
  return "function " + spec.function;
}

template <>
std::string reproducer_comments<pick::Subject>(const tools::CandidateSpec& spec) {
  return fmt::format("# function: {}\n", spec.function);
}

template <>
bool export_spec<pick::Subject>(const ExportRequest& r, const std::string& source,
                                tools::CandidateSpec* spec, std::string* error) {
  spec->api = tools::KernelApi::kPICK;
  spec->function = !r.function.empty() ? r.function : reproducer_comment(r.reproducer, "function");
  if (spec->function.empty()) spec->function = "select_dst_cpu";
  if (!tools::defines_function(source, spec->function)) {
    *error = fmt::format("{} defines no function {}() (name another with --function)",
                         spec->file.string(), spec->function);
    return false;
  }
  return true;
}

// The function is always the one named by --function: no option forces a form.
template <>
bool form_forced<pick::Subject>(const tools::KernelCheckOptions&) {
  return false;
}

template <>
std::vector<std::string> replay_args<pick::Subject>(const tools::CandidateSpec& spec) {
  return {"--function", spec.function};
}

}  // namespace diffsched::kcheck
