// diffsched fn --fuzz: the pair as one libFuzzer target, run for a time.
//
//   FuzzRun run;
//   if (!fuzz_pair(o, old_side, new_side, work, &run, &error)) ...  // exit 2
//   inputs.insert(inputs.end(), run.found.begin(), run.found.end());
//
// Each side's unit and the shim's runtime are compiled with ASan, UBSan and
// libFuzzer's coverage (-fsanitize=fuzzer-no-link) into one relocatable
// object whose only global symbol is its entry, fnh_one_old or fnh_one_new
// (harness_gen.cpp, FNH_LIBRARY), so the two sides' same-named functions,
// globals and stubs stay apart in one process. They are linked with the
// runner (fuzz_runner.cpp), which decodes each fuzzer input with the same
// generator as the property run (decode_input: every byte string is an
// input within the spec's domains), calls both sides and compares their
// records with the same comparison (equal_at, intended rows passed over).
// A difference, a sanitizer report or a hang stops the fuzzer with its input
// saved; fn decodes it and runs it like any other input, in the two harness
// processes, so its verdict, minimisation and replay are fn's own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fn/check.h"
#include "fn/sides.h"
#include "fn/workdir.h"

namespace diffsched::fn {

struct FuzzRun {
  bool skipped = false;    // not run: the generated inputs have a finding already
  bool counted = false;    // the runner wrote its count (not when a fault ended it)
  std::uint64_t runs = 0;  // inputs the fuzzer ran
  double seconds = 0;
  std::vector<Input> found;  // the inputs it stopped on, decoded
  std::string stopped_on;    // "crash-...", "timeout-...": its artifact, or ""
};

// The runner's configuration, written by fuzz_pair as data.
struct FuzzConfig {
  std::string old_file, old_function, new_file, new_function;
  std::string spec_file, level;
  unsigned nr_cpus = 0;
  std::string stats;  // where the runner writes {"runs", "seconds"}
  std::vector<std::string> config;  // FnOptions::config (--config)
  std::string kernel;  // the era the pair was prepared at (Layout::era; "" : the default)
};

nlohmann::json to_json(const FuzzConfig& c);
bool from_json(const nlohmann::json& j, FuzzConfig* c);

// Builds the pair's fuzzer and runs it for o.fuzz_seconds with seed o.seed:
// false with *error one line when it cannot be built or run.
bool fuzz_pair(const FnOptions& o, const Side& old_side, const Side& new_side, const WorkDir& work,
               FuzzRun* out, std::string* error);

// fuzz_pair, then the inputs it stopped on run by both sides' harness
// processes as a second batch: appended to *inputs, *a and *b.
bool fuzz_stage(const FnOptions& o, const Side& old_side, const Side& new_side, const WorkDir& work,
                std::vector<Input>* inputs, std::vector<Observation>* a, std::vector<Observation>* b,
                FuzzRun* out, std::string* error);

// "libFuzzer for 10.0 s: 650000 inputs, 65000/s[, stopped on crash-... (input K)]",
// and the same as data in (*j)["fuzz"].
std::string fuzz_text(const FnOptions& o, const FuzzRun& fuzz, nlohmann::json* j);

}  // namespace diffsched::fn
