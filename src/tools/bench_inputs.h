// Parsers for what the bench binaries and their tools write.
//
//   auto runs = parse_gbench_json(text, &error);      // Google Benchmark --benchmark_out
//   runs->at("cpudl_set/cpus:16/ops:1000")[rep].at("ratio")
//   auto part = parse_callgrind_part(text);          // one callgrind.out.N file
//   part->name == "pick/seed/nr:8/reference", part->calls == 2048, part->ir
//   auto frames = parse_stack_usage(text);           // gcc -fstack-usage (.su)
//   frames.at("pick_optimized") == 1072
//
// Every parser is total: malformed input gives nullopt / an error string (or
// skips the line), never an exception.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::tools {

// The user counters of one repetition of one benchmark.
using CounterMap = std::map<std::string, double>;

// run name -> one CounterMap per repetition, in repetition order, and the
// run names in the order the binary ran them. Only per-repetition entries
// (run_type "iteration") are kept, not aggregates.
struct GbenchRuns {
  std::vector<std::string> order;
  std::map<std::string, std::vector<CounterMap>> reps;
};

// run_base_name("x/cpus:4/iterations:1/repeats:1") == "x/cpus:4": drops the
// suffixes Google Benchmark appends for explicit settings.
std::string run_base_name(std::string_view name);

// A benchmark that reported an error (SkipWithError) makes the whole parse
// fail with that error: its figures would be meaningless.
std::optional<GbenchRuns> parse_gbench_json(std::string_view text, std::string* error);

// One dump part of `valgrind --tool=callgrind`, triggered by
// CALLGRIND_DUMP_STATS_AT("<name> calls=<calls>") (bench_main.h), with its
// "totals:" line (Ir). nullopt for parts with another trigger.
struct CallgrindPart {
  std::string name;
  std::uint64_t calls = 0;
  std::uint64_t ir = 0;
};
std::optional<CallgrindPart> parse_callgrind_part(std::string_view text);

// gcc -fstack-usage lines "file:line:col:function<TAB>bytes<TAB>kind" (for
// C++ the function is its signature): the unqualified function name -> bytes.
std::map<std::string, std::uint64_t> parse_stack_usage(std::string_view text);

}  // namespace diffsched::tools
