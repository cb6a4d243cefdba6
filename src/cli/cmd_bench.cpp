// `diffsched bench [--quick] [--json FILE] [--plot FILE.png]`: runs the
// benchmark binaries of the build (bench/ next to this binary), callgrind and
// the instrumented build, then prints the claims table and the per-size
// tables (src/tools/bench_report.h states the verdict rules).
//
// Steps, each a child process whose output goes to a log in a temp directory:
//   1 bench_cpudl, bench_pick: wall clock, P processes each (alternating
//     between the two binaries) of R repetitions; the repetitions of all P
//     processes are pooled, so the spread includes what differs from one
//     process to the next (ASLR, stack offset, physical pages), which moves a
//     median ratio by 1-2% on its own
//   2 bench_cpudl_counts: exact load/store/compare counts
//   3 valgrind --tool=callgrind ... bench_cpudl --icount (and bench_pick)
//   4 bench/pick.su, written by the build (-fstack-usage)
//   5 gnuplot, when --plot is given
// `--ttb` runs the time-to-bug benchmark instead (cli/bench_ttb.h).
// Exit status: 0 when every step ran (whatever the verdicts), 2 when a binary
// or tool is missing, a step fails, or an output cannot be written.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cli/bench_ttb.h"
#include "cli/bench_workdir.h"
#include "cli/commands.h"
#include "tools/bench_report.h"
#include "tools/process.h"
#include "util/json.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

struct BenchOptions {
  bool quick = false;
  bool smoke = false;
  std::string json;
  std::string plot;
  std::string bench_dir;
  bool ttb = false;
  TtbOptions ttb_options;
};

// Wall-clock settings: processes x repetitions x --benchmark_min_time.
struct Mode {
  const char* name;
  int processes;
  int repetitions;
  double min_time_s;
};
constexpr Mode kFull{"full", 10, 6, 0.3};
constexpr Mode kQuick{"quick", 5, 5, 0.1};
constexpr Mode kSmoke{"smoke", 1, 1, 0};  // --single-iteration: one iteration per benchmark

struct Error {
  std::string message;
};

using tools::find_program;
using util::read_text;

class BenchRun {
 public:
  BenchRun(const BenchOptions& o, BenchBinaries bench_dir, BenchTemp tmp)
      : o_(o), mode_(o.smoke ? kSmoke : o.quick ? kQuick : kFull), dir_(std::move(bench_dir)),
        tmp_(std::move(tmp)) {}

  tools::BenchInputs collect(const fs::path& valgrind) {
    tools::BenchInputs in;
    for (int p = 0; p < mode_.processes; ++p) {
      merge(&in.cpudl_time, wall_clock("bench_cpudl", "cpudl_set/cpus:16/ops:1000(/|$)", p));
      merge(&in.pick_time, wall_clock("bench_pick", "pick/seed/nr:8(/|$)", p));
    }
    in.cpudl_counts = gbench("bench_cpudl_counts", {}, "exact counts");
    for (const char* b : {"bench_cpudl", "bench_pick"}) {
      const auto parts = callgrind(valgrind, b);
      in.icount.insert(in.icount.end(), parts.begin(), parts.end());
    }
    in.stack = tools::parse_stack_usage(read_text(dir_.stack_usage()));
    return in;
  }

  void plot(const tools::Report& r, const fs::path& gnuplot, const std::string& png) {
    const fs::path script = tmp_.gnuplot_script();
    std::string why;
    if (!io::write_file(script.string(), tools::gnuplot_script(r, png), &why)) throw Error{why};
    step("gnuplot", {gnuplot.string(), script.string()}, "plot");
  }

  nlohmann::json meta() const {
    return {{"mode", mode_.name},
            {"processes", mode_.processes},
            {"repetitions_per_process", mode_.repetitions},
            {"min_time_s", mode_.min_time_s},
            {"commands", commands_}};
  }

 private:
  static void merge(tools::GbenchRuns* into, tools::GbenchRuns from) {
    for (const std::string& name : from.order) {
      auto [it, added] = into->reps.try_emplace(name);
      if (added) into->order.push_back(name);
      auto& reps = from.reps.at(name);
      it->second.insert(it->second.end(), reps.begin(), reps.end());
    }
  }

  tools::GbenchRuns wall_clock(const std::string& binary, const std::string& smoke_filter,
                               int process) {
    std::vector<std::string> args;
    if (o_.smoke) {
      args = {"--single-iteration", "--benchmark_filter=" + smoke_filter};
    } else {
      args = {fmt::format("--benchmark_repetitions={}", mode_.repetitions),
              fmt::format("--benchmark_min_time={}", mode_.min_time_s)};
    }
    return gbench(binary, args,
                  fmt::format("wall clock, process {} of {}, {} repetitions x {} s", process + 1,
                              mode_.processes, mode_.repetitions, mode_.min_time_s),
                  fmt::format(".{}", process));
  }

  tools::GbenchRuns gbench(const std::string& binary, std::vector<std::string> args,
                           const std::string& what, const std::string& suffix = "") {
    const fs::path out = tmp_.gbench_json(binary, suffix);
    std::vector<std::string> argv{dir_.binary(binary).string(), "--benchmark_out_format=json",
                                  "--benchmark_out=" + out.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    step(binary + suffix, argv, what);
    std::string error;
    auto runs = tools::parse_gbench_json(read_text(out), &error);
    if (!runs) throw Error{fmt::format("{}: {}", out.string(), error)};
    return *runs;
  }

  std::vector<tools::CallgrindPart> callgrind(const fs::path& valgrind, const std::string& binary) {
    const std::string prefix = BenchTemp::callgrind_prefix(binary);
    std::vector<std::string> argv{valgrind.string(), "--tool=callgrind", "--collect-atstart=no",
                                  "--callgrind-out-file=" + tmp_.callgrind_out(binary).string(),
                                  dir_.binary(binary).string(), "--icount"};
    if (o_.smoke) argv.push_back("--smoke");
    step(binary + ".callgrind", argv, "callgrind instruction counts");
    std::vector<tools::CallgrindPart> parts;
    for (const auto& entry : fs::directory_iterator(tmp_.dir)) {
      if (!entry.path().filename().string().starts_with(prefix)) continue;
      if (auto p = tools::parse_callgrind_part(read_text(entry.path()))) parts.push_back(*p);
    }
    if (parts.empty())
      throw Error{fmt::format("callgrind wrote no regions for {} (see {})", binary,
                              tmp_.step_log(binary + ".callgrind").string())};
    return parts;
  }

  void step(const std::string& name, const std::vector<std::string>& argv,
            const std::string& what) {
    const fs::path log = tmp_.step_log(name);
    fmt::print(stderr, "diffsched bench: {} ({})...\n", name, what);
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    commands_.push_back(cmd);
    const auto t0 = std::chrono::steady_clock::now();
    const int status = tools::run({.argv = argv, .log = log});
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (status != kExitOk)
      throw Error{fmt::format("{} failed (exit {}) after {:.1f} s; last lines of {}:\n{}", name,
                              status, s, log.string(), tools::tail_file(log, 5))};
    fmt::print(stderr, "diffsched bench: {} done in {:.1f} s\n", name, s);
  }

  const BenchOptions& o_;
  Mode mode_;
  BenchBinaries dir_;
  BenchTemp tmp_;
  std::vector<std::string> commands_;
};

std::string host_cpu() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("model name")) {
      const size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

bool parent_exists(const std::string& file) {
  const fs::path parent = fs::absolute(file).parent_path();
  std::error_code ec;
  return fs::is_directory(parent, ec);
}

int run_bench(const BenchOptions& o) {
  // Everything that can be checked before minutes of measuring is checked first.
  fs::path dir = o.bench_dir;
  if (dir.empty()) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    dir = BenchBinaries::beside(ec ? fs::current_path() : self.parent_path()).dir;
  }
  for (const char* f : {"bench_cpudl", "bench_pick", "bench_cpudl_counts"})
    if (const fs::path binary = BenchBinaries{dir}.binary(f); ::access(binary.c_str(), X_OK) != 0)
      return bad_input(fmt::format(
          "benchmark binary {} not found (build the bench targets: cmake --build --preset "
          "default, or pass --bench-dir)",
          binary.string()));
  if (const fs::path su = BenchBinaries{dir}.stack_usage(); !fs::exists(su))
    return bad_input(fmt::format("{} not found (built with the bench targets)", su.string()));
  const fs::path valgrind = find_program("valgrind");
  if (valgrind.empty())
    return bad_input("valgrind not found on PATH (needed for instruction counts; apt-get "
                     "install valgrind, or scripts/install-deps.sh)");
  fs::path gnuplot;
  if (!o.plot.empty()) {
    gnuplot = find_program("gnuplot");
    if (gnuplot.empty())
      return bad_input("gnuplot not found on PATH (needed for --plot; apt-get install "
                       "gnuplot-nox, or scripts/install-deps.sh)");
    if (!parent_exists(o.plot)) return bad_input(fmt::format("cannot write {}: no such directory", o.plot));
  }
  if (!o.json.empty() && !parent_exists(o.json))
    return bad_input(fmt::format("cannot write {}: no such directory", o.json));

  const fs::path tmp = util::make_temp_dir(BenchTemp::kTemplate);
  if (tmp.empty()) return bad_input("cannot create a temporary directory");

  const auto t0 = std::chrono::steady_clock::now();
  BenchRun bench(o, {dir}, {tmp});
  try {
    const tools::BenchInputs in = bench.collect(valgrind);
    std::string error;
    const auto report = tools::analyse(in, &error);
    if (!report) throw Error{error};
    tools::print_report(stdout, *report);
    if (!o.plot.empty()) bench.plot(*report, gnuplot, fs::absolute(o.plot).string());
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!o.json.empty()) {
      nlohmann::json j = tools::report_json(*report);
      j["run"] = bench.meta();
      j["run"]["elapsed_s"] = elapsed;
      j["run"]["host"] = {{"cpu", host_cpu()},
                          {"hardware_threads", std::thread::hardware_concurrency()}};
      std::string why;
      if (!io::write_file(o.json, util::dump_json(j, 2) + "\n", &why)) throw Error{why};
    }
    fmt::print("\n{} run in {:.0f} s{}{}\n", o.smoke ? "smoke" : o.quick ? "quick" : "full",
               elapsed, o.json.empty() ? "" : fmt::format("; JSON: {}", o.json),
               o.plot.empty() ? "" : fmt::format("; plot: {}", o.plot));
  } catch (const Error& e) {
    fmt::print(stderr, "diffsched: error: {} (logs kept in {})\n", e.message, tmp.string());
    return kExitBadInput;
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return kExitOk;
}

}  // namespace

Runner add_bench(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "bench",
      "Benchmark reference vs optimized (wall clock side by side, callgrind instruction counts, "
      "exact store counts, stack frames) and check the seeds' performance claims");
  auto o = std::make_shared<BenchOptions>();
  auto* quick = sub->add_flag("--quick", o->quick,
                fmt::format("{} processes x {} repetitions x {} s per benchmark instead of "
                            "{} x {} x {} s",
                            kQuick.processes, kQuick.repetitions, kQuick.min_time_s,
                            kFull.processes, kFull.repetitions, kFull.min_time_s));
  sub->add_option("--json", o->json, "Also write every figure and verdict as JSON to FILE")
      ->check(output_file())
      ->type_name("FILE");
  sub->add_option("--plot", o->plot, "Also draw the ratios into a PNG with gnuplot")
      ->check(output_file())
      ->type_name("FILE.png");
  sub->add_option("--bench-dir", o->bench_dir,
                  "Directory of the bench binaries (default: bench/ next to diffsched)")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  sub->add_flag("--smoke", o->smoke,
                "One iteration of one size per binary: checks the pipeline, figures meaningless")
      ->excludes(quick);
  auto* ttb = sub->add_flag(
      "--ttb", o->ttb,
      "Run the time-to-bug benchmark instead: the planted-bug files of bench/ttb/ under "
      "kernel-check with default options (scripts/ttb.py; minutes); --json gets every trial");
  ttb->excludes(quick)->excludes("--smoke")->excludes("--plot")->excludes("--bench-dir");
  sub->add_option("--ttb-time", o->ttb_options.time_s, "kernel-check --time per trial")
      ->check(CLI::Range(1.0, 3600.0))
      ->needs(ttb)
      ->default_val(60)
      ->type_name("SEC");
  sub->add_option("--ttb-seeds", o->ttb_options.seeds, "Trials per file: seeds 1..N")
      ->check(CLI::Range(1, 100))
      ->needs(ttb)
      ->default_val(5)
      ->type_name("N");
  sub->add_option("--ttb-files", o->ttb_options.files,
                  "Only these planted-bug files (.c or .patch; default every file of bench/ttb/)")
      ->needs(ttb)
      ->type_name("FILE...");
  sub->parse_complete_callback([o] { check_outputs({o->json, o->plot}, {}); });
  return [o] {
    if (!o->ttb) return run_bench(*o);
    o->ttb_options.json = o->json;
    return run_ttb(o->ttb_options);
  };
}

}  // namespace diffsched::cli
