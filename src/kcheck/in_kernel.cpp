// kernel-check --in-kernel (see in_kernel.h): the steps (programs, builds,
// one guest per nr_cpu_ids and the twin, comparison, minimisation) and the
// report. The parts are in in_kernel_*.cpp (in_kernel_internal.h).
#include "kcheck/in_kernel.h"

#include <algorithm>
#include <set>

#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::tools {

namespace {

using namespace in_kernel_detail;

// The programs: one --replay file, or the checked-in seeds and regressions
// (at --nr-cpus only, if given) and --runs random programs. kExitOk or the
// error printed.
int collect_programs(const InKernelOptions& o, std::vector<HostProgram>* out,
                     std::size_t* checked_in, std::size_t* skipped_nr) {
  std::vector<HostProgram>& programs = *out;
  std::string why;
  if (!o.replay.empty()) {
    HostProgram p;
    if (!load_ops_file(o.replay, *o.subject, &p, &why)) return fail(why);
    programs.push_back(std::move(p));
  } else {
    const SourceTree tree{source_dir()};
    for (const auto& dir : {tree.seeds(o.subject->name), tree.regressions(o.subject->name)})
      for (const auto& f : ops_files(dir)) {
        HostProgram p;
        if (!load_ops_file(f, *o.subject, &p, &why)) return fail(why);
        // --nr-cpus bounds the boots (one per nr_cpu_ids): the checked-in
        // programs at other nr_cpu_ids are left out, and counted.
        if (!o.nr_cpus.empty() &&
            std::find(o.nr_cpus.begin(), o.nr_cpus.end(), p.nr) == o.nr_cpus.end()) {
          ++*skipped_nr;
          continue;
        }
        programs.push_back(std::move(p));
      }
    *checked_in = programs.size();
    std::vector<unsigned> nrs = o.nr_cpus;
    if (nrs.empty()) {
      std::set<unsigned> seen;
      for (const auto& p : programs) seen.insert(p.nr);
      nrs.assign(seen.begin(), seen.end());
    }
    if (nrs.empty()) nrs.push_back(o.subject->in_kernel_cpus);
    std::mt19937_64 rng(o.seed);
    // --runs programs with at least one op (the decoder makes an empty one
    // now and then: drawn again, a bounded number of times).
    for (unsigned i = 0, made = 0; made < o.runs && i < 4 * o.runs; ++i) {
      const unsigned nr = nrs[made % nrs.size()];
      std::string name = fmt::format("random program {} (--seed {}, nr_cpu_ids {})", made + 1, o.seed, nr);
      HostProgram p = random_program(*o.subject, rng, nr, o.max_ops, std::move(name));
      if (p.ops.empty()) continue;
      programs.push_back(std::move(p));
      ++made;
    }
  }

  return kExitOk;
}

// --replay: the trace, op by op, like `diffsched replay`'s.
void print_trace(const Env& env, const HostProgram& p) {
  const KcheckWork w{env.work};
  const RunResult g = parse_output(read_text(w.guest_log(fmt::format("run-{}", p.nr))), true);
  const RunResult s = parse_output(read_text(w.shim_output("run")), false);
  const auto gi = g.traces.find(0);
  const auto si = s.traces.find(0);
  for (std::size_t k = 0; k < p.ops.size(); ++k) {
    fmt::print("#{} {}\n", k + 1, p.ops[k]);
    const std::string gs = gi != g.traces.end() && k < gi->second.states.size() ? gi->second.states[k] : "(none)";
    const std::string ss = si != s.traces.end() && k < si->second.states.size() ? si->second.states[k] : "(none)";
    fmt::print("  kernel: {}\n", gs);
    if (ss != gs) fmt::print("  shim:   {}\n", ss);
    if (gi != g.traces.end() && gi->second.warnings.count(static_cast<int>(k + 1)))
      fmt::print("  kernel WARNING at {}\n", gi->second.warnings.at(static_cast<int>(k + 1)));
    if (gi != g.traces.end() && gi->second.violations.count(static_cast<int>(k + 1)))
      fmt::print("  check failed: {}\n", gi->second.violations.at(static_cast<int>(k + 1)));
  }
}

}  // namespace

int run_in_kernel(const InKernelOptions& o) {
  const auto start = Clock::now();
  std::string refusal, form;
  with_tool_subject(*o.subject, [&]<class S>(std::type_identity<S>) {
    refusal = kcheck::in_kernel_refusal<S>(o.spec);  // its package's (kcheck/subject_hooks.h)
    form = kcheck::in_kernel_form<S>(o.spec);
  });
  if (!refusal.empty()) return fail(refusal);
  std::vector<HostProgram> programs;
  std::size_t checked_in = 0, skipped_nr = 0;
  // The programs first: a bad --replay file is said before anything is built.
  if (int rc = collect_programs(o, &programs, &checked_in, &skipped_nr); rc != kExitOk) return rc;
  std::string why;
  auto pieces = find_kernel_pieces(o.kernel, &why);
  if (!pieces) return fail(why);
  Env env;
  env.pieces = *pieces;
  env.work = o.work_dir;
  env.subject = o.subject;
  std::error_code ec;
  fs::create_directories(env.work, ec);

  if (int rc = build_all(o.spec, o.shim_flags, &env); rc != kExitOk) return rc;

  fmt::print("kernel-check {} --in-kernel: candidate {} ({}), kernel {} ({}), QEMU TCG\n"
             "  work directory {}\n  built: the shim twin in {:.1f} s, the module in {:.1f} s{}\n",
             o.subject->name, o.spec.file.string(),
             form,
             env.pieces.version, env.pieces.boot_image.string(), env.work.string(), env.shim_seconds,
             env.module_seconds, env.module_cached ? " (the same module from the build cache)" : "");
  if (o.replay.empty())
    fmt::print("  programs: {} checked-in (corpus/seeds/{}, corpus/regressions/{}){} + {} random (--seed {})\n",
               checked_in, o.subject->name, o.subject->name,
               skipped_nr ? fmt::format(", {} more at other nr_cpu_ids left out by --nr-cpus", skipped_nr) : "",
               programs.size() - checked_in, o.seed);
  std::fflush(stdout);

  std::vector<int> ids(programs.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  Outcome out = run_all(env, programs, ids, !o.replay.empty(), "run", true);

  if (!o.replay.empty()) print_trace(env, programs[0]);

  auto figures_now = [&] {
    return fmt::format("{} programs, {} ops compared op by op; {} boot{} ({:.1f} s in guests); {:.1f} s in all",
                  out.programs, out.ops, env.boots, env.boots == 1 ? "" : "s", env.boot_seconds, since(start));
  };
  const std::string figures = figures_now();
  InKernelResult ignored;
  InKernelResult& res = o.result ? *o.result : ignored;
  res.programs = out.programs;
  res.ops = out.ops;
  if (out.finding) {
    const Finding& f = *out.finding;
    res.signature = f.signature;
    res.kind = f.kind;
    res.detail = f.details.empty() ? std::string() : f.details.front();
    const HostProgram& p = programs[static_cast<std::size_t>(f.id)];
    fmt::print("FINDING ({}) in {} at op #{}: {}\n  signature {}\n", f.kind, p.name, f.op,
               p.ops.size() >= static_cast<std::size_t>(f.op) && f.op > 0 ? p.ops[static_cast<std::size_t>(f.op - 1)] : "",
               f.signature);
    for (const auto& d : f.details) fmt::print("  {}\n", d);
    if (f.kind == "kernel-vs-shim")
      fmt::print("  (either the shim models this kernel API differently, or the candidate depends on "
                 "something the shim models differently)\n");
    bool reproduced = true;
    if (o.replay.empty()) {
      std::fflush(stdout);
      Minimized m = minimize(env, p, f, o.minimize_boots);
      reproduced = m.reproduced;
      const fs::path repro = o.output.empty() ? KcheckWork{env.work}.minimized() : o.output;
      const std::string text = reproducer_text(*o.subject, m.program, m.finding ? *m.finding : f, m.minimal, o.spec);
      // A reproducer that cannot be written is said, and the finding (1) still wins.
      const bool written = write_text(repro, text);
      if (!written)
        fmt::print(stderr, "diffsched: error: cannot write {} (the reproducer is printed below)\n",
                   repro.string());
      else
        res.reproducer = repro.string();
      if (!m.reproduced)
        fmt::print("NOT REPRODUCED: the same program ran again in a fresh boot without the finding "
                   "(a fault that depends on the boot, such as memory corrupted earlier); the "
                   "reproducer is the program as it first ran{}\n",
                   written ? ", written to " + repro.string() : std::string());
      else
        fmt::print("minimised{}: {} ops -> {} ops ({} variants; {} guest boot{}){}\n",
                   m.minimal ? "" : " (NOT MINIMAL: the boot budget ran out)", f.op, m.program.ops.size(),
                   m.variants, m.rounds, m.rounds == 1 ? "" : "s",
                   written ? ", written to " + repro.string() : std::string());
      if (m.finding)
        for (const auto& d : m.finding->details) fmt::print("  {}\n", d);
      fmt::print("{}", text);
      fmt::print("replay: {} kernel-check {} --candidate {} --in-kernel --replay {}\n",
                 util::self_command(), o.subject->name, util::shell_path(o.spec.file),
                 util::shell_path(repro));
    }
    fmt::print("verdict: FINDING {}{} ({})\n", f.signature,
               reproduced ? "" : ", seen once and not reproduced in a second boot", figures_now());
    return kExitFinding;
  }
  if (!out.not_run.empty()) {
    for (std::size_t i = 0; i < out.not_run.size() && i < 5; ++i) fmt::print("  not run: {}\n", out.not_run[i]);
    fmt::print("verdict: INCOMPLETE ({}; {} program{} did not run)\n", figures, out.not_run.size(),
               out.not_run.size() == 1 ? "" : "s");
    res.detail = fmt::format("{} of {} programs could not run in the guest or the shim twin (first: {})",
                             out.not_run.size(), programs.size(), out.not_run.front());
    return fail(res.detail);
  }
  fmt::print("verdict: SAME in the kernel and the shim, no check failed in the guest ({})\n", figures);
  return kExitOk;
}

}  // namespace diffsched::tools
