// Every path of `diffsched bench`, named once (as campaign/layout.h names a
// campaign's): the benchmark binaries it runs, its temporary directory and
// bench --ttb's.
//
//   BENCH/bench_cpudl, bench_pick, bench_cpudl_counts, pick.su   (BenchBinaries)
//   TMP/<step>.log                 each step's output (BenchTemp)
//   TMP/<binary><suffix>.json      Google Benchmark's --benchmark_out
//   TMP/cg.<binary>.out*           callgrind's parts
//   TMP/bench.gp                   the --plot gnuplot script
//   TTB/ttb.json, ttb.log          scripts/ttb.py's output (TtbTemp)
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "tools/process.h"

namespace diffsched::cli {

// The benchmark binaries (--bench-dir; default the bench/ beside the CLI).
struct BenchBinaries {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static BenchBinaries beside(const path& cli_dir) { return {cli_dir / "bench"}; }
  path binary(const std::string& name) const { return dir / name; }
  path stack_usage() const { return dir / "pick.su"; }  // -fstack-usage of pick.cpp
};

// bench's temporary directory (kept when a step fails, for its logs).
struct BenchTemp {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static constexpr std::string_view kTemplate = "diffsched-bench.XXXXXX";
  path step_log(const std::string& step) const { return dir / (step + ".log"); }
  path gbench_json(const std::string& binary, const std::string& suffix) const {
    return dir / (binary + suffix + ".json");
  }
  // callgrind's output file; its parts are the files whose names start so.
  static std::string callgrind_prefix(const std::string& binary) { return "cg." + binary + ".out"; }
  path callgrind_out(const std::string& binary) const { return dir / callgrind_prefix(binary); }
  path gnuplot_script() const { return dir / "bench.gp"; }
};

// bench --ttb's temporary directory and the script it runs.
struct TtbTemp {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static constexpr std::string_view kTemplate = "diffsched-ttb.XXXXXX";
  static path script() { return tools::source_dir() / "scripts" / "ttb.py"; }
  path json() const { return dir / "ttb.json"; }  // the default --json
  path log() const { return dir / "ttb.log"; }
};

}  // namespace diffsched::cli
