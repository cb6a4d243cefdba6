// `diffsched fn --old A.c --new B.c --function NAME`: two versions of one
// kernel C function, run side by side on generated inputs (docs/fn.md).
// Exit: 0 equivalent (at the level), 1 finding, 2 bad input or cannot
// build/run (a missing function, a compile error, an ungeneratable type, a
// hidden global). The work is in src/fn/ (fn/check.h).
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "fn/check.h"

namespace diffsched::cli {

Runner add_fn(CLI::App& app) {
  auto o = std::make_shared<fn::FnOptions>();
  auto function = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "fn",
      "Two versions of one kernel C function (libclang extraction, a generated harness under "
      "ASan+UBSan against kshim/), compared on inputs generated from the C types (exit 0 "
      "equivalent, 1 finding, 2 cannot build or run; docs/fn.md)");
  sub->add_option("--old", o->old_file, "the old version's C file")->required()->check(CLI::ExistingFile);
  sub->add_option("--new", o->new_file, "the new version's C file")->required()->check(CLI::ExistingFile);
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
  sub->add_option("--spec", o->spec_file, "a .fnspec file (docs/fn.md: domains, globals, level)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--json", o->json, "one JSON verdict object on stdout");
  sub->add_option("--max-cost-ratio", o->max_cost_ratio,
                  "a perf finding (exit 1) when, on some input, new makes more than R times old's "
                  "callback calls (the spec's `less` callbacks; counted, never timed)")
      ->check(CLI::PositiveNumber);
  auto* input = sub->add_option("--input", o->input,
                                "run one call, given in the text form a finding prints "
                                "(docs/input-format.md), instead of generated inputs");
  sub->add_option("--replay", o->replay_file, "run one call read from a file in that text form")
      ->check(CLI::ExistingFile)
      ->excludes(input);
  sub->add_flag("!--no-minimize", o->minimize,
                "report a finding's first input as found, without making it smaller");
  sub->add_option("--verdict-json", o->verdict_json,
                  "also write the JSON verdict object to FILE (check-patch reads it; only on a "
                  "verdict, exit 0 or 1)");
  return [o, function] {
    if (o->old_function.empty()) o->old_function = *function;
    if (o->new_function.empty()) o->new_function = *function;
    if (o->old_function.empty() || o->new_function.empty())
      return bad_input("fn: give --function NAME (or --old-function and --new-function)");
    o->replay_prefix = self_command();
    return fn::run_fn(*o);
  };
}

}  // namespace diffsched::cli
