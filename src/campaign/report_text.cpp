#include "campaign/report_text.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace diffsched::campaign::report_text {



// ---------------------------------------------------------------------------
// Text hygiene shared by the three formats.

// Length of the valid UTF-8 sequence at s[i], or 0 if the bytes there are not
// one (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  char32_t cp = 0;
  if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (cp == 0xFFFE || cp == 0xFFFF) return 0;  // not XML characters
  return n;
}

// `s` as valid UTF-8 without control characters: each control byte (other
// than newline and, when `keep_tab`, tab), DEL and each byte that is not part
// of a valid UTF-8 sequence becomes the visible text "\xNN". O(|s|).
std::string clean_text(std::string_view s, bool keep_newline, bool keep_tab) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool allowed_ctl = (c == '\n' && keep_newline) || (c == '\t' && keep_tab);
    if ((c < 0x20 && !allowed_ctl) || c == 0x7F) {
      if (c == '\n' || c == '\r' || c == '\t') {
        out += ' ';
      } else {
        fmt::format_to(std::back_inserter(out), "\\x{:02X}", c);
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      fmt::format_to(std::back_inserter(out), "\\x{:02X}", c);
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string one_line(std::string_view s) { return clean_text(s, false, false); }

// "1,234,567".
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "180 s", "2.5 s", "0 s".
std::string seconds_text(double s) {
  if (!(s > 0)) return "0 s";
  if (s < 10) return fmt::format("{:.1f} s", s);
  return fmt::format("{:.0f} s", s);
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// The targets of the report in order, plus any a finding names that the
// target list lacks (so no finding is ever left out of a per-target view).
std::vector<std::string> target_names(const CampaignReport& r) {
  std::vector<std::string> names;
  for (const TargetRun& t : r.targets) names.push_back(t.target);
  for (const UniqueFinding& f : r.findings)
    if (std::find(names.begin(), names.end(), f.target) == names.end())
      names.push_back(f.target);
  return names;
}

const TargetRun* find_run(const CampaignReport& r, std::string_view name) {
  for (const TargetRun& t : r.targets)
    if (t.target == name) return &t;
  return nullptr;
}

// The finding in one sentence: "divergence after op #3 (set 1 100): side
// optimized vs reference at level exact, field slot.cpu at slot 1: expected 2,
// actual 1".
std::string finding_words(const Finding& f) {
  if (f.kind == FindingKind::kReader)  // a race target's (verdict.h)
    return one_line(fmt::format(
        "reader during op #{} ({}): side {}'s lockless reader reaches class {} at {}, which the "
        "{}'s never does in the program; {}: answers {} ({})",
        f.op_index, f.op_text, f.side, f.check, f.op_kind, f.against, f.where, f.actual,
        f.detail));
  std::string out = fmt::format("{} after op #{} ({})", finding_kind_name(f.kind), f.op_index,
                                f.op_text);
  const bool invariant = f.against.empty();
  if (invariant)
    fmt::format_to(std::back_inserter(out), ": side {} broke invariant {}", f.side, f.check);
  else
    fmt::format_to(std::back_inserter(out), ": side {} vs {} at {}", f.side, f.against,
                   f.check == "model" ? std::string("the model") : "level " + f.check);
  fmt::format_to(std::back_inserter(out), ", field {}{}{}", f.field, f.where.empty() ? "" : " at ",
                 f.where);
  if (invariant) {
    if (!f.actual.empty()) fmt::format_to(std::back_inserter(out), ": {}", f.actual);
  } else {
    fmt::format_to(std::back_inserter(out), ": expected {}, actual {}", f.expected, f.actual);
  }
  if (!f.detail.empty()) fmt::format_to(std::back_inserter(out), " ({})", f.detail);
  return one_line(out);
}

std::string reruns_text(const UniqueFinding& f) {
  if (f.reruns == 0) return "not re-run";
  return fmt::format("{} of {} failed", f.rerun_failures, f.reruns);
}

std::string status_cell(const CampaignReport& r, const TargetRun& t) {
  std::size_t counts[4] = {};
  for (const UniqueFinding& f : r.findings)
    if (f.target == t.target) ++counts[static_cast<std::size_t>(f.status)];
  if (t.status == TargetStatus::kNotRun) return t.error.empty() ? "not run" : "not run: " + t.error;
  if (t.status == TargetStatus::kEngineFailed)
    return "engine-failed: " + (t.error.empty() ? std::string("no reason given") : t.error);
  std::vector<std::string> parts;
  for (FindingStatus s : {FindingStatus::kNew, FindingStatus::kFlaky, FindingStatus::kNoRepro,
                          FindingStatus::kAccepted}) {
    const std::size_t n = counts[static_cast<std::size_t>(s)];
    if (n) parts.push_back(fmt::format("{} {}", n, finding_status_name(s)));
  }
  if (parts.empty()) return "ok";
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace diffsched::campaign::report_text
