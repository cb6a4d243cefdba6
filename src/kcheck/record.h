// The result record of one kcheck harness run: what the checks did, written
// by the harness as JSON only once they are complete, read back by
// kernel-check, whose verdict rests on it and on nothing the harness process
// (or the candidate inside it) prints or exits with.
//
//   HarnessRecord r{.mode = "check", .outcome = "ok", .programs = 2013, .ops = 30512};
//   write_record(path, token, r);                 // the harness, after the checks
//   auto got = read_record(path, token, &why);    // kernel-check: nullopt if missing,
//                                                 // unreadable or of another run
//
// The path, a per-run token and the current-input file reach the harness in
// its environment (kRecordEnv, kTokenEnv, kCurrentInputEnv); the harness
// takes the token out of its environment before it loads a candidate. The
// current-input file is a fixed-size shared mapping into which the harness
// copies each input before it runs it (and clears after), so that when the
// process ends inside an input (the candidate called _exit(), or was
// killed), kernel-check knows the input: read_current_input().
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace diffsched::tools {

inline constexpr const char* kRecordEnv = "KCHECK_RECORD";
inline constexpr const char* kTokenEnv = "KCHECK_RECORD_TOKEN";
inline constexpr const char* kCurrentInputEnv = "KCHECK_CURRENT_INPUT";

// kernel-check --race's fuzzing stage analyses each input for a lockless
// reader within this many load triples over both sides (race.h,
// analyze_race's max_readers): about half a second on a deep heap at
// nr_cpu_ids 8192, far above what an input of a few hundred CPUs needs. An
// input that passes it is counted (race_cut) and reports no finding: a cut
// analysis proves nothing about the whole program (race.h, cut_at).
inline constexpr std::uint64_t kRaceInputReaders = 4'000'000;

struct HarnessRecord {
  std::string mode;     // the harness's --mode
  // ok | finding | out-of-domain | allocs-exhausted | sanitizer | hang |
  // init-failed | loaded | decoded
  std::string outcome;
  std::uint64_t programs = 0;         // check: programs run to their end (seeds + random)
  std::uint64_t random_programs = 0;  // check: of those, random ones
  std::uint64_t ops = 0;              // ops run in those programs
  std::uint64_t executions = 0;       // fuzz: inputs run to their end
  std::uint64_t race_inputs = 0;      // fuzz under --race: of those, analysed for a reader too
  std::uint64_t race_cut = 0;         // ... of those, analysed up to the per-input bound only
  double seconds = 0;                 // since the harness started
  double minimize_seconds = 0;        // a finding: how long its minimisation took
  std::string reproducer;  // a file the harness wrote (finding: the minimised .ops)
  std::string input;       // the input of a sanitizer finding or a hang, as saved
  bool input_raw = false;  // ... raw bytes (else .ops text)
  std::string signature;   // a finding's signature
  std::string detail;      // one line: what failed (init-failed: "cpudl_init() returned -12")
};

std::string record_json(const std::string& token, const HarnessRecord& r);
bool write_record(const std::filesystem::path& path, const std::string& token,
                  const HarnessRecord& r);
// nullopt (and *why) if the file is missing, not a record, or not this run's.
std::optional<HarnessRecord> read_record(const std::filesystem::path& path,
                                         const std::string& token, std::string* why);

// A fresh random token (hex).
std::string new_token();

// The current-input mapping: a header, then up to kCurrentInputMax bytes.
inline constexpr std::size_t kCurrentInputMax = 1 << 20;
enum class InputKind : std::uint32_t { kNone = 0, kRaw = 1, kText = 2 };

class CurrentInput {
 public:
  bool open(const std::filesystem::path& path);  // creates and maps it (the harness)
  // Before an input runs: copies it in (kNone if it does not fit).
  void set(InputKind kind, std::span<const std::uint8_t> bytes);
  void clear();  // after it ran to its end
 private:
  unsigned char* map_ = nullptr;
};

struct StoppedInput {
  InputKind kind = InputKind::kNone;
  std::string bytes;
};
// What the harness was running when its process ended (kernel-check).
StoppedInput read_current_input(const std::filesystem::path& path);

}  // namespace diffsched::tools
