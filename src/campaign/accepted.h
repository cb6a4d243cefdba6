// The accepted-divergences file (corpus/accepted.txt): findings that are
// reported but do not fail a campaign. One line each:
//
//   TARGET  SIGNATURE-GLOB  [if-deadline-level-passes]  -- REASON
//
// A finding of TARGET whose signature matches the glob (* and ?) is accepted;
// with if-deadline-level-passes, only if its (minimised) reproducer passes at
// the deadline level (i.e. the divergence is a tie, not a broken heap).
//
//   auto accepted = load_accepted("corpus/accepted.txt", &error);   // nullopt: bad file
//   apply_accepted(*accepted, reproducer, &finding);                  // kNew -> kAccepted?
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "campaign/report.h"
#include "io/program.h"

namespace diffsched::campaign {

struct AcceptedEntry {
  std::string target;
  std::string pattern;
  bool if_deadline_level_passes = false;
  std::string reason;
  unsigned line = 0;
};

// nullopt and *error ("FILE:LINE: ...") on an unreadable file or a bad line.
std::optional<std::vector<AcceptedEntry>> load_accepted(const std::filesystem::path& file,
                                                        std::string* error);
bool glob_match(std::string_view pattern, std::string_view text);

// Marks *u kAccepted (with the entry's reason) if an entry covers it: same
// target, the signature matches, and with if-deadline-level-passes the
// reproducer passes at the deadline level (no reproducer: it does not).
void apply_accepted(const std::vector<AcceptedEntry>& accepted,
                    const std::optional<io::AnyProgram>& reproducer, UniqueFinding* u);

}  // namespace diffsched::campaign
