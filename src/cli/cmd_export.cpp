// `diffsched export --kmod FINDING.ops -o DIR`: a finding of kernel-check
// --in-kernel as a standalone kernel module directory (Kbuild, the driver,
// the candidate and its cpudeadline.h, the program, a three-line README) that
// a kernel developer builds and loads in their own kernel to reproduce it.
// The candidate is the reproducer's "# candidate:" line, or --candidate.
// -o DIR is never removed whole: it must be new, empty or an earlier
// export's (util::OwnedDir; --force for another), and no input in it (the
// .ops, the candidate) is deleted. Exit: 0 written, 2 bad input (one line).
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
  std::string candidate;
  std::string function;
  std::string api = "auto";
  std::string output;
  bool force = false;
};

int run_export(const ExportOptions& o) {
  std::error_code ec;
  if (!fs::is_regular_file(o.kmod, ec)) return bad_input(fmt::format("{}: no such file", o.kmod));
  std::ifstream in(o.kmod, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::string why;
  auto program = io::parse_program(text, &why);
  if (!program) return bad_input(fmt::format("{}: {}", o.kmod, why));
  // The program's subject, resolved once here.
  const SubjectTool* tool = find_subject_tool(subject_name(*program));
  if (tool == nullptr)
    return bad_input(fmt::format("{}: subject {} has no kernel module driver ({})", o.kmod,
                                 subject_name(*program), subject_tool_names()));
  tools::CandidateSpec spec;
  spec.tool = tool;
  spec.file = o.candidate.empty() ? kcheck::reproducer_comment(text, "candidate") : o.candidate;
  if (spec.file.empty())
    return bad_input(fmt::format("{} names no candidate (no '# candidate:' line): give --candidate FILE", o.kmod));
  if (!fs::is_regular_file(spec.file, ec)) return bad_input(fmt::format("{}: no such file", spec.file.string()));
  std::ifstream cin(spec.file, std::ios::binary);
  std::stringstream cbuf;
  cbuf << cin.rdbuf();
  const std::string source = cbuf.str();
  // The file's form: its package's (kcheck/subject_hooks.h).
  const kcheck::ExportRequest request{.reproducer = text, .function = o.function, .api = o.api};
  bool ok = false;
  with_tool_subject(*tool, [&]<class S>(std::type_identity<S>) {
    ok = kcheck::export_spec<S>(request, source, &spec, &why);
  });
  if (!ok) return bad_input(why);
  // -o is a util::OwnedDir: never removed whole, never an input deleted.
  if (!tools::export_kmod(spec, text, {.dir = o.output, .force = o.force, .inputs = {o.kmod}}, &why))
    return bad_input(why);
  fmt::print("wrote {} (module kcheck.ko for {}; see its README)\n", o.output, spec.file.string());
  return kExitOk;
}

}  // namespace

Runner add_export(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  auto* sub = app.add_subcommand(
      "export", "Write a kernel-check --in-kernel finding as a standalone kernel module directory "
                "(exit 0 written, 2 bad input)");
  sub->add_option("--kmod", o->kmod, "the finding's .ops (kernel-check --in-kernel's reproducer)")
      ->required();
  sub->add_option("--candidate", o->candidate,
                  "the kernel C file (default: the reproducer's '# candidate:' line)");
  sub->add_option("--function", o->function, "pick: the function's name (default: the reproducer's)");
  sub->add_option("--api", o->api, "cpudl: auto (default), v4.8, v4.9 or v6.19")
      ->check(CLI::IsMember({"auto", "v4.8", "v4.9", "v6.19"}));
  sub->add_option("-o,--output", o->output,
                  "the directory to write: new, empty, or an earlier export's (only its files "
                  "are replaced)")
      ->required();
  sub->add_flag("--force", o->force,
                "write into a directory that is not an earlier export's, replacing only the "
                "module's files in it (never an input)");
  return [o] { return run_export(*o); };
}

}  // namespace diffsched::cli
