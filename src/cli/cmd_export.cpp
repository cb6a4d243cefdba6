// `diffsched export --kmod FINDING.ops -o DIR`: a finding of kernel-check
// --in-kernel as a standalone kernel module directory (Kbuild, the driver,
// the candidate and its cpudeadline.h, the program, a three-line README) that
// a kernel developer builds and loads in their own kernel to reproduce it.
// `export --ktap-module FINDING.ops|DIR -o DIR`: the program (or every .ops
// of a directory) as a kselftest-style test module printing KTAP
// (kcheck/in_kernel.h, export_ktap_module). `export --boot DIR... --log F`:
// those modules built and loaded in one QEMU guest, its console in F.
// The candidate is the reproducer's "# candidate:" line, or --candidate.
// -o DIR is never removed whole: it must be new, empty or an earlier
// export's (util::OwnedDir; --force for another), and no input in it (the
// .ops, the candidate) is deleted. Exit: 0 written, 2 bad input (one line);
// --boot: 0 every module ok, 1 a case not ok, 2 could not build or boot.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "subject_tools.h"
#include "io/program.h"
#include "kcheck/in_kernel.h"
#include "kcheck/kernel_check.h"
#include "kcheck/subject_hooks.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

struct ExportOptions {
  std::string kmod;
  std::string ktap;
  std::vector<std::string> boot;
  std::string log;
  unsigned nr_cpus = 0;
  std::string kernel;
  std::string candidate;
  std::string function;
  std::string api = "auto";
  std::string output;
  bool force = false;
};

// The candidate of a program (or of every program of a directory), as
// kernel-check classifies it; false with a reason.
bool candidate_spec(const ExportOptions& o, const std::string& text, const std::string& input,
                    const SubjectTool* tool, tools::CandidateSpec* out, std::string* why) {
  std::error_code ec;
  tools::CandidateSpec spec;
  spec.tool = tool;
  spec.file = o.candidate.empty() ? kcheck::reproducer_comment(text, "candidate") : o.candidate;
  if (spec.file.empty()) {
    *why = fmt::format("{} names no candidate (no '# candidate:' line): give --candidate FILE", input);
    return false;
  }
  if (!fs::is_regular_file(spec.file, ec)) {
    *why = fmt::format("{}: no such file", spec.file.string());
    return false;
  }
  std::ifstream cin(spec.file, std::ios::binary);
  std::stringstream cbuf;
  cbuf << cin.rdbuf();
  const std::string source = cbuf.str();
  // The file's form: its package's (kcheck/subject_hooks.h).
  const kcheck::ExportRequest request{.reproducer = text, .function = o.function, .api = o.api};
  bool ok = false;
  with_tool_subject(*tool, [&]<class S>(std::type_identity<S>) {
    ok = kcheck::export_spec<S>(request, source, &spec, why);
  });
  if (!ok) return false;
  *out = spec;
  return true;
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// The program of `file`: its text and its subject's tool; false with a reason.
bool read_program(const fs::path& file, std::string* text, const SubjectTool** tool, std::string* why) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    *why = fmt::format("{}: no such file", file.string());
    return false;
  }
  *text = read_all(file);
  auto program = io::parse_program(*text, why);
  if (!program) {
    *why = fmt::format("{}: {}", file.string(), *why);
    return false;
  }
  // The program's subject, resolved once here.
  *tool = find_subject_tool(subject_name(*program));
  if (*tool == nullptr) {
    *why = fmt::format("{}: subject {} has no kernel module driver ({})", file.string(),
                       subject_name(*program), subject_tool_names());
    return false;
  }
  return true;
}

int run_kmod(const ExportOptions& o) {
  std::string text, why;
  const SubjectTool* tool = nullptr;
  tools::CandidateSpec spec;
  if (!read_program(o.kmod, &text, &tool, &why) || !candidate_spec(o, text, o.kmod, tool, &spec, &why))
    return bad_input(why);
  // -o is a util::OwnedDir: never removed whole, never an input deleted.
  if (!tools::export_kmod(spec, text, {.dir = o.output, .force = o.force, .inputs = {o.kmod}}, &why))
    return bad_input(why);
  fmt::print("wrote {} (module kcheck.ko for {}; see its README)\n", o.output, spec.file.string());
  return kExitOk;
}

// --ktap-module FILE or DIR: every program of one subject and one candidate.
int run_ktap(const ExportOptions& o) {
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(o.ktap, ec)) {
    for (const auto& e : fs::directory_iterator(o.ktap, ec))
      if (e.path().extension() == ".ops" && e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) return bad_input(fmt::format("{}: no .ops file in the directory", o.ktap));
  } else {
    files.push_back(o.ktap);
  }
  std::string first_text, why;
  const SubjectTool* tool = nullptr;
  for (const auto& f : files) {
    std::string text;
    const SubjectTool* t = nullptr;
    if (!read_program(f, &text, &t, &why)) return bad_input(why);
    if (tool != nullptr && t != tool)
      return bad_input(fmt::format("{}: a program of subject {}, the others' is {}", f.string(), t->name,
                                   tool->name));
    if (tool == nullptr) first_text = text;
    tool = t;
    if (o.candidate.empty() && kcheck::reproducer_comment(text, "candidate") != kcheck::reproducer_comment(first_text, "candidate"))
      return bad_input(fmt::format("{} and {} name other candidates: give --candidate FILE",
                                   files[0].string(), f.string()));
  }
  tools::CandidateSpec spec;
  if (!candidate_spec(o, first_text, files[0].string(), tool, &spec, &why)) return bad_input(why);
  std::vector<fs::path> inputs = {o.ktap};
  if (!tools::export_ktap_module(spec, files, {.dir = o.output, .force = o.force, .inputs = inputs}, &why))
    return bad_input(why);
  fmt::print("wrote {} (a KTAP test module of {} program(s) for {}; see its README)\n", o.output,
             files.size(), spec.file.string());
  return kExitOk;
}

int run_export(const ExportOptions& o) {
  const int modes = !o.kmod.empty() + !o.ktap.empty() + !o.boot.empty();
  if (modes != 1) return bad_input("give one of --kmod, --ktap-module and --boot");
  if (!o.boot.empty()) {
    if (o.log.empty()) return bad_input("--boot needs --log FILE (the guest's console)");
    tools::KtapBoot b{.nr = o.nr_cpus, .kernel = o.kernel, .log = o.log};
    for (const auto& d : o.boot) b.modules.emplace_back(d);
    return tools::boot_ktap_modules(b);
  }
  if (o.output.empty()) return bad_input("-o DIR is required with --kmod and --ktap-module");
  return o.kmod.empty() ? run_ktap(o) : run_kmod(o);
}

}  // namespace

Runner add_export(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  auto* sub = app.add_subcommand(
      "export", "Write a kernel-check --in-kernel finding as a standalone kernel module directory, "
                "or as a KTAP test module, and boot such modules (exit 0 written, 2 bad input)");
  sub->add_option("--kmod", o->kmod, "the finding's .ops (kernel-check --in-kernel's reproducer)");
  sub->add_option("--ktap-module", o->ktap,
                  "a finding's .ops, or a directory of .ops: a kselftest-style test module that "
                  "prints KTAP (docs/check-patch.md)");
  sub->add_option("--boot", o->boot,
                  "directories of --ktap-module: build them and load them in one QEMU guest (as "
                  "--in-kernel boots); exit 0 all ok, 1 a case not ok, 2 could not run");
  sub->add_option("--log", o->log, "--boot: the file for the guest's console (a KTAP document)");
  sub->add_option("--nr-cpus", o->nr_cpus, "--boot: the guest's nr_cpu_ids (default: the first program's)")
      ->check(CLI::Range(1u, 8192u));
  sub->add_option("--kernel", o->kernel, "--boot: the vmlinuz (default: the cache of scripts/fetch-kernel.sh)");
  sub->add_option("--candidate", o->candidate,
                  "the kernel C file (default: the reproducer's '# candidate:' line)");
  sub->add_option("--function", o->function, "pick: the function's name (default: the reproducer's)");
  sub->add_option("--api", o->api, "cpudl: auto (default), v4.8, v4.9 or v6.19")
      ->check(CLI::IsMember({"auto", "v4.8", "v4.9", "v6.19"}));
  sub->add_option("-o,--output", o->output,
                  "the directory to write: new, empty, or an earlier export's (only its files "
                  "are replaced)");
  sub->add_flag("--force", o->force,
                "write into a directory that is not an earlier export's, replacing only the "
                "module's files in it (never an input)");
  return [o] { return run_export(*o); };
}

}  // namespace diffsched::cli
