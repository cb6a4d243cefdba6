// Merging what an engine found into the corpus, so that an interrupted or
// failed merge leaves the corpus as it was or with whole new files:
// libFuzzer -merge=1 into a staging directory that starts as hard links of
// the corpus, then one rename(2) per new file. After an interrupt there is
// no time for a merge (one of a few hundred inputs took over 2 s under CI's
// load): add_unmerged() keeps every input found, each named by the SHA-1 of
// its content, for the next campaign's merge to minimise.
//
//   long added = merge_into_corpus({.fuzzer = bin, .corpus = t.corpus, .found = queue,
//                                   .staging = t.staging(getpid()), .log = t.merge_log,
//                                   .max_seconds = 5}, &error);
#pragma once

#include <filesystem>
#include <string>

namespace diffsched::campaign {

namespace fs = std::filesystem;

struct MergeRequest {
  fs::path fuzzer;   // a libFuzzer binary (-merge=1)
  fs::path corpus;   // grows
  fs::path found;    // candidate inputs
  fs::path staging;  // scratch, removed afterwards
  fs::path log;      // the merge's output
  double max_seconds = 0;  // <= 0: no limit; else the merge is abandoned when it runs out
};

// Files added to the corpus, or -1 and *error if the merge did not complete
// (it failed, ran out of time, or a further SIGINT/SIGTERM arrived while it
// ran, campaign/supervise.h): the corpus is then unchanged. 0 without
// running anything if `found` holds no file.
long merge_into_corpus(const MergeRequest& request, std::string* error);

// Every file of `found` not in the corpus yet, added whole (written into the
// staging directory, then one rename(2) each) as the lowercase hex SHA-1 of
// its content, libFuzzer's naming; no engine runs, so it takes milliseconds.
// `fuzzer`, `log` and `max_seconds` are not used. Files added, or -1 and
// *error if the staging directory cannot be made.
long add_unmerged(const MergeRequest& request, std::string* error);

}  // namespace diffsched::campaign
