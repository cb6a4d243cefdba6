#include "campaign/accepted.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "campaign/util.h"
#include "engine/runner.h"
#include "subjects.h"
#include "targets.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

bool glob_match(std::string_view p, std::string_view t) {
  std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi, ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::optional<std::vector<AcceptedEntry>> load_accepted(const fs::path& file,
                                                        std::string* error) {
  std::ifstream in(file);
  if (!in) {
    *error = fmt::format("{}: cannot read the accepted-divergences file", file.string());
    return std::nullopt;
  }
  std::vector<AcceptedEntry> out;
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t(trim(line));
    if (t.empty() || t[0] == '#') continue;
    const auto dashes = t.find(" -- ");
    AcceptedEntry e;
    e.line = n;
    std::istringstream words(t.substr(0, dashes));
    std::string extra;
    words >> e.target >> e.pattern >> extra;
    if (dashes == std::string::npos || e.pattern.empty()) {
      *error = fmt::format("{}:{}: expected 'TARGET SIGNATURE-GLOB [if-deadline-level-passes] "
                           "-- REASON'", file.string(), n);
      return std::nullopt;
    }
    if (!find_target(e.target)) {
      *error = fmt::format("{}:{}: unknown target '{}' (known: {})", file.string(), n, e.target,
                           target_names());
      return std::nullopt;
    }
    if (!extra.empty()) {
      if (extra != "if-deadline-level-passes") {
        *error = fmt::format("{}:{}: unknown condition '{}' (known: if-deadline-level-passes)",
                             file.string(), n, extra);
        return std::nullopt;
      }
      e.if_deadline_level_passes = true;
      if (judged_by_target(*find_target(e.target))) {  // its findings are not the lockstep's
        *error = fmt::format("{}:{}: if-deadline-level-passes asks the lockstep, which never "
                             "shows a finding of target {} ({} check)", file.string(), n,
                             e.target, role_name(find_target(e.target)->role));
        return std::nullopt;
      }
    }
    if (words >> extra) {
      *error = fmt::format("{}:{}: unexpected '{}' before --", file.string(), n, extra);
      return std::nullopt;
    }
    e.reason = std::string(trim(std::string_view(t).substr(dashes + 4)));
    out.push_back(std::move(e));
  }
  return out;
}

void apply_accepted(const std::vector<AcceptedEntry>& accepted,
                    const std::optional<io::AnyProgram>& repro, UniqueFinding* u) {
  for (const AcceptedEntry& e : accepted) {
    if (e.target != u->target || !glob_match(e.pattern, u->signature)) continue;
    if (e.if_deadline_level_passes) {
      bool passes = false;
      if (repro)
        std::visit(
            [&]<class P>(const P& p) {
              using S = typename P::Subject;
              typename S::Lockstep lockstep;
              passes = run_lockstep<S>(lockstep, p.config, p.ops, Level::kDeadline).ok();
            },
            *repro);
      if (!passes) continue;
    }
    u->status = FindingStatus::kAccepted;
    u->accepted_reason = e.reason;
    return;
  }
}

}  // namespace diffsched::campaign
