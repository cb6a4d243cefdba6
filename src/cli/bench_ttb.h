// `diffsched bench --ttb`: the time-to-bug benchmark (issue 28, section 3).
// It runs scripts/ttb.py (the planted-bug files of bench/ttb/ under
// kernel-check with default options, over seeds 1..N) as one child process,
// reads the per-class figures back from the JSON the script writes (data,
// never its printed table), and prints them as a table: per class and in
// all, the trials found and the median and maximum time to the finding, a
// miss counting as longer than any time (as Magma and FuzzBench report it).
#pragma once

#include <string>
#include <vector>

namespace diffsched::cli {

struct TtbOptions {
  double time_s = 60;              // kernel-check --time per trial
  int seeds = 5;                   // seeds 1..seeds
  std::vector<std::string> files;  // empty: every file of bench/ttb/
  std::string json;                // also write the script's JSON here
};

// Exit 0 when every trial ran (found or missed), 2 when one could not run,
// a file is missing or python3 is not installed (one line on stderr).
int run_ttb(const TtbOptions& o);

}  // namespace diffsched::cli
