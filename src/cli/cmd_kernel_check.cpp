// `diffsched kernel-check cpudl|pick --candidate FILE`: builds a kernel C file
// (an unmodified kernel/sched/cpudeadline.c of any API form, or a kernel-style
// destination pick) through the kshim, then runs the properties with the model
// oracle and a libFuzzer campaign against a baseline in the kcheck harness,
// minimises the first finding and prints the command that replays it.
// Exit: 0 equivalent, 1 finding, 2 could not build or run (one-line reason),
// 3 out of domain (--replay). The options are defined once, in
// kcheck/options.h; the run itself is src/kcheck/ (kcheck/session.h).
// docs/kernel-check.md describes the shim and what it models.
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "kcheck/session.h"
#include "subject_tools.h"

namespace diffsched::cli {

Runner add_kernel_check(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "kernel-check",
      "Build an unmodified kernel/sched/cpudeadline.c or a kernel-style pick function through "
      "the kernel shim and check it: properties, model, fuzzing, minimisation "
      "(exit 0 equivalent, 1 finding, 2 could not build or run)");
  sub->require_subcommand(1);
  std::vector<std::pair<CLI::App*, std::shared_ptr<tools::KernelCheckOptions>>> subs;
  for (const SubjectTool* t : kSubjectTools) {
    auto opts = std::make_shared<tools::KernelCheckOptions>();
    opts->tool = t;  // the name resolved, here at the edge
    auto* cmd = sub->add_subcommand(std::string(t->name), std::string(t->kcheck_help));
    add_kernel_check_options(cmd, *opts);
    subs.emplace_back(cmd, opts);
  }
  return [subs] {
    for (const auto& [cmd, opts] : subs)
      if (cmd->parsed()) return kcheck::run_kernel_check(*opts);
    return kExitBadInput;
  };
}

}  // namespace diffsched::cli
