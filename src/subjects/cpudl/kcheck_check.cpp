// cpudl's part of kernel-check (kcheck/subject_hooks.h): a cpudeadline.c of
// any era, its API form and cpudl_find()'s return convention read from the
// file (kcheck/c_source.h), built with the glue of its form
// (kshim/runtime/glue_cpudl.c, the v4.9 .. v6.18 meaning).
#include <fmt/format.h>

#include <string_view>
#include <type_traits>
#include <variant>

#include "engine/op.h"
#include "kcheck/c_source.h"
#include "kcheck/session.h"
#include "kcheck/subject_hooks.h"
#include "kcheck/work.h"
#include "util/text.h"

// The driver's op table (C macros only), shared with the driver (kshim/kmod/kc_subject_cpudl.c).
#include <kc_ops.h>

namespace diffsched::kcheck {

using tools::FindReturn;
using tools::KernelApi;

template <>
std::string_view glue_file<cpudl::Subject>() {
  return "glue_cpudl.c";
}

// A cpudl_* entry point of another signature, or what the glue expects of
// the file or its cpudeadline.h (the forms' table is kernel_check.cpp's).
template <>
std::string form_errors<cpudl::Subject>(const std::string& output, const std::string& file) {
  return tools::summarize_form_errors(output, file, glue_file<cpudl::Subject>());
}

namespace {

// The driver's op table (kshim/abi/kc_ops.h): row i is cpudl::Op's
// alternative i, checked here by name, so an op's letter is
// kDriverOps[op.index()].letter. A new op does not compile until its row
// is there (and kc_subject_cpudl.c, which builds its handlers from the same rows,
// does not compile until it has the op's handler).
struct DriverOp {
  char letter;
  std::string_view name;
};
#define DIFFSCHED_DRIVER_OP(letter, name) DriverOp{letter, #name},
constexpr DriverOp kDriverOps[] = {KC_CPUDL_OPS(DIFFSCHED_DRIVER_OP)};
#undef DIFFSCHED_DRIVER_OP

constexpr bool driver_table_is_op_list() {
  constexpr auto& names = OpNames<cpudl::Op>::kNames;
  if (std::size(kDriverOps) != names.size()) return false;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (kDriverOps[i].name != names[i]) return false;
  return true;
}
static_assert(driver_table_is_op_list(),
              "cpudl::Op (src/subjects/cpudl/ops.h) and the driver's op table KC_CPUDL_OPS "
              "(kshim/abi/kc_ops.h) differ: a new op needs its row in kc_ops.h, in its place");

constexpr bool driver_letters_unique() {
  for (std::size_t i = 0; i < std::size(kDriverOps); ++i) {
    for (char other : std::string_view("AEPQp"))  // the protocol's other lines
      if (kDriverOps[i].letter == other) return false;
    for (std::size_t j = i + 1; j < std::size(kDriverOps); ++j)
      if (kDriverOps[i].letter == kDriverOps[j].letter) return false;
  }
  return true;
}
static_assert(driver_letters_unique(), "kshim/abi/kc_ops.h: two ops share an input letter");

// One field of a driver line (kc_driver.c's kc_num, kc_cpu, kc_list): a
// mask as a cpulist ("-" for none), a bool as 0/1, a number in decimal.
template <class V>
std::string driver_field(const V& v) {
  if constexpr (std::is_same_v<V, kernel::Cpumask>)
    return driver_cpulist(v);
  else if constexpr (std::is_same_v<V, bool>)
    return v ? "1" : "0";
  else if constexpr (requires { requires std::is_integral_v<decltype(v.value)>; })
    return fmt::format("{}", v.value);
  else
    static_assert(kUnhandled<V>, "a field type the in-kernel driver's lines do not print");
}

}  // namespace

template <>
std::string driver_line<cpudl::Subject>(const cpudl::Op& op) {
  std::string line(1, kDriverOps[op.index()].letter);
  std::visit(
      [&](const auto& o) {
        for_each_field(o, [&](std::string_view, const auto& v) { line += ' ' + driver_field(v); });
      },
      op);
  return line;
}

template <>
// The cpudl form of a file: its API (detected, or --api) and what its
// cpudl_find() returns; kExitOk or prints the reason.
int classify_file<cpudl::Subject>(Session& s, const std::string& file, const std::string& text,
                                  tools::CandidateSpec* spec) {
  const KernelCheckOptions& o = s.o;
  if (o.api != "auto") {
    auto forced = tools::parse_kernel_api(o.api);
    if (!forced) return error(fmt::format("--api '{}': auto, v3.14, v4.8, v4.9 or v6.19", o.api));
    spec->api = *forced;
  } else {
    std::string why;
    auto api = tools::detect_cpudl_api(text, &why);
    if (!api) return error("build", fmt::format("{}: {}", file, why));
    spec->api = *api;
  }
  std::string why, evidence;
  std::optional<tools::FindReturn> ret;
  if (o.find_returns == "auto") {
    ret = tools::detect_find_return(text, &why, &evidence);
  } else {
    ret = o.find_returns == "cpu" ? tools::FindReturn::kCpu : tools::FindReturn::kBool;
    evidence = "--find-returns " + o.find_returns;
  }
  if (!ret) {
    // Refused once the file is known to build and link (so that what the
    // shim lacks, or a syntax error, is said first).
    s.find_return_errors.push_back(fmt::format("{}: {}", file, why));
    return kExitOk;
  }
  spec->find_return = *ret;
  if (spec == &s.cand) s.find_returns = *ret == tools::FindReturn::kBool ? "0/1" : "cpu";
  s.forms += fmt::format("{}form of {}: {} ({})", s.forms.empty() ? "" : "\n", file,
                         tools::describe_cpudl_form(spec->api, *ret), evidence);
  std::error_code ec;
  if (!o.header.empty()) {
    spec->header = o.header;
  } else if (const fs::path near = tools::CandidateStage::header_beside(file);
             fs::is_regular_file(near, ec) && !staged_by_last_run(s, near)) {
    spec->header = near;  // the tree's own header, as the kernel build uses it
  }
  return kExitOk;
}

template <>
std::string describe_form<cpudl::Subject>(const tools::CandidateSpec& spec) {
  return fmt::format(", cpudl_find() returns {}", tools::find_return_name(spec.find_return));
}

template <>
fs::path staged_header<cpudl::Subject>(const tools::CandidateSpec& spec, const tools::ShimTree& shim) {
  return shim.cpudeadline_header(tools::kernel_api_name(spec.api));
}

template <>
std::vector<std::string> glue_args<cpudl::Subject>(const tools::CandidateSpec& spec,
                                                   const tools::ShimTree& shim,
                                                   const fs::path& staged) {
  const int api = static_cast<int>(spec.api);  // its KCHECK_API_* value
  const bool has_freecpu =
      spec.api != KernelApi::kV6_19 && spec.api != KernelApi::kV3_14 &&
      tools::defines_function(util::read_text(fs::absolute(spec.file)), "cpudl_set_freecpu");
  return {"-include", shim.sched_header().string(),
          fmt::format("-DKCHECK_API={}", api),
          fmt::format("-DKCHECK_FIND_RETURNS_CPU={}", spec.find_return == FindReturn::kCpu ? 1 : 0),
          fmt::format("-DKCHECK_HAS_FREECPU={}", has_freecpu ? 1 : 0),
          staged.string(),
          shim.runtime(glue_file<cpudl::Subject>()).string()};
}

// As the build above: a v4.8/v4.9-form file without the free-CPU helpers
// (v3.16 .. v3.18, Android 3.18 trees) has its free mask kept by the glue.
template <>
ModuleGlue module_glue<cpudl::Subject>(const tools::CandidateSpec& spec, const std::string& source) {
  const int api = static_cast<int>(spec.api);  // not v3.14: in_kernel_refusal() refuses it
  const bool has_freecpu = spec.api != KernelApi::kV6_19 &&
                           tools::defines_function(util::read_text(spec.file), "cpudl_set_freecpu");
  return {.glue = std::string(glue_file<cpudl::Subject>()),
          .glue_flags = fmt::format("-D__NO_FORTIFY -DKCHECK_API={} -DKCHECK_FIND_RETURNS_CPU={} "
                                    "-DKCHECK_HAS_FREECPU={} {}",
                                    api, spec.find_return == FindReturn::kCpu ? 1 : 0,
                                    has_freecpu ? 1 : 0, source),
          .cand_flags = "-include $(src)/sched.h",
          .rename = ""};
}

template <>
std::string in_kernel_refusal<cpudl::Subject>(const tools::CandidateSpec& spec) {
  if (spec.api != KernelApi::kV3_14) return "";
  return fmt::format("--in-kernel does not support the v3.14 API form of {} (its own "
                     "dl_time_before() clashes with the kernel's); supported: v4.8, v4.9, v6.19, pick",
                     spec.file.string());
}

template <>
std::string in_kernel_form<cpudl::Subject>(const tools::CandidateSpec& spec) {
  return tools::describe_cpudl_form(spec.api, spec.find_return);
}

template <>
std::string reproducer_comments<cpudl::Subject>(const tools::CandidateSpec&) {
  return "";
}

template <>
bool export_spec<cpudl::Subject>(const ExportRequest& r, const std::string& source,
                                 tools::CandidateSpec* spec, std::string* error) {
  std::string why;
  std::optional<KernelApi> api =
      r.api == "auto" ? tools::detect_cpudl_api(source, &why) : tools::parse_kernel_api(r.api);
  if (!api) {
    *error = fmt::format("{}: {}", spec->file.string(), r.api == "auto" ? why : "unknown --api");
    return false;
  }
  if (*api == KernelApi::kV3_14) {
    *error = fmt::format("{}: the v3.14 API form has no kernel module driver", spec->file.string());
    return false;
  }
  spec->api = *api;
  auto ret = tools::detect_find_return(source, &why);
  spec->find_return = ret.value_or(FindReturn::kBool);
  std::error_code ec;
  if (const fs::path near = tools::CandidateStage::header_beside(spec->file); fs::is_regular_file(near, ec))
    spec->header = near;
  return true;
}

// --api names the form: the build tries no other.
template <>
bool form_forced<cpudl::Subject>(const tools::KernelCheckOptions& o) {
  return o.api != "auto";
}

// The file alone: its form is detected again (a reproducer names it).
template <>
std::vector<std::string> replay_args<cpudl::Subject>(const tools::CandidateSpec&) {
  return {};
}

}  // namespace diffsched::kcheck
