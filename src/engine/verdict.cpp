#include "engine/verdict.h"

#include <fmt/format.h>

namespace diffsched {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::kExact: return "exact";
    case Level::kDeadline: return "deadline";
  }
  return "?";
}

std::optional<Level> parse_level(std::string_view name) {
  if (name == "exact") return Level::kExact;
  if (name == "deadline") return Level::kDeadline;
  return std::nullopt;
}

std::string_view finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::kDivergence: return "divergence";
    case FindingKind::kInvariant: return "invariant";
    case FindingKind::kModelMismatch: return "model-mismatch";
    case FindingKind::kOutOfDomain: return "out-of-domain";
    case FindingKind::kReader: return "reader";
  }
  return "?";
}

std::string_view note_name(NoteKind kind) {
  switch (kind) {
    case NoteKind::kStaleSlotFind: return "stale-slot-find";
    case NoteKind::kContractSkip: return "contract-skip";
    case NoteKind::kTieAccepted: return "tie-accepted";
    case NoteKind::kCount: break;
  }
  return "?";
}

std::string_view note_explanation(NoteKind kind) {
  switch (kind) {
    case NoteKind::kStaleSlotFind:
      return "cpudl_find() on an empty heap read elements[0], which still holds "
             "the last CPU removed, and answered 1 with it (kernel behaviour, "
             "same on both sides)";
    case NoteKind::kContractSkip:
      return "op skipped: it breaks the contract the kernel's callers keep "
             "(e.g. cpudl_set_freecpu() only for a CPU not in the heap)";
    case NoteKind::kTieAccepted:
      return "find answers differed only because the sides hold different CPUs "
             "with the same maximum deadline at the root (accepted at level "
             "deadline)";
    case NoteKind::kCount: break;
  }
  return "";
}

std::string Finding::signature() const {
  if (field.empty())
    return fmt::format("{}:{}:{}:{}", subject, finding_kind_name(kind), check, op_kind);
  return fmt::format("{}:{}:{}:{}:{}", subject, finding_kind_name(kind), check,
                     field, op_kind);
}

std::string Finding::check_source() const {
  if (!check_file) return {};
  std::string_view f = check_file;
  // Relative to the source tree: from the last "src/" component on.
  for (std::size_t pos = f.size(); pos > 0;) {
    pos = f.rfind("src/", pos - 1);
    if (pos == std::string_view::npos) break;
    if (pos == 0 || f[pos - 1] == '/') return std::string(f.substr(pos));
  }
  return std::string(f);
}

std::string Finding::describe() const {
  if (kind == FindingKind::kReader)  // a race target's: a class of a lockless reader's answer
    return fmt::format(
        "reader during op #{}: {}\n  side {}'s lockless reader reaches class {} at {}, which "
        "the {}'s never does in the program\n  {}\n  {:>9}: {}\n  {:>9}: {}\n  {}\n  "
        "signature {}",
        op_index, op_text, side, check, op_kind, against, where, against, expected, side, actual,
        detail, signature());
  std::string out = fmt::format("{} after op #{}: {}\n", finding_kind_name(kind),
                                op_index, op_text);
  const bool invariant = against.empty();  // also an out-of-domain invariant finding
  if (invariant)
    fmt::format_to(std::back_inserter(out), "  side {} broke invariant {}", side, check);
  else
    fmt::format_to(std::back_inserter(out), "  side {} vs {} at {}", side, against,
                   check == "model" ? std::string("the model") : "level " + check);
  fmt::format_to(std::back_inserter(out), ", field {}{}{}\n", field,
                 where.empty() ? "" : " at ", where);
  if (invariant) {
    fmt::format_to(std::back_inserter(out), "  {}\n", actual);
  } else {
    fmt::format_to(std::back_inserter(out), "  {:>9}: {}\n", against, expected);
    fmt::format_to(std::back_inserter(out), "  {:>9}: {}\n", side, actual);
  }
  if (!detail.empty()) fmt::format_to(std::back_inserter(out), "  {}\n", detail);
  fmt::format_to(std::back_inserter(out), "  signature {}", signature());
  return out;
}

}  // namespace diffsched
