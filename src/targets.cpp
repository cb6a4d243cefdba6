#include "targets.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "io/text.h"
#include "subjects.h"

namespace diffsched {

const FuzzTarget* find_target(std::string_view name) {
  for (const auto& t : kFuzzTargets)
    if (t.name == name) return &t;
  return nullptr;
}

std::string_view role_name(TargetRole role) {
  switch (role) {
    case TargetRole::kLockstep: return "lockstep";
    case TargetRole::kSelfCheck: return "self_check";
    case TargetRole::kFrontEnd: return "front_end";
    case TargetRole::kRace: return "race";
  }
  return "?";
}

bool is_lockstep_target(const FuzzTarget& target) {
  return with_subject_named(target.subject, [](auto) {});
}

std::string target_names() {
  std::string out;
  for (const auto& t : kFuzzTargets) {
    if (!out.empty()) out += ", ";
    out += t.name;
  }
  return out;
}

namespace {

template <class S>
Verdict run_subject(Level level, std::span<const std::uint8_t> body,
                    const LockstepSource* sides) {
  // Big: built once per thread and source, then reset by each run.
  thread_local std::unique_ptr<typename S::Lockstep> lockstep;
  thread_local const LockstepSource* built_from = nullptr;
  if (!lockstep || built_from != sides) {
    lockstep = make_lockstep<S>(sides);
    built_from = sides;
  }
  io::Decoder<S> decoder(body);
  LockstepRun<S> run(*lockstep, decoder.config(), level);
  typename S::Op op{};
  while (decoder.next(&op))
    if (!run.feed(op)) break;
  run.finish();
  return run.verdict();
}

}  // namespace

Verdict run_target(const FuzzTarget& target, std::span<const std::uint8_t> body,
                   const LockstepSource* sides) {
  // One subject lookup per input; a target that names no subject ("inputs")
  // fuzzes the loaders themselves.
  Verdict v;
  if (target.role == TargetRole::kRace) {  // the built-in sides' lockless-reader analysis
    bool has = false;
    with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
      if constexpr (requires { S::reader_race(body); }) {
        v = S::reader_race(body);
        has = true;
      }
    });
    if (!has) {
      fmt::print(stderr, "diffsched: target {}: subject '{}' has no reader_race (src/registry.def)\n",
                 target.name, target.subject);
      std::abort();
    }
    return v;
  }
  const bool lockstep = with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
    v = run_subject<S>(target.level, body, sides);
  });
  return lockstep ? v : io::check_loading(body);
}

namespace {

// Checked ops, printed when the fuzzer exits (libFuzzer's own stats count
// inputs, not ops).
struct FuzzStats {
  const FuzzTarget* target = nullptr;
  std::uint64_t inputs = 0;
  std::uint64_t ops = 0;
  std::uint64_t accepted = 0;  // inputs of the accepted class (recorded, not aborted)
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};
FuzzStats g_stats;

// DIFFSCHED_RECORD_ACCEPTED: where the first input of the accepted class goes.
struct AcceptedRecord {
  bool enabled = false;
  std::string prefix;  // libFuzzer's -artifact_prefix=, else ""
  std::string file;    // written, once
};
AcceptedRecord g_accepted;

// The accepted class of a self-check target: a divergence at its level that
// the same input does not fail at the deadline level (nothing, or only an
// out-of-domain finding, which fails no target's property).
bool is_accepted_class(const FuzzTarget& target, const Verdict& v,
                       std::span<const std::uint8_t> body, const LockstepSource* sides) {
  if (target.role != TargetRole::kSelfCheck || v.finding->kind != FindingKind::kDivergence ||
      target.level == Level::kDeadline)
    return false;
  FuzzTarget at_deadline = target;
  at_deadline.level = Level::kDeadline;
  const Verdict d = run_target(at_deadline, body, sides);
  return !d.finding || d.finding->kind == FindingKind::kOutOfDomain;
}

void record_accepted(const FuzzTarget& target, const Verdict& v,
                     std::span<const std::uint8_t> body) {
  ++g_stats.accepted;
  if (!g_accepted.file.empty()) return;
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a of the input
  for (const std::uint8_t b : body) hash = (hash ^ b) * 1099511628211ULL;
  g_accepted.file = fmt::format("{}crash-accepted-{:016x}", g_accepted.prefix, hash);
  if (std::FILE* f = std::fopen(g_accepted.file.c_str(), "wb")) {
    std::fwrite(body.data(), 1, body.size(), f);
    std::fclose(f);
  }
  fmt::print(stderr,
             "\n==== diffsched: target {}: accepted class ({}), recorded in {}; fuzzing goes "
             "on (DIFFSCHED_RECORD_ACCEPTED)\n",
             target.name, v.finding->signature(), g_accepted.file);
  std::fflush(stderr);
}

void print_fuzz_stats() {
  const std::chrono::duration<double> s = std::chrono::steady_clock::now() - g_stats.start;
  if (!g_stats.target || s.count() <= 0) return;
  fmt::print(stderr, "diffsched-stats: target {} ran {} inputs, {} checked ops in {:.1f} s: "
             "{:.0f} inputs/s, {:.0f} checked ops/s\n",
             g_stats.target->name, g_stats.inputs, g_stats.ops, s.count(),
             static_cast<double>(g_stats.inputs) / s.count(),
             static_cast<double>(g_stats.ops) / s.count());
  if (g_stats.accepted)
    fmt::print(stderr, "diffsched-stats: {} inputs of the accepted class, the first in {}\n",
               g_stats.accepted, g_accepted.file);
}

}  // namespace

void init_fuzz_target(int argc, char** argv) {
  const char* record = std::getenv("DIFFSCHED_RECORD_ACCEPTED");
  g_accepted.enabled = record && std::string_view(record) == "1";
  constexpr std::string_view kPrefix = "-artifact_prefix=";
  for (int i = 1; i < argc; ++i)
    if (std::string_view arg = argv[i]; arg.starts_with(kPrefix))
      g_accepted.prefix = std::string(arg.substr(kPrefix.size()));
}

int fuzz_one(const FuzzTarget& target, std::span<const std::uint8_t> body,
             const LockstepSource* sides) {
  if (!g_stats.target) {
    g_stats.target = &target;
    g_stats.start = std::chrono::steady_clock::now();
    std::atexit(print_fuzz_stats);
  }
  const Verdict v = run_target(target, body, sides);
  ++g_stats.inputs;
  g_stats.ops += v.ops_run;
  if (!v.finding || v.finding->kind == FindingKind::kOutOfDomain) return 0;
  if (g_accepted.enabled && is_accepted_class(target, v, body, sides)) {
    record_accepted(target, v, body);
    return -1;  // libFuzzer: keep it out of the corpus, as a crash would be
  }
  auto program = io::decode_body_for(target.subject, body);
  if (!program) {  // the inputs target: the input is the file itself
    fmt::print(stderr, "\n==== diffsched: target {} found a {}\n{}\n", target.name,
               finding_kind_name(v.finding->kind), v.finding->describe());
    std::fflush(stderr);
    std::abort();
  }
  std::visit([&](auto& p) { p.level = target.level; }, *program);
  fmt::print(stderr,
             "\n==== diffsched: target {} found a {}\n{}\n---- the input as .ops "
             "(save it and run: diffsched replay FILE.ops) ----\n{}----\n",
             target.name, finding_kind_name(v.finding->kind), v.finding->describe(),
             io::format_program(*program));
  std::fflush(stderr);
  std::abort();
}

}  // namespace diffsched
