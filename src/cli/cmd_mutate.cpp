// `diffsched mutate cpudl|pick --candidate FILE`: source-level mutants of a
// kernel C file (only inside the functions under test), kernel-check on each,
// and the mutation score, time-to-kill, kill matrix and survivors (Markdown,
// --json). Exit: 0 done (score at least --min-score), 1 score below
// --min-score, 2 bad input or the original file does not pass kernel-check,
// 130/143 interrupted. The work is in src/mutate/; docs/mutation.md.
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/mutate.h"
#include "mutate/mutants.h"
#include "mutate/run.h"
#include "subject_tools.h"
#include "tools/process.h"
#include "util/json.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

struct MutateOptions {
  const SubjectTool* subject = &kCpudlTool;
  std::string candidate;
  double budget = 5;
  unsigned jobs = 1;
  std::size_t max_mutants = 0;
  std::uint64_t seed = 1;
  std::vector<std::string> operators;
  std::string json, markdown, out, harness;
  MutateFormOptions form;  // the subject's own (its package's cli_mutate.cpp)
  double min_score = -1;
  unsigned runs = 2000;
  unsigned hang_seconds = 2;  // kernel-check's type: whole seconds
  bool list = false, no_confirm = false, no_equiv = false;
  std::vector<unsigned> equiv_bounds;  // empty: the subject's default
};

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
  return out;
}

fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("diffsched") : p;
}

int run_mutate(const MutateOptions& o) {
  const std::string text = util::read_text(o.candidate);
  if (text.empty()) return bad_input(fmt::format("{}: empty or unreadable", o.candidate));
  std::vector<mutate::Operator> ops;
  for (const auto& name : o.operators) ops.push_back(*mutate::operator_from_name(name));
  if (ops.empty()) ops.assign(std::begin(mutate::kAllOperators), std::end(mutate::kAllOperators));
  const SubjectTool& subject = *o.subject;
  if (mutate::functions_under_test(mutate::tokenize(text), subject, o.form.function).empty())
    return bad_input(fmt::format("{} defines no {}", o.candidate,
                                 mutate_scope(subject, o.form.function)));
  auto all = mutate::generate(text, subject, o.form.function, ops);
  const std::size_t generated = all.size();
  auto mutants = mutate::sample(std::move(all), o.max_mutants, o.seed);
  if (mutants.empty())
    return bad_input(fmt::format("no mutants of {} with operators {}", o.candidate,
                                 join(o.operators, ",")));
  if (o.list) {
    for (const auto& m : mutants)
      fmt::print("{} {} {}:{} {}\n{}", m.id, mutate::operator_name(m.op), m.function, m.line,
                 m.description, m.diff);
    fmt::print("{} of {} mutants\n", mutants.size(), generated);
    return kExitOk;
  }
  mutate::MutateSettings ro;
  ro.self = self_exe();
  ro.subject = o.subject;
  ro.candidate = fs::absolute(o.candidate);
  ro.function = o.form.function;
  ro.api = o.form.api;
  if (!o.form.header.empty())
    ro.header = fs::absolute(o.form.header);
  else  // what kernel-check would stage beside it, if anything (its package's)
    with_tool_subject(subject, [&]<class S>(std::type_identity<S>) {
      ro.header = mutate_header_beside<S>(ro.candidate);
    });
  // A file with a capacity branch in cpudl_find() (v5.9+ and its backports):
  // without --capacity the branch is dead code and its mutants survive.
  if (subject.capacities) {
    const bool branch = text.find("sched_asym_cpucap") != std::string::npos ||
                        text.find("dl_task_fits_capacity") != std::string::npos;
    ro.capacity = o.form.capacity == "auto" ? (branch ? "1024,512" : "")
                  : o.form.capacity == "off" ? ""
                                             : o.form.capacity;
  }
  ro.budget = o.budget;
  ro.runs = o.runs;
  ro.jobs = o.jobs;
  ro.seed = o.seed;
  ro.hang_seconds = o.hang_seconds;
  ro.confirm_survivors = !o.no_confirm;
  if (!o.no_equiv) {
    ro.equiv_bounds = o.equiv_bounds;
    if (ro.equiv_bounds.empty())
      ro.equiv_bounds.assign(subject.equiv_bounds.begin(), subject.equiv_bounds.end());
    if (std::string why = check_equiv_bounds(subject, ro.equiv_bounds); !why.empty())
      return bad_input(why);
  }
  if (!o.harness.empty()) ro.harness = fs::absolute(o.harness);
  std::error_code ec;
  if (o.out.empty()) {
    ro.out = util::make_temp_dir(mutate::kOutTemplate);
    if (ro.out.empty()) return bad_input("cannot create a temporary directory for --out");
  } else {
    ro.out = fs::absolute(o.out);
    fs::create_directories(ro.out, ec);
    if (ec || !fs::is_directory(ro.out, ec))
      return bad_input(fmt::format("--out {}: cannot create the directory", o.out));
  }
  fmt::print("mutate {}: {} mutants of {} ({} generated), budget {} s each, {} jobs, out {}{}\n",
             subject.name, mutants.size(), o.candidate, generated, o.budget, o.jobs,
             ro.out.string(),
             ro.capacity.empty()
                 ? ""
                 : fmt::format("\n  capacity branch: --capacity {} against the original file",
                               ro.capacity));
  // The original must pass: a finding there would kill every mutant. Its
  // run also builds the harness on first use; the mutants then use it as is.
  {
    mutate::MutateSettings orig = ro;
    orig.confirm_survivors = false;
    mutate::Mutant self{"original", mutate::Operator::kRelational, "", 0, "", "", text};
    orig.harness = ro.harness.empty() ? fs::path() : ro.harness;
    bool interrupted = false;
    auto r = mutate::run_mutants({self}, orig, &interrupted);
    if (interrupted) return mutate::interrupt_status();
    if (r[0].status != mutate::Status::kSurvived)
      return bad_input(fmt::format("the original {} does not pass kernel-check ({}{}); see {}",
                                   o.candidate, mutate::status_name(r[0].status),
                                   r[0].status == mutate::Status::kKilled ? ": a finding"
                                   : r[0].detail.empty()                  ? ""
                                                                          : ": " + r[0].detail,
                                   r[0].log.string()));
    fmt::print("  the original passes kernel-check ({:.1f} s)\n", r[0].seconds);
    // "" where the subject has no such form (its verdict says none)
    ro.find_returns = mutate::detected_find_returns(util::read_text(r[0].verdict));
  }
  bool interrupted = false;
  mutate::Report rep;
  rep.subject = o.subject;
  rep.candidate = o.candidate;
  rep.generated = generated;
  rep.options = ro;
  rep.outcomes = mutate::run_mutants(mutants, ro, &interrupted);
  rep.mutants = std::move(mutants);
  if (interrupted) {
    fmt::print(stderr, "diffsched: interrupted; no report\n");
    return mutate::interrupt_status();
  }
  const std::string md = rep.markdown();
  std::string why;
  if (!o.markdown.empty() && !io::write_file(o.markdown, md, &why)) return bad_input(why);
  fmt::print("\n{}", md);
  // Made whole before the file is opened: any bytes of a mutated line (util/json.h).
  if (!o.json.empty() && !io::write_file(o.json, util::dump_json(rep.json(), 2) + "\n", &why))
    return bad_input(why);
  const double score = rep.score();
  if (o.min_score >= 0) {
    if (score < 0) return bad_input("no mutant could be scored (all compile errors or equivalent)");
    if (100 * score < o.min_score) {
      fmt::print("mutation score {:.1f}% is below --min-score {}\n", 100 * score, o.min_score);
      return kExitFinding;
    }
  }
  return kExitOk;
}

}  // namespace

Runner add_mutate(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "mutate",
      "Mutation testing of the checks: source-level mutants of a kernel C file (only in the "
      "functions under test), kernel-check on each, the mutation score, time-to-kill and kill "
      "matrix (exit 0 done, 1 score below --min-score, 2 bad input)");
  sub->require_subcommand(1);
  std::vector<std::pair<CLI::App*, std::shared_ptr<MutateOptions>>> subs;
  for (const SubjectTool* tool : kSubjectTools) {
    auto o = std::make_shared<MutateOptions>();
    o->subject = tool;
    auto* cmd = sub->add_subcommand(std::string(tool->name), std::string(tool->mutate_help));
    cmd->add_option("--candidate", o->candidate, "the kernel C file")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--budget", o->budget, "seconds of fuzzing per mutant (kernel-check --time)")
        ->check(CLI::Range(0.0, 3600.0));
    cmd->add_option("--jobs", o->jobs, "mutants checked in parallel")->check(CLI::Range(1u, 256u));
    cmd->add_option("--max-mutants", o->max_mutants,
                    "run at most N mutants, sampled with --seed (0: all)");
    // kernel-check's --seed is unsigned, and a survivor's confirmation run
    // takes seed + 1: both must fit, never be cut short silently.
    cmd->add_option("--seed", o->seed, "sampling and kernel-check seed")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{std::numeric_limits<unsigned>::max()} - 1));
    std::vector<std::string> names;
    for (auto op : mutate::kAllOperators) names.emplace_back(mutate::operator_name(op));
    cmd->add_option("--operators", o->operators,
                    "comma-separated operators (default all): " + join(names, ","))
        ->delimiter(',')
        ->check(CLI::IsMember(names));
    cmd->add_option("--json", o->json, "write the JSON report here")->check(output_file());
    cmd->add_option("--markdown", o->markdown, "write the Markdown report here too")
        ->check(output_file());
    cmd->add_option("--out", o->out, "directory for the mutants and their logs (default: a new "
                                     "temporary directory)");
    cmd->add_option("--min-score", o->min_score,
                    "exit 1 when the mutation score (percent) is below this")
        ->check(CLI::Range(0.0, 100.0));
    cmd->add_option("--runs", o->runs, "random programs of each property run (kernel-check --runs)");
    cmd->add_option("--hang-seconds", o->hang_seconds, "kernel-check --hang-seconds per mutant")
        ->check(CLI::Range(1u, 3600u));
    cmd->add_option("--harness", o->harness, "kernel-check --harness PATH");
    cmd->add_flag("--list", o->list, "only list the (sampled) mutants with their diffs");
    cmd->add_flag("--no-confirm", o->no_confirm,
                  "no second run (3x budget, another seed) for a survivor");
    cmd->add_option("--equiv-bounds", o->equiv_bounds, std::string(tool->equiv_bounds_help))
        ->check(CLI::Range(1u, 8u));
    cmd->add_flag("--no-equiv", o->no_equiv, "no exhaustive check of the survivors")
        ->excludes("--equiv-bounds");
    with_tool_subject(*tool, [&]<class S>(std::type_identity<S>) {
      add_mutate_form_options<S>(*cmd, o->form);
    });
    subs.emplace_back(cmd, o);
  }
  return [subs] {
    for (const auto& [cmd, o] : subs)
      if (cmd->parsed()) return run_mutate(*o);
    return kExitBadInput;
  };
}

}  // namespace diffsched::cli
