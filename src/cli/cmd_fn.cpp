// `diffsched fn --old A.c --new B.c --function NAME`: two versions of one
// kernel C function, run side by side on generated inputs (docs/fn.md).
// Exit: 0 equivalent (at the level), 1 finding, 2 bad input or cannot
// build/run (a missing function, a compile error, an ungeneratable type, a
// hidden global). The work is in src/fn/ (fn/check.h).
// `--patch FILE --tree DIR` and `--git A..B`: every function a patch (or a
// commit range) changes, each checked by fn or named as not checkable; the
// patch is read, staged and routed by check-patch's code (patch/check.h,
// fn_only), never a second reader. Exit: docs/fn.md "A patch or a range".
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "fn/check.h"
#include "fn/era.h"
#include "fn/workdir.h"
#include "io/load.h"
#include "patch/apply.h"
#include "patch/check.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

struct PatchArgs {
  std::string patch, tree, git;
};

// fn over a patch or a git range (check_patch with every function routed to fn).
int run_fn_patch(const fn::FnOptions& f, const PatchArgs& a) {
  if (!f.old_file.empty() || !f.new_file.empty() || !f.old_function.empty() || !f.spec_file.empty() ||
      !f.input.empty() || !f.replay_file.empty() || f.print_spec)
    return bad_input("fn --patch/--git checks every function the patch changes: it takes no "
                     "--old, --new, --function, --spec, --input, --replay or --print-spec");
  // What a whole patch's run does not take is refused, never ignored.
  if (f.max_cost_ratio > 0 || f.max_mem_ratio > 0 || f.clock_reps > 0 || f.search_worst > 0 ||
      f.exhaustive || !f.fuzz_corpus.empty())
    return bad_input("fn --patch/--git takes none of --max-cost-ratio, --max-mem-ratio, --clock, "
                     "--search-worst (on by default in perf fn), --exhaustive or --fuzz-corpus: run "
                     "them on one function's pair");
  // A bad --config is this run's error, not each function's.
  {
    fn::Spec none;
    if (std::string error; !fn::add_config_options(f.config, &none, &error)) return bad_input(error);
  }
  patch::CheckPatchOptions o;
  o.fn_only = true;
  o.runs = static_cast<unsigned>(f.runs);
  if (f.nr_cpus) o.nr_cpus = {f.nr_cpus};
  o.fn_args = {"--seed", std::to_string(f.seed)};
  if (!f.level.empty()) o.fn_args.insert(o.fn_args.end(), {"--level", f.level});
  if (!f.minimize) o.fn_args.push_back("--no-minimize");
  if (f.fuzz_seconds) o.fn_args.insert(o.fn_args.end(), {"--fuzz", std::to_string(f.fuzz_seconds)});
  for (const std::string& k : f.config) o.fn_args.insert(o.fn_args.end(), {"--config", k});
  // The era: given, else each function's run reads it from the staged
  // copy's Makefile (the tree's, at the range's commits with --git).
  if (const std::string& era = f.kernel_version; !era.empty()) {
    if (const std::string why = fn::check_fn_kernel_version(era); !why.empty())
      return bad_input(fmt::format("--kernel-version {}", why));
    o.fn_args.insert(o.fn_args.end(), {"--kernel-version", era});
  }
  o.fn_fuzz_seconds = f.fuzz_seconds;
  o.self = util::self_path();
  o.self_command = self_command();
  o.version = version_string();
  const util::TempDir tmp(fn::GitRangeWork::kTemplate);  // removed when the run ends
  if (!a.git.empty()) {
    if (tmp.path.empty()) return bad_input("cannot make a temporary directory");
    fs::path top;
    const fs::path diff = fn::GitRangeWork{tmp.path}.range_diff();
    const std::string e = patch::git_range_diff(a.tree.empty() ? fs::current_path() : fs::path(a.tree),
                                                a.git, diff, &top, &o.base);
    if (!e.empty()) return bad_input(e);
    o.patch = diff.string();
    o.tree = top;
  } else {
    if (a.tree.empty()) return bad_input("fn --patch needs --tree DIR (the tree the patch applies to)");
    o.patch = a.patch;
    o.tree = a.tree;
  }
  patch::Report r = patch::check_patch(o, patch::fn_child(o));
  if (!a.git.empty()) r.patch = fmt::format("git range {}", a.git);
  if (!r.error.empty()) return bad_input(r.error);
  std::cout << patch::format_fn_patch(r);
  const int status = patch::fn_patch_status(r);
  bool any = false;
  for (const patch::Unit& u : r.units) any = any || !u.checks.empty();
  if (!any) fmt::print(stderr, "diffsched: error: nothing checkable: no function the patch changes can be checked by diffsched fn (listed above)\n");
  return status;
}

}  // namespace

namespace {

Runner add_fn_command(CLI::App& app, bool perf) {
  auto o = std::make_shared<fn::FnOptions>();
  if (perf) o->search_worst = 100;
  auto function = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "fn",
      perf ? "diffsched fn with its worst-input search on (--search-worst 100 by default): the "
             "input on which new costs the largest multiple of old (docs/fn.md \"Cost\")"
           : "Two versions of one kernel C function (libclang extraction, a generated harness under "
             "ASan+UBSan against kshim/), compared on inputs generated from the C types (exit 0 "
             "equivalent, 1 finding, 2 cannot build or run; docs/fn.md)");
  auto pa = std::make_shared<PatchArgs>();
  sub->add_option("--old", o->old_file, "the old version's C file")->check(CLI::ExistingFile);
  sub->add_option("--new", o->new_file, "the new version's C file")->check(CLI::ExistingFile);
  sub->add_option("--patch", pa->patch,
                  "a patch (mbox, format-patch, plain diff, archive page): every function it "
                  "changes is checked, or named as not checkable (with --tree)")
      ->check(CLI::ExistingFile);
  sub->add_option("--tree", pa->tree, "the tree --patch applies to (never written); with --git, "
                                      "a directory in the git tree (default: the current one)")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--git", pa->git, "a commit range A..B of a git tree: every function it changes");
  sub->add_flag("--print-spec", o->print_spec,
                "write the spec inferred for the pair (docs/fn.md \"--print-spec\") and stop");
  sub->add_option("--function", *function, "the function (both sides)");
  sub->add_option("--old-function", o->old_function, "the old side's function, when the names differ");
  sub->add_option("--new-function", o->new_function, "the new side's function, when the names differ");
  sub->add_option("--level", o->level,
                  "exact (default, or the spec's), multiset (array outputs as multisets) or "
                  "sorted (the same multiset, equal keys in any order)")
      ->check(CLI::IsMember({"exact", "multiset", "sorted"}));
  sub->add_option("--runs", o->runs, "generated inputs")->check(positive());
  sub->add_option("--seed", o->seed, "the generator's seed (the same inputs for both sides)");
  sub->add_option("--nr-cpus", o->nr_cpus, "fix nr_cpu_ids (default: drawn from 1,2,4,63,64,65,128)")
      ->check(CLI::Range(1u, 8192u));
  sub->add_option("--config", o->config,
                  "CONFIG_X[=N]: a kernel option the shim leaves off, defined for both sides "
                  "(repeatable; the spec's `config` line; with --patch, for every function)");
  sub->add_option("--kernel-version", o->kernel_version,
                  "MAJOR.MINOR: the kernel era the shim builds both sides at (where kernels name "
                  "or shape a thing differently; default: the Makefile of the tree a file is in, "
                  "else the newest era both files build against; docs/fn.md \"Eras\")");
  sub->add_option("--spec", o->spec_file, "a .fnspec file (docs/fn.md: domains, globals, level)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--json", o->json, "one JSON verdict object on stdout");
  sub->add_option("--max-cost-ratio", o->max_cost_ratio,
                  "a perf finding (exit 1) when, on some input, new makes more than R times old's "
                  "callback calls (the harness's less, cmp and swap callbacks; counted, never timed)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--clock", o->clock_reps,
                  "also time each input's call N times (the least counts) in a second build of "
                  "each side at -O2 without sanitizers, and print the clock ratio (timed, "
                  "never a finding)")
      ->check(CLI::Range(1u, 100000u));
  sub->add_option("--max-mem-ratio", o->max_mem_ratio,
                  "a perf finding (exit 1) when, on some input, new's call makes more than R times "
                  "old's memory operations (loads and stores, the shim's runtime included; counted, "
                  "never timed)")
      ->check(CLI::PositiveNumber);
  auto* search = sub->add_option("--search-worst", o->search_worst,
                  "after the generated inputs, search up to N rounds of growing mutations from "
                  "the input of the largest new/old cost for a worse one (docs/fn.md, \"Cost\"); "
                  "the input found joins the run")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000}));
  auto* fuzz = sub->add_option("--fuzz", o->fuzz_seconds,
                  "after the generated inputs, run libFuzzer on the pair for S seconds (both sides "
                  "in one process, docs/fn.md \"Fuzzing\"); an input it stops on joins the run")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{86400}));
  sub->add_option("--fuzz-corpus", o->fuzz_corpus,
                  "--fuzz: keep the fuzzer's corpus in DIR (made if missing; it grows run by run), "
                  "as campaign --fn does")
      ->needs(fuzz);
  auto* input = sub->add_option("--input", o->input,
                                "run one call, given in the text form a finding prints "
                                "(docs/input-format.md), instead of generated inputs");
  auto* replay = sub->add_option("--replay", o->replay_file, "run one call read from a file in that text form")
      ->check(CLI::ExistingFile)
      ->excludes(input);
  search->excludes(input)->excludes(replay);  // one given call: nothing to search from
  fuzz->excludes(input)->excludes(replay);
  sub->add_flag("--exhaustive", o->exhaustive,
                "every input within the bounds below instead of random ones (docs/fn.md "
                "\"Bounded exhaustive run\"); no difference is \"equivalent within bounds\"")
      ->excludes(input)
      ->excludes(replay)
      ->excludes(fuzz);
  sub->add_option("--max-nr-cpus", o->max_nr_cpus, "--exhaustive: masks at nr_cpu_ids 1..N (default 4)")
      ->check(CLI::Range(1u, 8192u));
  sub->add_option("--int-range", o->int_range,
                  "--exhaustive: integers LO..HI, within each type's and the spec's domain (default -2..3)");
  sub->add_option("--max-array-len", o->max_array_len,
                  "--exhaustive: arrays with a length parameter of lengths 0..L (default 2)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{64}));
  sub->add_option("--max-inputs", o->max_inputs,
                  "--exhaustive: refuse (exit 2) when the bounds hold more inputs than this (default 1000000)")
      ->check(positive());
  sub->add_flag("!--no-minimize", o->minimize,
                "report a finding's first input as found, without making it smaller");
  sub->add_option("--verdict-json", o->verdict_json,
                  "also write the JSON verdict object to FILE (check-patch reads it); without a "
                  "verdict (exit 2, 3), {\"verdict\":\"error\",\"status\":N,\"error\":LINE}");
  return [o, function, pa, sub] {
    // Without --level, the spec's level holds (else exact).
    if (sub->count("--level") == 0) o->level.clear();
    if (!pa->patch.empty() && !pa->git.empty()) return bad_input("fn: give --patch or --git, not both");
    if (!pa->patch.empty() || !pa->git.empty()) {
      if (!function->empty()) o->old_function = *function;
      return run_fn_patch(*o, *pa);
    }
    if (!pa->tree.empty()) return bad_input("fn: --tree goes with --patch or --git");
    if (o->old_file.empty() || o->new_file.empty())
      return bad_input("fn: give --old A.c --new B.c, or --patch FILE --tree DIR, or --git A..B");
    if (std::error_code ec; !o->fuzz_corpus.empty() && fs::exists(o->fuzz_corpus, ec) &&
                            !fs::is_directory(o->fuzz_corpus, ec))
      return bad_input(fmt::format("fn: --fuzz-corpus {} is not a directory", o->fuzz_corpus));
    if (o->old_function.empty()) o->old_function = *function;
    if (o->new_function.empty()) o->new_function = *function;
    if (o->old_function.empty() || o->new_function.empty())
      return bad_input("fn: give --function NAME (or --old-function and --new-function)");
    o->replay_prefix = self_command();
    const int rc = fn::run_fn(*o);
    // No verdict: the reason as data for check-patch, never its prose parsed back.
    if ((rc == 2 || rc == 3) && !o->verdict_json.empty() && !fn::last_fn_error().empty())
      if (std::string why; !io::write_file(
              o->verdict_json,
              nlohmann::json{{"verdict", "error"}, {"status", rc}, {"error", fn::last_fn_error()}}.dump() + "\n",
              &why))
        std::fprintf(stderr, "diffsched: error: %s\n", why.c_str());
    return rc;
  };
}

}  // namespace

Runner add_fn(CLI::App& app) { return add_fn_command(app, false); }
Runner add_perf_fn(CLI::App& perf) { return add_fn_command(perf, true); }

}  // namespace diffsched::cli
