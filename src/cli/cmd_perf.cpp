// `diffsched perf fn ...` is `diffsched fn ...` with --search-worst 100 by
// default (the worst input of a kernel C function pair, docs/fn.md "Cost").
// `diffsched perf cpudl|pick`: searches, per nr_cpu_ids, for the inputs on
// which the optimized side costs most (worst) and least (best) relative to
// the reference, by counted cost (src/perf/: cost.h, search.h); minimises
// each while it keeps >= 90% of its ratio, writes it as .ops, re-times it
// on the clock, and prints a table (--json, --plot). With --replay it prints
// (and with '# perf-expect:' lines checks) the counted costs of .ops files.
//
// Exit status: 0 ok; 1 when a worst ratio exceeds --max-ratio, a behavioural
// finding was met, or a replayed file's counts differ from its perf-expect
// lines; 3 when a replayed file leaves the 2^63 deadline window (no verdict;
// a 1 in another file wins); 2 bad input (unknown subject, metric, side or flag, bad --cpus list,
// unreadable file) or an output that cannot be written.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "io/program.h"
#include "perf/run.h"
#include "tools/process.h"
#include "util/json.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

struct PerfOptions {
  std::string subject;                // the word given
  const SubjectTool* tool = nullptr;  // it resolved (run_perf)
  std::optional<std::string> cpus;    // given or not ("" is a bad list)
  std::optional<std::string> metric;
  std::string side = "all";
  perf::u64 runs = 4000;
  double time = 0;
  perf::u64 seed = 1;
  std::size_t max_ops = 0;
  double max_ratio = 0;  // 0: no gate
  std::string json;
  std::string plot;
  std::string out = "perf-out";
  unsigned jobs = 1;
  bool no_clock = false;
  bool no_best = false;
  std::vector<std::string> replay;
};

// "8,64,256" -> {8, 64, 256}; each in 1..NR_CPUS, none twice.
bool parse_cpus(const std::string& text, std::vector<unsigned>* out, std::string* error) {
  out->clear();
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string item(util::trim(rest.substr(0, comma)));
    std::uint64_t v = 0;
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        item.size() > 6 || (v = std::stoull(item)) < 1 || v > kernel::NR_CPUS) {
      *error = fmt::format("bad --cpus list '{}': '{}' is not a number of CPUs in 1..{}", text,
                           io::excerpt(item, 20), kernel::NR_CPUS);
      return false;
    }
    if (std::find(out->begin(), out->end(), v) != out->end()) {
      *error = fmt::format("bad --cpus list '{}': {} is listed twice", text, v);
      return false;
    }
    out->push_back(static_cast<unsigned>(v));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return true;
}

// '# perf-expect: SIDE METRIC REFERENCE COST' lines of a .ops text.
struct Expect {
  std::string side, metric;
  perf::u64 reference = 0, cost = 0;
};
std::vector<Expect> perf_expectations(const std::string& text) {
  std::vector<Expect> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    constexpr std::string_view kTag = "# perf-expect:";
    if (!line.starts_with(kTag)) continue;
    std::istringstream fields(line.substr(kTag.size()));
    Expect e;
    if (fields >> e.side >> e.metric >> e.reference >> e.cost) out.push_back(e);
    else out.push_back(Expect{"?", line, 0, 0});
  }
  return out;
}

int report_search(const PerfOptions& o, perf::Metric metric, const std::vector<unsigned>& cpus) {
  perf::PerfSettings ro;
  ro.subject = o.tool;
  ro.metric = metric;
  ro.cpus = cpus;
  ro.side = o.side;
  ro.runs = o.runs;
  ro.seconds = o.time;
  ro.seed = o.seed;
  ro.max_ops = o.max_ops;
  ro.jobs = o.jobs;
  ro.clock = !o.no_clock;
  ro.best = !o.no_best;
  ro.out = o.out;
  ro.self = self_command();
  std::string error;
  const std::optional<perf::Report> r = perf::run(ro, &error);
  if (!r) return bad_input(error);
  const perf::Report& report = *r;
  fmt::print("{}", perf::format_table(report));
  fmt::print("\nguided: in-process mutation loop with per-op cost-class features; random: "
             "fresh inputs from the same generator, same number of evaluations.\n");
  for (const std::string& f : report.findings) fmt::print("FINDING {}\n", f);
  if (!o.json.empty()) {
    std::string why;
    if (!io::write_file(o.json, util::dump_json(perf::to_json(report), 2) + "\n", &why))
      return bad_input(why);
  }
  if (!o.plot.empty()) {
    const fs::path gnuplot = tools::find_program("gnuplot");
    if (gnuplot.empty()) return bad_input("gnuplot not found on PATH (needed for --plot)");
    const std::string script = o.plot + ".gp";
    if (std::string why; !io::write_file(script, perf::gnuplot_script(report, fs::absolute(o.plot).string()), &why))
      return bad_input(why);
    if (tools::run({.argv = {gnuplot.string(), script}}) != 0)
      return bad_input(fmt::format("gnuplot failed on {}", script));
    fmt::print("plot: {} (script {})\n", o.plot, script);
  }
  int status = report.findings.empty() ? kExitOk : kExitFinding;
  if (o.max_ratio > 0) {
    for (const perf::Row& row : report.worst) {
      if (row.ratio <= o.max_ratio) continue;
      fmt::print("OVER --max-ratio {}: {} at {} CPUs is {:.3f}x the reference ({})\n",
                 o.max_ratio, row.side, row.cpus, row.ratio, perf::metric_name(metric));
      status = kExitFinding;
    }
  }
  return status;
}


template <class S>
int replay_one(perf::Metric metric, const io::Program<S>& p,
               const std::string& path, const std::string& text) {
  const perf::Evaluation e = perf::evaluate<S>(std::span<const typename S::Op>(p.ops), p.config);
  const auto names = perf::side_names(tool_of<S>());
  int status = kExitOk;
  fmt::print("{}: {} ops, {} CPUs, metric {}: {} {}", path, p.ops.size(), p.config.nr_cpu_ids,
             perf::metric_name(metric), names[0], e.cost(metric, 0));
  for (std::size_t s = 1; s < names.size(); ++s)
    fmt::print(", {} {} (ratio {:.3f})", names[s], e.cost(metric, s),
               perf::ratio(e.cost(metric, s), e.cost(metric, 0)));
  fmt::print("\n");
  if (e.verdict.finding && e.verdict.finding->kind == FindingKind::kOutOfDomain) {
    // Live deadlines outside one 2^63 window: no verdict, and counts only up
    // to that op (replay's status 3).
    fmt::print("OUT OF DOMAIN at op {} (counted up to it): {}\n", e.verdict.finding->op_index,
               e.verdict.finding->detail);
    status = kExitOutOfDomain;
  } else if (e.verdict.finding) {
    fmt::print("FINDING {} at op {}: {}\n", e.verdict.finding->signature(),
               e.verdict.finding->op_index, e.verdict.finding->detail);
    status = kExitFinding;
  }
  for (const Expect& x : perf_expectations(text)) {
    const auto side = std::find(names.begin(), names.end(), x.side);
    const auto m = perf::parse_metric(tool_of<S>(), x.metric);
    if (side == names.begin() || side == names.end() || !m) {
      fmt::print(stderr, "diffsched: error: {}: bad '# perf-expect:' line (want: SIDE METRIC "
                         "REFERENCE COST, SIDE one of the non-reference sides)\n", path);
      return kExitBadInput;
    }
    const std::size_t si = static_cast<std::size_t>(side - names.begin());
    const perf::u64 ref = e.cost(*m, 0), cost = e.cost(*m, si);
    if (ref == x.reference && cost == x.cost) {
      fmt::print("  expect {} {}: reference {}, {} {}: ok\n", x.side, x.metric, ref, x.side, cost);
    } else {
      fmt::print("  MISMATCH {} {}: expected reference {}, {} {}; counted {} and {}\n", x.side,
                 x.metric, x.reference, x.side, x.cost, ref, cost);
      status = kExitFinding;
    }
  }
  return status;
}

int run_replay(const PerfOptions& o, perf::Metric metric) {
  int status = kExitOk;
  for (const std::string& path : o.replay) {
    std::string error;
    auto program = io::load_program(path, io::LoadOptions{}, &error);
    if (!program) return bad_input(error);
    if (io::subject_name(*program) != o.tool->name)
      return bad_input(fmt::format("{} is a {} input, not {}", path, io::subject_name(*program),
                                   o.tool->name));
    const std::string text = util::read_text(path);
    const int s = std::visit(
        [&]<class S>(const io::Program<S>& p) -> int {
          if constexpr (kIsToolSubject<S>)
            return replay_one<S>(metric, p, path, text);
          else
            return kExitBadInput;
        },
        *program);
    if (s == kExitBadInput) return s;
    // A finding or a mismatch (1) wins over out of domain (3), as in replay.
    if (s == kExitFinding || status == kExitOk) status = s;
  }
  return status;
}

int run_perf(PerfOptions& o) {
  o.tool = find_subject_tool(o.subject);  // the name resolved, once (IsMember checked it)
  if (o.tool == nullptr) return bad_input(fmt::format("perf: no subject {}", o.subject));
  const SubjectTool& tool = *o.tool;
  const auto metric = !o.metric ? std::optional(perf::default_metric(tool))
                                : perf::parse_metric(tool, *o.metric);
  if (!metric)
    return bad_input(fmt::format("unknown --metric '{}' for {} (known: {})", *o.metric, tool.name,
                                 perf::metric_names(tool)));
  if (o.side != "all" && perf::sides_of(tool, o.side).empty()) {
    std::string known;
    for (auto n : perf::side_names(tool).subspan(1)) known += std::string(n) + ", ";
    return bad_input(fmt::format("unknown --side '{}' for {} (known: {}all)", o.side, tool.name,
                                 known));
  }
  if (!o.replay.empty()) return run_replay(o, *metric);
  std::vector<unsigned> cpus(tool.perf_cpus.begin(), tool.perf_cpus.end());
  std::string error;
  if (o.cpus && !parse_cpus(*o.cpus, &cpus, &error)) return bad_input(error);
  return report_search(o, *metric, cpus);
}

// Help text from the descriptors: "cpudl X; pick Y".
template <class F>
std::string per_subject(F&& f) {
  std::string out;
  for (const SubjectTool* t : kSubjectTools)
    out += fmt::format("{}{} {}", out.empty() ? "" : "; ", t->name, f(*t));
  return out;
}

std::string joined(auto&& items) { return fmt::format("{}", fmt::join(items, ",")); }

}  // namespace

Runner add_perf(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "perf",
      "Search for the inputs where the optimized side costs most (and least) relative to the "
      "reference, by counted cost; minimise, re-time on the clock, report (docs/bench.md)");
  auto o = std::make_shared<PerfOptions>();
  // `perf fn ...`: fn's own flags, with its worst-input search on (cmd_fn.cpp).
  const Runner fn_runner = add_perf_fn(*sub);
  CLI::App* fn_sub = sub->get_subcommands({}).back();
  sub->require_subcommand(0, 1);
  sub->add_option("subject", o->subject, subject_tool_names())
      ->check(CLI::IsMember([] {
        std::vector<std::string> words;
        for (std::string_view w : subject_tool_words()) words.emplace_back(w);
        return words;
      }()));
  sub->add_option("--cpus", o->cpus,
                  fmt::format("nr_cpu_ids values, each its own search (default {})",
                              per_subject([](const SubjectTool& t) { return joined(t.perf_cpus); })))
      ->type_name("N,...");
  sub->add_option("--metric", o->metric,
                  fmt::format("counted cost (docs/bench.md; the first is the default): {}",
                              per_subject([](const SubjectTool& t) {
                                return fmt::format("{}", fmt::join(t.perf_metrics, ", "));
                              })))
      ->type_name("M");
  sub->add_option("--side", o->side,
                  fmt::format("side measured against the reference, or all (default): {}",
                              per_subject([](const SubjectTool& t) {
                                return fmt::format("{}", fmt::join(t.perf_sides.subspan(1), ", "));
                              })))
      ->type_name("SIDE");
  sub->add_option("--runs", o->runs, "evaluations per search and strategy (default 4000)")
      ->check(positive());
  sub->add_option("--time", o->time,
                  "wall-clock budget in seconds for all searches together (default: none; "
                  "--runs bounds each search)")
      ->check(non_negative())
      ->type_name("S");
  sub->add_option("--seed", o->seed, "random seed (default 1); runs are deterministic per seed");
  sub->add_option("--max-ops", o->max_ops,
                  fmt::format("longest input (default {})", per_subject([](const SubjectTool& t) {
                                return std::to_string(t.perf_max_ops);
                              })))
      ->check(positive());
  sub->add_option("--max-ratio", o->max_ratio,
                  "exit 1 when a worst ratio exceeds R (the CI gate)")
      ->check(positive())
      ->type_name("R");
  sub->add_option("--json", o->json, "write the report as JSON to FILE")
      ->check(output_file())
      ->type_name("FILE");
  sub->add_option("--plot", o->plot, "draw worst/best ratio vs nr_cpu_ids with gnuplot")
      ->check(output_file())
      ->type_name("FILE.png");
  sub->add_option("--out", o->out, "directory for the minimised .ops reproducers (default perf-out)")
      ->type_name("DIR");
  sub->add_option("--jobs", o->jobs, "searches run in parallel threads (default 1)")
      ->check(positive());
  sub->add_flag("--no-clock", o->no_clock, "skip the clock confirmation");
  sub->add_flag("--no-best", o->no_best, "search only the worst case");
  sub->add_option("--replay", o->replay,
                  "print the counted costs of these .ops files (and check their "
                  "'# perf-expect:' lines) instead of searching")
      ->type_name("FILE...");
  sub->parse_complete_callback([o] { check_outputs({o->json, o->plot}, o->replay); });
  return [o, fn_runner, fn_sub] {
    if (fn_sub->parsed()) return fn_runner();
    if (o->subject.empty())
      return bad_input(fmt::format("perf: give a subject ({}) or fn", subject_tool_names()));
    return run_perf(*o);
  };
}

}  // namespace diffsched::cli
