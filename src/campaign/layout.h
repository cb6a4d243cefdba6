// Every path of a campaign's output directory (--out) and of its corpus
// (--corpus), named in one place:
//
//   OUT/.diffsched-campaign        marker: a later campaign may replace what follows
//   OUT/summary.md, junit.xml, results.sarif     the reports (campaign/report.h)
//   OUT/build-fuzz.log, build-afl.log            building the engines' binaries
//   OUT/perf/                                    campaign --perf's reproducers
//   OUT/findings/<target>-<n>.ops, .bin          reproducers
//   OUT/work/classify.log, rerun.log             fuzz binary runs on crash files
//   OUT/work/<target>/                           one target's run (TargetLayout):
//     engine.log, engine-<k>.log                 the engine's processes' output
//     found/        libFuzzer's new inputs       afl/<instance>/   afl-fuzz's -o (AflInstance)
//     crashes/      crash files (AFL's copied)   afl-queue/        AFL's queues, to merge
//     merge.log     libFuzzer -merge=1
//   CORPUS/<target>/                             the corpus, grows by merges
//   CORPUS/.<target>.merge-<pid>/                a merge's staging directory
#pragma once

#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::campaign {

namespace fs = std::filesystem;

// One afl-fuzz instance's output directory (afl-fuzz -o DIR, DIR/<instance>/).
struct AflInstance {
  fs::path dir;

  std::string name() const { return dir.filename().string(); }
  fs::path crashes() const { return dir / "crashes"; }
  fs::path queue() const { return dir / "queue"; }
  fs::path fuzzer_stats() const { return dir / "fuzzer_stats"; }
};

// One target's paths.
struct TargetLayout {
  std::string target;  // FuzzTarget::name
  fs::path dir;        // OUT/work/<target>
  fs::path found;      // libFuzzer's scratch corpus: new inputs land here
  fs::path crashes;    // crash files (libFuzzer -artifact_prefix; AFL's copied here)
  fs::path log;        // the first engine process's output
  fs::path afl_out;    // afl-fuzz -o
  fs::path afl_queue;  // AFL's queue entries, copied for the merge
  fs::path merge_log;
  fs::path corpus;     // CORPUS/<target>

  fs::path engine_log(std::size_t k) const;   // process k's output (0: log)
  // libFuzzer's -artifact_prefix: crash files land in `crashes`.
  std::string artifact_prefix() const { return crashes.string() + "/"; }
  // An AFL instance's queue entry or crash file, copied for the merge
  // (afl-queue/<instance>-<file>) or as a crash (crashes/afl-<instance>-<file>).
  fs::path afl_queue_copy(const AflInstance& instance, const fs::path& file) const;
  fs::path afl_crash_copy(const AflInstance& instance, const fs::path& file) const;
  fs::path staging(long pid) const;           // CORPUS/.<target>.merge-<pid>
  std::string staging_prefix() const;         // ".<target>.merge-"
};

// The campaign's paths.
struct Layout {
  fs::path out;
  fs::path corpus;

  static constexpr std::string_view kMarker = ".diffsched-campaign";
  // What a campaign writes in --out (and a later campaign replaces).
  // (A name with a '.' is a file, else a directory.)
  static constexpr std::string_view kOwned[] = {"summary.md", "junit.xml",      "results.sarif",
                                                "findings",   "work",           "perf",
                                                "fn",         "build-fuzz.log", "build-afl.log"};

  fs::path marker() const { return out / kMarker; }
  fs::path summary_md() const { return out / "summary.md"; }
  fs::path junit_xml() const { return out / "junit.xml"; }
  fs::path results_sarif() const { return out / "results.sarif"; }
  fs::path findings() const { return out / "findings"; }
  fs::path work() const { return out / "work"; }
  fs::path perf() const { return out / "perf"; }
  fs::path fn() const { return out / "fn"; }  // --fn: each pair's verdict JSON and log
  // --fn: a pair's fuzzer corpus, kept and grown as a target's is.
  fs::path fn_corpus(std::string_view function) const { return corpus / fmt::format("fn-{}", function); }
  fs::path build_log(std::string_view preset) const;  // OUT/build-<preset>.log
  fs::path classify_log() const { return work() / "classify.log"; }
  fs::path rerun_log() const { return work() / "rerun.log"; }
  fs::path reproducer(std::string_view target, unsigned serial, std::string_view ext) const;
  TargetLayout target(std::string_view name) const;

  static bool owned(std::string_view entry);  // kMarker or one of kOwned
};

// Makes --out ready, as a util::OwnedDir whose manifest is the marker:
// created if missing; an empty directory or a campaign's (its marker) is
// taken, and what the last campaign recorded is removed first, so that no
// finding or report of an earlier run is mixed with this one's. Anything
// else, even holding only names like a campaign's, is refused (*error)
// unless `force`, which replaces only kOwned. Neither ever deletes the
// corpus or any of `inputs` (the accepted file, ...). Creates --corpus.
bool prepare_out(const Layout& layout, bool force, std::string* error,
                 const std::vector<fs::path>& inputs = {});

// Makes a target's work directory afresh (found/, crashes/), seeds its
// corpus from `seeds` if it does not exist yet, and removes merge staging
// directories a killed campaign left.
void prepare_target(const TargetLayout& t, const fs::path& seeds);

}  // namespace diffsched::campaign
