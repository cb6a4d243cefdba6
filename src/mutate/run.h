// Running kernel-check on each mutant (`diffsched mutate`, docs/mutation.md):
// one `diffsched kernel-check` process per mutant, --jobs at a time, each
// under a watchdog; its exit status and output give the mutant's status, the
// seconds to the kill and the check that killed it. Then the report: score,
// time-to-kill percentiles, the kill matrix, survivors; Markdown and JSON.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mutate/mutants.h"

namespace diffsched::mutate {

namespace fs = std::filesystem;

enum class Status { kKilled, kSurvived, kTimeout, kCompileError, kEquivalent, kError };
std::string_view status_name(Status s);

struct MutateSettings {
  fs::path self;            // the diffsched binary that runs kernel-check
  const SubjectTool* subject = &kCpudlTool;
  fs::path candidate;       // the original file
  std::string function;     // pick: --function
  std::string api;          // cpudl: --api (empty: auto)
  fs::path header;          // cpudl: --header (empty: the candidate's own or the shim's)
  std::string capacity;      // cpudl: --capacity LIST, with the original file as --baseline
  std::string find_returns; // cpudl: --find-returns, fixed from the original's run: a
                            // mutant's `return 1` -> `return nr_cpu_ids` must not change it
  double budget = 5;        // kernel-check --time (fuzzing seconds) per mutant
  unsigned runs = 2000;     // kernel-check --runs (random programs of the property run)
  unsigned jobs = 1;
  std::uint64_t seed = 1;
  unsigned hang_seconds = 2;  // kernel-check --hang-seconds
  fs::path out;             // per-mutant files and logs: out/<id>/
  fs::path harness;         // kernel-check --harness (empty: its default)
  bool confirm_survivors = true;  // re-run each survivor with 3x budget, another seed
  // The bounded exhaustive check of each survivor (kernel-check --exhaustive):
  // cpudl N D K, pick N; empty: not run. No finding: `equivalent` at these
  // bounds; a finding: killed by check "exhaustive".
  std::vector<unsigned> equiv_bounds;
};

struct Outcome {
  Status status = Status::kError;
  double seconds = 0;    // to the kill (check time, the build excluded); else the run's
  std::string check;     // the killing check: invariant, divergence, model, WARN_ON, sanitizer, hang
  std::string signature; // kernel-check's finding signature, when it printed one
  std::string detail;    // one line: the error, or how a survivor was confirmed
  fs::path log;
  fs::path verdict;      // kernel-check's --verdict-json file (what was classified)
};

// Classifies one finished kernel-check run from its exit status (or
// tools::kExitTimedOut: killed by our watchdog) and its verdict as data (the text of its
// --verdict-json file), never from its log, which holds the mutant's output.
Outcome classify(int exit_status, const std::string& verdict_json);

// cpudl_find()'s return convention kernel-check detected (its verdict file's
// "find_returns", data; never its prose "forms"): "0/1", "cpu", or "" (not said).
std::string detected_find_returns(const std::string& verdict_json);
// The --verdict-json file of a kernel-check run with work directory `work`.
fs::path verdict_file(const fs::path& work);

// The default --out: a fresh directory under the temporary directory.
inline constexpr std::string_view kOutTemplate = "diffsched-mutate-XXXXXX";

// Every path of one mutant's directory (OUT/<id>/, docs/mutation.md), named
// once: the mutant, its diff, and per kernel-check run (`tag`: "",
// "-confirm", "-exhaustive") the work directory, the log and the verdict.
struct MutantDir {
  fs::path dir;
  fs::path candidate(const fs::path& original) const { return dir / original.filename(); }
  fs::path diff() const { return dir / "mutant.diff"; }
  fs::path work(const std::string& tag) const { return dir / ("work" + tag); }
  fs::path log(const std::string& tag) const { return dir / ("kernel-check" + tag + ".log"); }
  fs::path verdict(const std::string& tag) const { return verdict_file(work(tag)); }
};

// Runs kernel-check on every mutant; outcomes in the mutants' order.
// Interrupted (SIGINT/SIGTERM to us or to a child): the running children are
// killed, *interrupted is set, and the remaining mutants are not run;
// interrupt_status() is then 130 or 143.
std::vector<Outcome> run_mutants(const std::vector<Mutant>& mutants, const MutateSettings& options,
                                 bool* interrupted);

int interrupt_status();

struct Report {
  const SubjectTool* subject = &kCpudlTool;
  std::string candidate;
  std::size_t generated = 0;  // before sampling
  std::vector<Mutant> mutants;
  std::vector<Outcome> outcomes;
  MutateSettings options;

  // killed / (all - compile errors - equivalent); -1 when the denominator is 0.
  double score() const;
  std::size_t count(Status s) const;
  // Time-to-kill percentile (0..100) over killed mutants (nearest rank); 0 if none.
  double kill_percentile(double p) const;
  std::string markdown() const;
  nlohmann::json json() const;
};

}  // namespace diffsched::mutate
