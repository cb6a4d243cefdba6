// kernel-check --in-kernel: the candidate in a booted kernel (QEMU) against
// the same candidate in the shim (src/kcheck/in_kernel*). Here only what the
// CLI decides: the options that do not apply are refused (one line, exit 2),
// the rest is handed over.
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "kcheck/session.h"
#include "kcheck/in_kernel.h"

namespace diffsched::kcheck {

int run_in_kernel_check(Session& s) {
  const KernelCheckOptions& o = s.o;
  if (int rc = prepare_files(s); rc != kExitOk) return rc;
  if (!s.find_return_errors.empty()) return error(s.find_return_errors.front());
  if (!s.builtin_base || o.baseline != "builtin-reference" || !o.capacity.empty() ||
      o.fail_alloc || o.raw || !o.level.empty())
    return error("--in-kernel compares the candidate in the kernel with the same candidate in the "
                 "shim: --baseline, --level, --capacity, --fail-alloc and --raw do not apply");
  tools::InKernelOptions k;
  k.subject = o.tool;
  k.spec = s.cand;
  k.work_dir = s.work;
  k.runs = o.runs_given ? o.runs : 200;
  k.seed = o.seed;
  k.nr_cpus = o.nr_cpus;
  k.replay = o.replay;
  k.kernel = o.kernel;
  k.output = o.output;
  k.minimize_boots = o.minimize_boots;
  if (const char* plant = std::getenv("DIFFSCHED_KSHIM_TEST_FLAGS"); plant && *plant) {
    std::istringstream words(plant);  // tests only: a planted shim primitive
    for (std::string w; words >> w;) k.shim_flags.push_back(w);
  }
  s.print_forms();
  tools::InKernelResult res;
  k.result = &res;
  const int rc = tools::run_in_kernel(k);
  // The verdict as data (--verdict-json): what the guest and the twin compared.
  VerdictNote& n = verdict_note();
  n.verdict = rc == kExitOk ? "equivalent" : rc == kExitFinding ? "finding" : "error";
  n.kind = rc == kExitFinding ? res.kind : "";
  n.signature = res.signature;
  n.detail = res.detail;
  n.reproducer = res.reproducer;
  n.programs = res.programs;
  n.ops = res.ops;
  if (rc == kExitFinding) n.found_in = "in-kernel";
  return rc;
}

}  // namespace diffsched::kcheck
