// `diffsched fn`: two versions of one kernel C function, a verdict
// (docs/fn.md). The CLI (cli/cmd_fn.cpp) fills FnOptions and calls
// run_fn(); everything else is here and in model.h.
//
//   FnOptions o{.old_file = "old.c", .new_file = "new.c", .old_function = "f",
//               .new_function = "f"};
//   int status = run_fn(o);   // 0 equivalent, 1 finding, 2 cannot build/run
//
// Each side: extract (extract.h), lay the inputs out from the C types and
// the spec (model.h), append the generated harness, build it with clang-14
// and ASan+UBSan against kshim/, run it on one batch of generated inputs
// through tools::Command (a deadline), read its JSON records back, and
// compare the two sides' records input by input at the level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fn/model.h"

namespace diffsched::fn {

enum class FnLevel { kExact, kSorted, kMultiset };  // strongest first

// "exact", "sorted", "multiset": false for any other name.
bool parse_level(const std::string& name, FnLevel* level);
const char* level_name(FnLevel l);

struct FnOptions {
  std::string old_file, new_file;
  std::string old_function, new_function;
  std::string level = "exact";  // exact, multiset, sorted ("" : the spec's, else exact)
  std::string spec_file;        // "" : none
  // --config CONFIG_X[=N]: kernel options defined for both sides, as the
  // spec's `config` lines (the same option given both ways must agree).
  std::vector<std::string> config;
  // --kernel-version MAJOR.MINOR: the shim's era ("" : the tree's, else
  // the newest that builds; fn/era.h).
  std::string kernel_version;
  std::uint64_t runs = 300;
  std::uint64_t seed = 1;
  unsigned nr_cpus = 0;  // 0: drawn per input from default_nr_cpus()
  bool json = false;     // one JSON verdict object on stdout instead of text
  bool minimize = true;  // make a finding's input smaller, keeping its signature
  double max_cost_ratio = 0;  // > 0: new's callback calls above this times old's is a finding
  double max_mem_ratio = 0;   // > 0: the same for the call's memory operations (loads, stores)
  unsigned clock_reps = 0;    // > 0: time each input's call this many times in an -O2 build
  std::uint64_t search_worst = 0;  // > 0: rounds of search for a worse input (fn/worst.h)
  std::uint64_t fuzz_seconds = 0;  // > 0: then libFuzzer on the pair this long (fn/fuzz.h)
  std::string fuzz_corpus;         // "" : a temporary corpus; else kept, and grown, here
  std::string input;     // one call in the text form (--input; "" : generate)
  std::string replay_file;  // a file holding that text (--replay)
  std::string verdict_json;  // "" or a file that gets the JSON verdict object too
  std::string replay_prefix = "diffsched";  // how to spell the replay command
  bool print_spec = false;  // write the inferred spec (print_spec.cpp) instead of running
  // --exhaustive (exhaustive.h): every input within these bounds, not `runs` random ones
  bool exhaustive = false;
  unsigned max_nr_cpus = 4;         // masks at nr_cpu_ids 1..this (--nr-cpus: that one only)
  std::string int_range = "-2..3";  // integers LO..HI, within each type's and spec's domain
  std::int64_t max_array_len = 2;   // arrays with a length parameter: lengths 0..this
  std::uint64_t max_inputs = 1000000;  // more than this many: refused up front (exit 2)
};

// One side's observation of one input: its record, or a fault.
struct Observation {
  bool run = false;    // the input was run (a side stops after a bound of faults)
  bool fault = false;  // a signal, a sanitizer report, a hang
  std::string fault_what;  // "AddressSanitizer: heap-buffer-overflow", "signal 11"
  nlohmann::json record;   // {"ret", "out", "glob", "warn"}
};

// A cost count of the record ("cost": callback calls, "mem": memory
// operations): false when the input was not run, faulted or has no such count.
bool cost_count(const Observation& o, const std::string& key, std::uint64_t* n);

// Records equal at the level (an array parameter's elements compared as a
// multiset, or as a multiset whose keys are in the same order).
// Scratch values (`param PATH scratch`) are never compared; with
// but_intended, neither are the rows the spec declares intended.
bool equal_at(const Layout& layout, const Observation& a, const Observation& b, FnLevel level,
              bool but_intended = false);

// The first observation row ("return", "*NAME", a global, "WARN_ON") whose
// values differ at the level, or "" (faults are not rows); with
// but_intended, the rows the spec declares intended are passed over.
std::string first_differing_row(const Layout& layout, const Observation& a, const Observation& b,
                                FnLevel level, bool but_intended = false);

// The two sides' observations, one block of lines, readable: masks as CPU
// lists, arrays as lists with runs collapsed, a differing array row by its
// differing elements (show.h), differing rows marked.
std::string show_observations(const Layout& layout, const Observation& old_side,
                              const Observation& new_side, unsigned nr_cpu_ids);

int run_fn(const FnOptions& options);

// The one line run_fn() last printed as `diffsched: error: LINE` (exit 2 or
// 3), "" if none: the CLI writes it to --verdict-json as data.
const std::string& last_fn_error();

// --print-spec (print_spec.cpp): the spec inferred for the pair, with the
// given spec's refinements and `level`, on stdout. 0; 2 with one line on
// stderr when the pair cannot be laid out, or (after printing) when a read
// global is left uncovered in it.
int print_spec(const FnOptions& options, const Spec& spec, const std::string& level);

}  // namespace diffsched::fn
