// `diffsched check-patch PATCH --tree DIR`: a posted patch (mbox, format-patch
// series, plain diff, mail-archive page) applied to a copy of its base, each
// touched file routed to the check that fits it, one report (text, KTAP,
// mail, JSON) and one exit status: 0 all checked and equivalent, 1 finding,
// 2 bad input or could not run, 3 something touched was not checked.
// `--b4`: b4's check hook (the patch on stdin, a JSON array out).
// The work is src/patch/ (patch/check.h); docs/check-patch.md.
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "patch/check.h"
#include "patch/patch.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

struct CheckPatchArgs {
  patch::CheckPatchOptions o;
  std::string format = "text";
  bool b4 = false;
  bool list = false;
};

}  // namespace

Runner add_check_patch(CLI::App& app) {
  auto args = std::make_shared<CheckPatchArgs>();
  auto* sub = app.add_subcommand(
      "check-patch",
      "Check a patch or a series (mbox, git format-patch, plain diff, or a mail-archive page) "
      "against its base in a tree, without changing the tree: kernel/sched/cpudeadline.c goes "
      "to kernel-check cpudl, a destination pick in kernel/sched/fair.c to kernel-check pick, "
      "every other changed function to diffsched fn, or is listed as not checked with the "
      "reason (exit 0 all checked and "
      "equivalent, 1 finding, 2 bad input or could not run, 3 not everything checked)");
  sub->add_option("patch", args->o.patch, "the patch file (\"-\": standard input)");
  sub->add_option("--tree", args->o.tree,
                  "the source tree the patch applies to (never written; required but with --list)")
      ->check(CLI::ExistingDirectory);
  sub->add_flag("--list", args->list,
                "only read the patch: name its patches, files and the functions each hunk "
                "changes (no tree, no check; exit 0 once read)");
  sub->add_option("--base", args->o.base,
                  "the base commit when the patch has no base-commit: line (a git tree)");
  sub->add_option("--format", args->format, "the report: text, ktap, mail or json")
      ->check(CLI::IsMember({"text", "ktap", "mail", "json"}));
  sub->add_flag("--b4", args->b4,
                "b4's check hook: the patch on standard input, one JSON array of "
                "{tool, status, summary, details} out");
  sub->add_flag("--in-kernel", args->o.in_kernel,
                "also run each patched file kernel-check takes in a booted kernel (QEMU), against "
                "the same file in the shim: a stage of its check (kernel-check --in-kernel)");
  sub->add_flag("--exhaustive", args->o.exhaustive,
                "also run each check's bounded exhaustive form: kernel-check --exhaustive at the "
                "subject's default bounds, fn --exhaustive at its own");
  sub->add_option("--time", args->o.time, "kernel-check --time: seconds of fuzzing per check")
      ->check(non_negative());
  sub->add_option("--runs", args->o.runs,
                  "kernel-check --runs: random programs per check; fn --runs: generated inputs")
      ->check(positive());  // a check with nothing generated is no check
  sub->add_option("--nr-cpus", args->o.nr_cpus, "kernel-check --nr-cpus")->check(positive());
  sub->add_option("--harness", args->o.harness, "kernel-check --harness (the host checks')");
  sub->add_flag("--no-build", args->o.no_build, "kernel-check --no-build");
  sub->add_option("--work-dir", args->o.work_dir,
                  "where the states and the checks' files go (new or empty; default: a temporary "
                  "directory, removed unless a check found something or failed)");
  return [args, sub] {
    patch::CheckPatchOptions o = args->o;
    if (args->b4) {
      if (!o.patch.empty() && o.patch != "-")
        return bad_input("--b4 reads the patch from standard input: give no PATCH");
      o.patch = "-";
    } else if (o.patch.empty()) {
      return bad_input("check-patch needs a PATCH file (or --b4 with the patch on standard input)");
    }
    if (args->list) {
      const patch::Parsed p = patch::read_patch_file(o.patch);
      if (!p.ok()) return bad_input(p.error);
      std::cout << patch::format_listing(p.series, o.patch == "-" ? "standard input" : o.patch);
      return kExitOk;
    }
    if (o.tree.empty()) return bad_input("--tree is required (the tree the patch applies to), or --list");
    o.self = util::self_path();
    o.self_command = self_command();
    o.version = version_string();
    (void)sub;
    const patch::Report r = patch::check_patch(o, patch::fn_child(o));
    if (args->b4) {
      // The verdict is in the array, which b4 reads; exit 0 once it is
      // written, unless the patch or tree was bad: then its one line and 2.
      std::cout << patch::format_b4(r);
      if (r.error.empty()) return kExitOk;
      fmt::print(stderr, "diffsched: error: {}\n", r.error);
      return r.status;
    }
    static const std::map<std::string, patch::Format> kFormats = {
        {"text", patch::Format::kText}, {"ktap", patch::Format::kKtap},
        {"mail", patch::Format::kMail}, {"json", patch::Format::kJson}};
    // A bad patch or tree is one line on stderr (and still a report for ktap/json).
    if (!r.error.empty()) fmt::print(stderr, "diffsched: error: {}\n", r.error);
    if (r.error.empty() || args->format == "ktap" || args->format == "json")
      std::cout << patch::format_report(r, kFormats.at(args->format));
    return r.status;
  };
}

}  // namespace diffsched::cli
