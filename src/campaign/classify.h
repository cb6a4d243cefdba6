// Classifying crash files: each by its signature (replayed in-process, or the
// fuzz binary's own verdict where replay passes: a sanitizer report, or
// no-repro), re-runs of one file per signature (flaky or real), and the
// folding of findings that differ only in the op kind.
//
//   auto groups = classify(crashes, fuzz_dir, layout.classify_log());   // signature -> files
//   rerun(fuzz_dir / target, rep, sig, 3, layout.rerun_log(), &finding);  // reruns, failures
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "campaign/report.h"
#include "targets.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

struct Crash {
  const FuzzTarget* target;
  fs::path file;
  std::uintmax_t size;
};

// What the fuzz binary says about one input: its signature line ("  signature
// S"), else the sanitizer's SUMMARY as a signature, else "crash:exit-N";
// failed false (and no signature) if it passed.
struct BinaryVerdict {
  bool failed = false;
  std::string signature;
};
BinaryVerdict run_binary_on(const fs::path& fuzzer, const fs::path& input, const fs::path& log);

// The signature of a crash file as this build replays it in-process ("" if
// it passes, is out of the domain or cannot be read).
std::string replay_signature(const FuzzTarget& target, const fs::path& file);

// signature -> its crash files. A file that replays clean in-process is run
// through fuzz_dir/<target>: "<subject>:<its signature>" or "<subject>:no-repro".
std::map<std::string, std::vector<Crash>> classify(const std::vector<Crash>& crashes,
                                                   const fs::path& fuzz_dir, const fs::path& log);

// Runs `fuzzer` on rep.file `times` times (fewer if a SIGINT/SIGTERM comes):
// u->reruns counts the runs, u->rerun_failures those that failed with `sig`.
void rerun(const fs::path& fuzzer, const Crash& rep, const std::string& sig, unsigned times,
           const fs::path& log, UniqueFinding* u);

// Folds findings that differ only in the op kind of their signature (same
// subject, kind, check and field; both failing or both accepted) into one,
// the one with the shortest reproducer, listing the others as variants.
void fold_variants(std::vector<UniqueFinding>* findings);

}  // namespace diffsched::campaign
