#include "perf/run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "io/program.h"
#include "perf/clock.h"
#include "perf/search.h"
#include "util/text.h"

namespace diffsched::perf {

namespace fs = std::filesystem;

std::vector<std::size_t> sides_of(const SubjectTool& subject, const std::string& side) {
  const auto names = side_names(subject);
  std::vector<std::size_t> out;
  for (std::size_t i = 1; i < names.size(); ++i)
    if (side == "all" || side == names[i]) out.push_back(i);
  return out;
}

std::string replay_command(const std::string& self, const SubjectTool& subject, Metric metric,
                           const std::string& file) {
  return fmt::format("{} perf {} --metric {} --replay {}", self, subject.name, metric_name(metric),
                     util::shell_path(file));
}

namespace {

template <class S>
struct Task {
  SearchOptions options;
  SearchResult<S> guided, random;
};

template <class S>
std::optional<Report> run_subject(const PerfSettings& o, std::string* error) {
  const Metric metric = o.metric;
  const std::vector<unsigned>& cpus = o.cpus;
  using Op = typename S::Op;
  const auto names = side_names(*o.subject);
  std::vector<Task<S>> tasks;
  for (unsigned n : cpus)
    for (std::size_t side : sides_of(*o.subject, o.side))
      for (bool worst : {true, false}) {
        if (!worst && !o.best) continue;
        SearchOptions so;
        so.cpus = n;
        so.metric = metric;
        so.side = side;
        so.worst = worst;
        so.runs = o.runs;
        so.seed = o.seed;
        so.max_ops = o.max_ops;
        so.stop = o.stop;
        tasks.push_back({so, {}, {}});
      }
  // --time: the whole search's wall-clock budget, shared by every search.
  const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(tasks.size())));
  const double per_search =
      o.seconds > 0 ? o.seconds * jobs / (2.0 * static_cast<double>(tasks.size())) : 0.0;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    Evaluator<S> ev;
    for (std::size_t i; (i = next++) < tasks.size();) {
      Task<S>& t = tasks[i];
      t.options.seconds = per_search;
      SearchOptions ro = t.options;
      ro.guided = false;
      t.random = search(ro, ev);
      // The guided search gets as many evaluations as random generation made.
      t.options.runs = std::min(t.options.runs, std::max<u64>(t.random.runs, 1));
      t.guided = search(t.options, ev);
      minimise(t.options, ev, &t.guided);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();

  if (!o.out.empty()) {
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) {
      *error = fmt::format("cannot create --out {}: {}", o.out, ec.message());
      return std::nullopt;
    }
  }
  Report report{o.subject, metric, {}, {}, {}};
  for (Task<S>& t : tasks) {
    const std::size_t side = t.options.side;
    Row row;
    row.cpus = t.options.cpus;
    row.side = std::string(names[side]);
    row.worst = t.options.worst;
    const auto& g = t.guided;
    row.reference = g.evaluation.sides.empty() ? 0 : g.evaluation.cost(metric, 0);
    row.optimized = g.evaluation.sides.empty() ? 0 : g.evaluation.cost(metric, side);
    row.ratio = g.ratio;
    row.ops = g.ops.size();
    row.found_ratio = g.found_ratio;
    row.found_ops = g.found_ops;
    row.runs = g.runs;
    row.corpus = g.corpus;
    row.features = g.features;
    row.minimal = g.minimal;
    row.random_ratio = t.random.ratio;
    if (!t.random.evaluation.sides.empty()) {
      row.random_reference = t.random.evaluation.cost(metric, 0);
      row.random_optimized = t.random.evaluation.cost(metric, side);
    }
    row.random_runs = t.random.runs;
    for (const auto* r : {&t.guided, &t.random}) {
      if (!r->finding) continue;
      report.findings.push_back(fmt::format(
          "{} CPUs, {} search: {} at op {} ({}): {}", row.cpus, r == &t.guided ? "guided" : "random",
          r->finding->signature(), r->finding->op_index, r->finding->op_text,
          r->finding->detail));
    }
    if (!o.out.empty() && !g.ops.empty()) {
      const std::string file = (fs::path(o.out) / fmt::format("{}-{}-{}-{}.ops",
                                                               row.worst ? "worst" : "best",
                                                               o.subject->name, row.cpus, row.side))
                                   .string();
      io::Program<S> p;
      p.config = typename S::Config{row.cpus};
      p.ops = g.ops;
      std::ofstream f(file);
      f << fmt::format("# diffsched perf: {} case of {} against the reference at {} CPUs.\n"
                       "# Counted {}: reference {}, {} {}, ratio (side + 1) / (reference + 1) "
                       "= {:.3f}.\n# Reproduce: {}\n",
                       row.worst ? "worst" : "best", row.side, row.cpus,
                       metric_name(metric), row.reference, row.side, row.optimized,
                       row.ratio, replay_command(o.self, *o.subject, metric, file));
      f << fmt::format("# perf-expect: {} {} {} {}\n", row.side, metric_name(metric),
                       row.reference, row.optimized);
      f << io::format_program(io::AnyProgram(p));
      if (!f) {
        *error = fmt::format("cannot write {}", file);
        return std::nullopt;
      }
      row.reproducer = file;
      row.command = replay_command(o.self, *o.subject, metric, file);
    }
    if (o.clock && !g.ops.empty())
      row.clock =
          time_input<S>(std::span<const Op>(g.ops), typename S::Config{row.cpus}, side, {});
    (row.worst ? report.worst : report.best).push_back(std::move(row));
  }
  return report;
}

}  // namespace

std::optional<Report> run(const PerfSettings& o, std::string* error) {
  std::optional<Report> report;
  with_tool_subject(*o.subject,
                    [&]<class S>(std::type_identity<S>) { report = run_subject<S>(o, error); });
  return report;
}

}  // namespace diffsched::perf
