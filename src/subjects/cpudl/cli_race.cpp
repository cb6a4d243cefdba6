// `diffsched race cpudl [PROGRAM] [--exhaustive ...]` (cli/cmd_race.cpp): the
// lockless-reader analysis (race.h, race_bounded.h) of the built-in heaps,
// side 0 the swap heap (reference), side 1 the hole heap (optimized).
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "io/text.h"
#include "subjects/cpudl/race.h"
#include "subjects/cpudl/race_bounded.h"

namespace diffsched::cli {

namespace {

namespace race = cpudl::race;

struct RaceOptions {
  std::string program;
  bool exhaustive = false;
  unsigned cpus = 3;
  unsigned deadlines = 2;
  std::string domain = "window";
  unsigned max_ops = 4;
  bool minimize = true;
  bool same_state = false;
  std::size_t max_bytes = io::kDefaultMaxInputBytes;
};

void print_counts(const std::vector<race::SideRace>& sides, std::uint64_t tasks) {
  fmt::print("{} tasks per op; distinct (op, task, answer) per class:\n", tasks);
  fmt::print("  {:<10} {:>8} {:>9} {:>12}", "side", "ops", "stores", "reads");
  for (std::size_t c = 0; c < race::kClassCount; ++c)
    fmt::print(" {:>10}", race::class_name(static_cast<race::ReaderClass>(c)));
  fmt::print("\n");
  for (const race::SideRace& s : sides) {
    fmt::print("  {:<10} {:>8} {:>9} {:>12}", s.name, s.ops, s.stores, s.readers);
    for (std::uint64_t n : s.counts) fmt::print(" {:>10}", n);
    fmt::print("\n");
  }
}

void print_example(const std::vector<cpudl::Op>& ops, const race::Example& e) {
  fmt::print("    at op #{} {}: {}\n", e.op_index, io::format_op(ops[e.op_index]), race::task_text(e.task));
  fmt::print("    reader answers {}\n", race::answer_text(e));
  fmt::print("    reads: {}\n", e.store_text);
}

int report(const cpudl::Config& config, const std::vector<cpudl::Op>& ops, const race::RaceResult& r,
           const std::vector<cpudl::Side*>& sides, const std::vector<race::Task>* tasks,
           bool minimize, bool same_state) {
  kernel::NrCpuIdsScope scope(config.nr_cpu_ids);
  for (const auto& [cls, kind] : r.shared)
    fmt::print("shared: {} at {} (every side)\n", race::class_name(cls), race::op_kind_name(kind));
  if (r.findings.empty()) {
    fmt::print("no finding: no side's reader reaches a class at an op kind that the "
               "reference's never does in this program\n");
    return kExitOk;
  }
  for (const race::RaceFinding& f : r.findings) {
    fmt::print("FINDING {}: side {} reaches {} at {}, the reference never does\n", f.signature,
               r.sides[f.side].name, race::class_name(f.cls), race::op_kind_name(f.op_kind));
    std::vector<cpudl::Op> shown = ops;
    race::Example e = f.example;
    if (minimize) {
      shown = race::minimize_race(config, ops, sides, f.signature, tasks, same_state);
      const race::RaceResult m = race::analyze_race(config, shown, sides, tasks, same_state);
      for (const race::RaceFinding& g : m.findings)
        if (g.signature == f.signature) e = g.example;
      fmt::print("  minimised to {} op{} (nr_cpu_ids {}):\n", shown.size(),
                 shown.size() == 1 ? "" : "s", config.nr_cpu_ids);
      for (const auto& op : shown) fmt::print("    {}\n", io::format_op(op));
    }
    print_example(shown, e);
  }
  return kExitFinding;
}

int run_program(const RaceOptions& o, const std::vector<cpudl::Side*>& sides) {
  io::LoadOptions lo;
  lo.max_bytes = o.max_bytes;
  std::optional<io::AnyProgram> any = load_input(o.program, lo);
  if (!any) return kExitBadInput;
  const auto* p = std::get_if<io::Program<cpudl::Subject>>(&*any);
  if (!p) return bad_input(fmt::format("{}: race analyses {} programs, this one is {}", o.program,
                                       cpudl::Subject::kName, io::subject_name(*any)));
  const race::RaceResult r =
      race::analyze_race(p->config, p->ops, sides, nullptr, o.same_state);
  if (!r.error.empty()) return bad_input(r.error);
  fmt::print("== diffsched race {} {}{}\n", cpudl::Subject::kName,
             o.same_state ? "--same-state " : "", o.program);
  fmt::print("{} ops, nr_cpu_ids {}; ", p->ops.size(), p->config.nr_cpu_ids);
  print_counts(r.sides, race::task_set(p->config, p->ops).size());
  return report(p->config, p->ops, r, sides, nullptr, o.minimize, o.same_state);
}

int run_exhaustive(const RaceOptions& o, const std::vector<cpudl::Side*>& sides) {
  race::RaceBounds b;
  b.cpus = o.cpus;
  b.deadlines = o.deadlines;
  b.max_ops = o.max_ops;
  b.same_state = o.same_state;
  const auto domain = verify::parse_domain(o.domain);
  if (!domain) return bad_input(fmt::format("unknown --domain '{}'", o.domain));
  b.domain = *domain;
  fmt::print("== diffsched race {} --exhaustive --cpus {} --deadlines {} --domain {} --max-ops {}{}\n",
             cpudl::Subject::kName, b.cpus, b.deadlines, o.domain, b.max_ops,
             b.same_state ? " --same-state" : "");
  std::fflush(stdout);
  const race::RaceBoundedResult r = race::race_bounded(b, sides);
  if (!r.error.empty()) return bad_input(r.error);
  fmt::print("{} states, {} (state, op) transitions; ", r.states, r.transitions);
  print_counts(r.totals, r.tasks);
  if (r.program) {
    fmt::print("SHORTEST PROGRAM with a finding, {} op{} (nr_cpu_ids {}){}:\n", r.program->size(),
               r.program->size() == 1 ? "" : "s", b.cpus,
               b.same_state ? "; its last op run on every side from the reference's state" : "");
    {
      kernel::NrCpuIdsScope scope(b.cpus);
      for (const auto& op : *r.program) fmt::print("    {}\n", io::format_op(op));
    }
    const std::vector<race::Task> tasks = race::bounded_tasks(b);
    cpudl::Config config;
    config.nr_cpu_ids = b.cpus;
    return report(config, *r.program, r.replay, sides, &tasks, false, false);
  }
  if (r.step_differences > 0) {
    fmt::print("NOT PROVED: {} (state, op) steps where a side's reader reaches a class the "
               "reference's does not from the same state; on the shortest path to each the "
               "reference reaches it elsewhere, so no program found here is a finding\n",
               r.step_differences);
    return kExitOk;
  }
  fmt::print("verified within bounds: within {} CPUs, {} heap deadlines and {} ops, the {} "
             "exposes no reader class that the {} does not, at the same op from the same "
             "state{}\n",
             b.cpus, b.deadlines, b.max_ops, r.totals.size() > 1 ? r.totals[1].name : "",
             r.totals[0].name, b.same_state ? " (every side started from the reference's)" : "");
  return kExitOk;
}

}  // namespace

std::pair<CLI::App*, Runner> add_race_cpudl(CLI::App& race) {
  auto* sub = race.add_subcommand(
      std::string(cpudl::Subject::kName),
      "cpudl_find() without cp->lock against every point between two stores of each update, "
      "swap heap (reference) vs hole heap (optimized)");
  auto o = std::make_shared<RaceOptions>();
  sub->add_option("program", o->program, "a cpudl program (.ops text or binary) to analyse");
  sub->add_flag("--exhaustive", o->exhaustive,
                "every program within the bounds instead (breadth-first; shortest finding)");
  // The bounds of --exhaustive, refused with a program (they would not apply).
  const std::vector<CLI::Option*> bounds = {
      sub->add_option("--cpus", o->cpus, "exhaustive: nr_cpu_ids (default 3)")->check(positive()),
      sub->add_option("--deadlines", o->deadlines, "exhaustive: heap deadline values (default 2)")
          ->check(positive()),
      sub->add_option("--domain", o->domain,
                      "exhaustive: window, wrap63 or wrap64 (default window)"),
      sub->add_option("--max-ops", o->max_ops, "exhaustive: program length bound (default 4)")
          ->check(positive())};
  sub->add_flag("--same-state", o->same_state,
                "start every side's update op from the reference's state (compares the "
                "heapify stores alone, as the cpudl_race fuzz target does; exhaustive: a "
                "differing step is the finding)");
  sub->add_flag("--no-minimize{false}", o->minimize, "print findings without minimising");
  add_max_input_bytes(sub, &o->max_bytes);
  return {sub, [o, bounds] {
            auto ref = cpudl::make_reference_side();
            auto opt = cpudl::make_optimized_side();
            const std::vector<cpudl::Side*> sides{ref.get(), opt.get()};
            if (o->exhaustive == !o->program.empty())
              return bad_input("race cpudl takes either a program or --exhaustive");
            for (const CLI::Option* b : bounds)
              if (!o->exhaustive && b->count() > 0)
                return bad_input(fmt::format("{} bounds --exhaustive; a program has its own "
                                             "nr_cpu_ids and ops", b->get_name()));
            return o->exhaustive ? run_exhaustive(*o, sides) : run_program(*o, sides);
          }};
}

}  // namespace diffsched::cli
