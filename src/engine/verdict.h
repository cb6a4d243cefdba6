// What a lockstep run concludes: ok, or the first finding, plus notes.
//
//   Verdict v = run_lockstep<CpudlSubject>(...);
//   if (v.finding) fmt::print("{}\n", v.finding->describe());
//
// A finding names the op (index and text), the side, the check (equivalence
// level, invariant or model), the field, and both values. Its signature
// (subject:kind:check:field:op) is stable across inputs, for deduplication.
// Notes are things a run saw that are not failures (e.g. find on an empty heap
// answered from a stale slot); they are counted, never dropped.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace diffsched {

// Equivalence level at which two sides are compared.
//   exact:    same heap slots, sizes, back-pointers, free mask; same find results.
//   deadline: same membership, deadline per CPU and maximum deadline; find
//             agrees on its return value and the chosen CPU's deadline, except
//             where a tie at the maximum deadline explains the difference.
enum class Level : std::uint8_t { kExact, kDeadline };

std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

enum class FindingKind : std::uint8_t {
  kDivergence,     // a side differs from the reference at the level
  kInvariant,      // a side broke one of its own invariants
  kModelMismatch,  // a side's answer is not one the simple model permits
  kOutOfDomain,    // any of the above while live deadlines span >= 2^63
  kReader,         // a lockless reader class only a non-reference side shows (cpudl race)
};

std::string_view finding_kind_name(FindingKind kind);

struct Finding {
  FindingKind kind = FindingKind::kDivergence;
  std::string_view subject;
  std::size_t op_index = 0;  // 0-based index of the op after which it was seen
  std::string op_kind;       // "set"
  std::string op_text;       // "set 1 100"
  std::string side;          // the side that broke or differs: "optimized"
  std::string against;       // what it was compared with: "reference", "model"
  std::string check;         // level ("exact"), invariant ("heap-order"), "model"
  std::string field;         // "slot.cpu", "find.ret", "free_cpus", ...
  std::string where;         // "slot 1", "cpu 3", "" when the whole field
  std::string expected;      // the value of `against`
  std::string actual;        // the value of `side`
  std::string detail;        // optional extra sentence
  // Where the failing check is in our source (__builtin_FILE/LINE at the
  // check): for SARIF and the campaign report. nullptr/0 when unknown.
  const char* check_file = nullptr;
  unsigned check_line = 0;

  // subject:kind:check:field:op_kind, e.g. "cpudl:divergence:exact:slot.cpu:set";
  // an empty field is left out ("cpudl:reader:torn:set").
  std::string signature() const;
  // Multi-line, human-readable account.
  std::string describe() const;
  // check_file relative to the source tree ("src/subjects/cpudl/invariants.cpp"), or "".
  std::string check_source() const;
};

enum class NoteKind : std::uint8_t {
  kStaleSlotFind,   // find on an empty heap answered 1 from stale slot 0
  kContractSkip,    // op skipped: it breaks the kernel caller's contract
  kTieAccepted,     // deadline level accepted a find difference due to a tie
  kCount,
};

std::string_view note_name(NoteKind kind);
std::string_view note_explanation(NoteKind kind);

struct Verdict {
  std::string_view subject;
  Level level = Level::kDeadline;
  std::size_t ops_run = 0;
  std::optional<Finding> finding;
  std::array<std::uint32_t, static_cast<std::size_t>(NoteKind::kCount)> note_count{};
  std::array<std::size_t, static_cast<std::size_t>(NoteKind::kCount)> note_first_op{};

  bool ok() const { return !finding; }
  void note(NoteKind kind, std::size_t op_index) {
    auto k = static_cast<std::size_t>(kind);
    if (note_count[k]++ == 0) note_first_op[k] = op_index;
  }
  std::uint32_t notes(NoteKind kind) const {
    return note_count[static_cast<std::size_t>(kind)];
  }
};

}  // namespace diffsched
