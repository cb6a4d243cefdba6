// AFL++'s <out>/<instance>/fuzzer_stats, for campaign progress and reports.
//
//   auto s = campaign::read_afl_stats("out/default/fuzzer_stats", &error);
//   if (s) fmt::print("{} execs, {} edges, {} crashes\n", s->execs_done,
//                     s->edges_found, s->saved_crashes);
//
// The file is "key : value" lines, rewritten by afl-fuzz about every minute
// and when it stops (AFL++ 4.04c: docs/afl-fuzz_approach.md). AFL++ 4.x names
// are read; the 3.x names unique_crashes and paths_total are accepted too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace diffsched::campaign {

struct AflStats {
  std::uint64_t execs_done = 0;
  double execs_per_sec = 0;
  std::uint64_t edges_found = 0;
  std::uint64_t total_edges = 0;    // map size (instrumented edges upper bound)
  std::uint64_t saved_crashes = 0;  // unique crashes (3.x: unique_crashes)
  std::uint64_t saved_hangs = 0;
  std::uint64_t corpus_count = 0;   // queue entries (3.x: paths_total)
  std::uint64_t run_time = 0;       // seconds
  std::uint64_t fuzzer_pid = 0;
};

// Parses the text of a fuzzer_stats file. nullopt and *error if a required
// key (execs_done, execs_per_sec, edges_found, corpus_count and the crash
// count) is missing or not a number.
std::optional<AflStats> parse_afl_stats(std::string_view text, std::string* error);

// Reads and parses a fuzzer_stats file; nullopt and *error if unreadable.
std::optional<AflStats> read_afl_stats(const std::filesystem::path& file, std::string* error);

}  // namespace diffsched::campaign
