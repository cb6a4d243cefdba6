// Every path of `diffsched fn`'s temporary work directory, named once (as
// campaign/layout.h names a campaign's):
//
//   WORK/inputs.bin                    the batch of inputs both sides run
//   WORK/shrink.bin                    a round of minimisation's candidates
//   WORK/search.bin                    a round of --search-worst's candidates
//   WORK/runtime-<hash>/runtime.o, bitmap.o   the shim's runtime, per set of flags
//   WORK/old/, WORK/new/               a side's files (SideDir):
//     unit.c, build.log, harness       its unit with the harness, built
//     records.jsonl, run.log           a run's observations and output
//   WORK/fuzz/                         fn --fuzz (FuzzDir): config.json, stats.json,
//     fuzzer, link.log, fuzz.log, corpus/, artifacts/ (the fuzzer's crash-*/timeout-*
//     files), found.bin (those inputs decoded, the sides' second batch)
//   GIT/range.diff                     fn --git A..B's change (GitRangeWork)
//
//   const WorkDir w{dir};
//   Side old_side{"old", ..., w.side("old").dir};
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace diffsched::fn {

// One side's build and run files (Side::dir).
struct SideDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path unit() const { return dir / "unit.c"; }
  path build_log() const { return dir / "build.log"; }
  path harness() const { return dir / "harness"; }
  path clock_unit() const { return dir / "clock-unit.c"; }  // --clock: -O2, no sanitizer
  path clock_harness() const { return dir / "clock-harness"; }
  path clock_build_log() const { return dir / "clock-build.log"; }
  path records() const { return dir / "records.jsonl"; }
  path run_log() const { return dir / "run.log"; }
  path fuzz_object() const { return dir / "fuzz-side.o"; }  // --fuzz: the side as a library
  path fuzz_build_log() const { return dir / "fuzz-build.log"; }
};

// fn --fuzz's files (fuzz.h).
struct FuzzDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path config() const { return dir / "config.json"; }  // what the fuzzer re-reads (fuzz_runner.cpp)
  path stats() const { return dir / "stats.json"; }    // {"runs", "seconds"}, at its exit
  path fuzzer() const { return dir / "fuzzer"; }
  path link_log() const { return dir / "link.log"; }
  path log() const { return dir / "fuzz.log"; }
  path corpus() const { return dir / "corpus"; }
  path artifacts() const { return dir / "artifacts"; }
  path found_batch() const { return dir / "found.bin"; }  // the inputs it stopped on, decoded
};

// The shim's runtime compiled once for a set of flags (Side::runtime_cache).
struct RuntimeObjects {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static RuntimeObjects in(const path& cache, std::size_t flags_hash) {
    return {cache / fmt::format("runtime-{:x}", flags_hash)};
  }
  path runtime() const { return dir / "runtime.o"; }
  path bitmap() const { return dir / "bitmap.o"; }
};

struct WorkDir {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  // mkdtemp's template under the temporary directory.
  static constexpr std::string_view kTemplate = "diffsched-fn-XXXXXX";
  SideDir side(std::string_view role) const { return {dir / role}; }
  path inputs() const { return dir / "inputs.bin"; }
  path shrink() const { return dir / "shrink.bin"; }
  path search() const { return dir / "search.bin"; }  // --search-worst: a round's candidates
  path clock_inputs() const { return dir / "clock.bin"; }  // --clock: the inputs timed
  FuzzDir fuzz() const { return {dir / "fuzz"}; }
};

// fn --git A..B's temporary directory: the range as one diff.
struct GitRangeWork {
  std::filesystem::path dir;

  static constexpr std::string_view kTemplate = "diffsched-fn-git-XXXXXX";
  std::filesystem::path range_diff() const { return dir / "range.diff"; }
};

}  // namespace diffsched::fn
