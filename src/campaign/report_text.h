// Helpers the three report formats share (report_markdown.cpp,
// report_junit.cpp, report_sarif.cpp): text hygiene and the words a finding
// and a target are described with. Internal to src/campaign/report*.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "campaign/report.h"

namespace diffsched::campaign::report_text {

// The project's home, for SARIF's tool.driver.informationUri and rule helpUri.
// TODO(lead): set to the project's real address once it has one.
inline constexpr std::string_view kInformationUri = "https://github.com/diffsched/diffsched";

inline bool fails(const UniqueFinding& f) { return f.status != FindingStatus::kAccepted; }

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not
// one (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i);
// `s` as valid UTF-8 without control characters: each control byte (other
// than newline and, when `keep_tab`, tab), DEL and each byte that is not part
// of a valid UTF-8 sequence becomes the visible text "\xNN". O(|s|).
std::string clean_text(std::string_view s, bool keep_newline, bool keep_tab = true);
std::string one_line(std::string_view s);
std::string grouped(std::uint64_t n);          // "1,234,567"
std::string seconds_text(double s);            // "180 s", "2.5 s", "0 s"
std::string plural(std::size_t n, std::string_view one, std::string_view many);
// The targets of the report in order, plus any a finding names that the
// target list lacks (so no finding is ever left out of a per-target view).
std::vector<std::string> target_names(const CampaignReport& r);
const TargetRun* find_run(const CampaignReport& r, std::string_view name);
// The finding in one sentence (kind, op, sides, field, values).
std::string finding_words(const Finding& f);
std::string reruns_text(const UniqueFinding& f);
std::string status_cell(const CampaignReport& r, const TargetRun& t);

}  // namespace diffsched::campaign::report_text
