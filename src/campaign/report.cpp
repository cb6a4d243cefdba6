#include "campaign/report.h"

#include <algorithm>
#include <csignal>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/exit_status.h"

#ifndef DIFFSCHED_VERSION
#define DIFFSCHED_VERSION "0.0.0"
#endif

namespace diffsched::campaign {

std::string_view finding_status_name(FindingStatus status) {
  switch (status) {
    case FindingStatus::kNew: return "new";
    case FindingStatus::kAccepted: return "accepted";
    case FindingStatus::kFlaky: return "flaky";
    case FindingStatus::kNoRepro: return "no-repro";
  }
  return "?";
}

std::string_view target_status_name(TargetStatus status) {
  switch (status) {
    case TargetStatus::kRan: return "ran";
    case TargetStatus::kEngineFailed: return "engine-failed";
    case TargetStatus::kNotRun: return "not-run";
  }
  return "?";
}

std::size_t CampaignReport::engine_failures() const {
  return static_cast<std::size_t>(
      std::count_if(targets.begin(), targets.end(),
                    [](const TargetRun& t) { return t.status == TargetStatus::kEngineFailed; }));
}

int CampaignReport::exit_status() const {
  if (interrupted) return kExitSignalBase + (signal > 0 ? signal : SIGINT);
  if (engine_failures()) return kExitBadInput;
  return new_findings() ? kExitFinding : kExitOk;
}

std::size_t CampaignReport::new_findings() const {
  return static_cast<std::size_t>(std::count_if(
      findings.begin(), findings.end(),
      [](const UniqueFinding& f) { return f.status != FindingStatus::kAccepted; }));
}

namespace {

// The project's home, for SARIF's tool.driver.informationUri and rule helpUri.
// TODO(lead): set to the project's real address once it has one.
constexpr std::string_view kInformationUri = "https://github.com/diffsched/diffsched";

bool fails(const UniqueFinding& f) { return f.status != FindingStatus::kAccepted; }

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
std::string clean_text(std::string_view s, bool keep_newline, bool keep_tab = true) {
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

// ---------------------------------------------------------------------------
// Markdown.

// Plain text safe in a Markdown paragraph or table cell: one line, with the
// characters that start Markdown syntax backslash-escaped.
std::string md_text(std::string_view s) {
  std::string out;
  for (char c : one_line(s)) {
    if (std::string_view("\\`*_[]<>|#!~&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// An inline code span, or escaped text where a code span cannot hold it
// (backticks, empty, leading/trailing blanks). `in_table` escapes `|`, which
// GFM needs even inside code spans in a table.
std::string md_code(std::string_view raw, bool in_table = false) {
  std::string s = one_line(raw);
  if (s.empty()) return "(empty)";
  if (s.find('`') != std::string::npos || s.front() == ' ' || s.back() == ' ') return md_text(s);
  std::string out = "`";
  for (char c : s) {
    if (c == '|' && in_table) out += '\\';
    out += c;
  }
  return out + "`";
}

// A fenced code block whose fence is longer than any backtick run inside.
std::string md_fence(std::string_view lang, std::string_view raw) {
  std::string body = clean_text(raw, true);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  std::size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  if (body.empty()) body = "(empty)";
  return fmt::format("{}{}\n{}\n{}\n", fence, lang, body, fence);
}

// The summary stays short however much a campaign finds: the first
// kMaxDetailed failing findings in full, the rest one line each; reproducers
// cut to kMaxOpsLines lines (the file holds them all).
constexpr std::size_t kMaxDetailed = 20;
constexpr std::size_t kMaxOpsLines = 40;

std::string head_lines(const UniqueFinding& f) {
  std::size_t at = 0, lines = 0;
  while (at < f.ops_text.size() && lines < kMaxOpsLines) {
    const std::size_t end = f.ops_text.find('\n', at);
    at = end == std::string::npos ? f.ops_text.size() : end + 1;
    ++lines;
  }
  if (at >= f.ops_text.size()) return f.ops_text;
  std::size_t rest = 0;
  for (std::size_t i = at; i < f.ops_text.size(); ++i) rest += f.ops_text[i] == '\n';
  if (f.ops_text.back() != '\n') ++rest;
  return fmt::format("{}# ... {} more lines in {}\n", f.ops_text.substr(0, at), rest,
                     f.ops_path.empty() ? "the reproducer" : f.ops_path);
}

std::string md_headline(const CampaignReport& r) {
  const std::size_t n = r.new_findings();
  std::string verdict = n == 0 ? "no new finding" : plural(n, "new finding", "new findings");
  if (const std::size_t failed = r.engine_failures())
    verdict = fmt::format("{} engine-failed, {}", plural(failed, "target", "targets"), verdict);
  std::string line = fmt::format("**diffsched campaign: {}{}** — {}, {}", verdict,
                                 r.interrupted ? " (interrupted)" : "",
                                 plural(r.targets.size(), "target", "targets"),
                                 seconds_text(r.seconds));
  if (r.budget_seconds > 0)
    fmt::format_to(std::back_inserter(line), " of {} budget", seconds_text(r.budget_seconds));
  fmt::format_to(std::back_inserter(line), ", {} ×{} {}", md_text(r.engine), r.jobs,
                 r.jobs == 1 ? "job" : "jobs");
  const std::size_t accepted = r.findings.size() - n;
  if (accepted) fmt::format_to(std::back_inserter(line), ", {} accepted", accepted);
  return line;
}

}  // namespace

std::string report_markdown(const CampaignReport& r) {
  std::string out = "# diffsched campaign\n\n";
  out += md_headline(r) + "\n";
  if (r.interrupted)
    out += fmt::format(
        "\n> **Interrupted:** the campaign was stopped by a signal after {} of its {} budget; "
        "the numbers below cover only what ran.\n",
        seconds_text(r.seconds), seconds_text(r.budget_seconds));
  std::vector<std::string> meta;
  if (!r.started_utc.empty()) meta.push_back("started " + md_code(r.started_utc));
  if (!r.corpus_dir.empty()) meta.push_back("corpus " + md_code(r.corpus_dir));
  if (!r.out_dir.empty()) meta.push_back("reports in " + md_code(r.out_dir));
  if (!meta.empty()) out += fmt::format("\n{}.\n", fmt::join(meta, ", "));

  out += "\n## Targets\n\n";
  out +=
      "| target | engine | time | execs | exec/s | coverage (edges) | features | corpus | "
      "crash files | status |\n"
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n";
  for (const TargetRun& t : r.targets) {
    if (!t.ran()) {
      out += fmt::format("| {} | {} | — | — | — | — | — | {} | — | **{}** |\n",
                         md_code(t.target, true), md_text(t.engine.empty() ? "—" : t.engine),
                         grouped(t.corpus_before), md_text(status_cell(r, t)));
      continue;
    }
    const long long added = static_cast<long long>(t.corpus_after) -
                            static_cast<long long>(t.corpus_before);
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} → {} ({:+}) | {} | {} |\n",
                       md_code(t.target, true), md_text(t.engine), seconds_text(t.seconds),
                       grouped(t.execs), grouped(t.exec_per_s), grouped(t.coverage),
                       t.features ? grouped(t.features) : "—", grouped(t.corpus_before),
                       grouped(t.corpus_after), added, grouped(t.crash_files),
                       md_text(status_cell(r, t)));
  }

  std::vector<const UniqueFinding*> failing;
  for (const UniqueFinding& f : r.findings)
    if (fails(f)) failing.push_back(&f);
  if (!failing.empty()) {
    out += "\n## Findings\n";
    std::size_t index = 0;
    for (const UniqueFinding* f : failing) {
      if (index == kMaxDetailed) {
        out += fmt::format("\n### {} more\n\n", failing.size() - index);
        for (auto it = failing.begin() + static_cast<std::ptrdiff_t>(index); it != failing.end(); ++it)
          out += fmt::format("- {} in {}: {}{}\n", finding_status_name((*it)->status),
                             md_code((*it)->target), md_code((*it)->signature),
                             (*it)->ops_path.empty() ? "" : ", reproducer " + md_code((*it)->ops_path));
        break;
      }
      out += fmt::format("\n### {}. {} in {}: {}\n\n", ++index, finding_status_name(f->status),
                         md_code(f->target), md_code(f->signature));
      out += md_text(finding_words(f->finding)) + "\n\n";
      out += fmt::format("- duplicates: {}", plural(f->duplicates, "crash file", "crash files"));
      if (!f->first_crash.empty()) out += fmt::format(" (first {})", md_code(f->first_crash));
      out += fmt::format("\n- re-runs: {}\n", reruns_text(*f));
      for (const auto& v : f->variants)
        out += fmt::format("- also after another op: {} ({}, {} ops, reproducer {})\n",
                           md_code(v.signature),
                           plural(v.duplicates, "crash file", "crash files"), v.minimized_ops,
                           md_code(v.ops_path.empty() ? v.reproduce : v.ops_path));
      out += fmt::format("- ops: {} original → {} minimised", f->original_ops, f->minimized_ops);
      if (!f->ops_path.empty()) out += fmt::format(", reproducer {}", md_code(f->ops_path));
      out += "\n";
      if (!f->check_file.empty())
        out += fmt::format("- check: {}\n",
                           md_code(f->check_line ? fmt::format("{}:{}", f->check_file,
                                                               f->check_line)
                                                 : f->check_file));
      if (!f->ops_text.empty()) out += "\nReproducer:\n\n" + md_fence("text", head_lines(*f));
      if (!f->reproduce.empty()) out += "\nReproduce:\n\n" + md_fence("sh", f->reproduce);
    }
  }

  bool any_accepted = false;
  for (const std::string& name : target_names(r)) {
    std::vector<const UniqueFinding*> accepted;
    for (const UniqueFinding& f : r.findings)
      if (f.target == name && !fails(f)) accepted.push_back(&f);
    if (accepted.empty()) continue;
    if (!any_accepted) out += "\n## Accepted divergences\n";
    any_accepted = true;
    out += fmt::format("\n### {}\n\n", md_code(name));
    for (const UniqueFinding* f : accepted)
      out += fmt::format("- {} ({}{}): {}\n", md_code(f->signature),
                         plural(f->duplicates, "crash file", "crash files"),
                         f->ops_path.empty()
                             ? std::string()
                             : fmt::format(", {} ops in {}", f->minimized_ops,
                                           md_code(f->ops_path)),
                         f->accepted_reason.empty() ? "no reason given"
                                                    : md_text(f->accepted_reason));
  }
  return out;
}

// ---------------------------------------------------------------------------
// JUnit XML.

namespace {

// Text for XML 1.0 content (`attribute` false) or a double-quoted attribute:
// markup characters escaped, forbidden control characters and invalid UTF-8
// shown as "\xNN"; in attributes, newlines and tabs as character references
// so that a reader gets them back.
std::string xml_escape(std::string_view raw, bool attribute) {
  std::string out;
  for (char c : clean_text(raw, true)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}

std::string attr(std::string_view raw) { return xml_escape(raw, true); }
std::string xml_text(std::string_view raw) { return xml_escape(raw, false); }

// junit-10.xsd's SUREFIRE_TIME: digits with at most three decimals.
std::string junit_time(double s) { return fmt::format("{:.3f}", s > 0 ? s : 0.0); }

std::string finding_block(const UniqueFinding& f) {
  std::string out = fmt::format("{} finding {} in target {}\n{}\n", finding_status_name(f.status),
                                f.signature, f.target, f.finding.describe());
  fmt::format_to(std::back_inserter(out), "duplicates: {}; re-runs: {}; ops: {} original -> {} minimised\n",
                 f.duplicates, reruns_text(f), f.original_ops, f.minimized_ops);
  if (!f.check_file.empty())
    fmt::format_to(std::back_inserter(out), "check: {}:{}\n", f.check_file, f.check_line);
  if (!f.first_crash.empty()) fmt::format_to(std::back_inserter(out), "first crash: {}\n", f.first_crash);
  for (const auto& v : f.variants)
    fmt::format_to(std::back_inserter(out), "also after another op: {} ({} crash files, {} ops): {}\n",
                   v.signature, v.duplicates, v.minimized_ops, v.reproduce);
  if (!f.ops_path.empty()) fmt::format_to(std::back_inserter(out), "reproducer: {}\n", f.ops_path);
  if (!f.ops_text.empty()) {
    out += "--- reproducer ---\n" + f.ops_text;
    if (f.ops_text.back() != '\n') out += '\n';
    out += "---\n";
  }
  if (!f.reproduce.empty()) fmt::format_to(std::back_inserter(out), "reproduce: {}\n", f.reproduce);
  return out;
}

std::string target_stats(const TargetRun& t) {
  return fmt::format(
      "{} ({}): {:.1f} s, {} execs, {} exec/s, coverage {} edges, {} features, corpus {} -> {}, "
      "{} crash files\n",
      t.target, t.engine, t.seconds, t.execs, t.exec_per_s, t.coverage, t.features,
      t.corpus_before, t.corpus_after, t.crash_files);
}

}  // namespace

// One <testsuite> for the campaign, one <testcase> per target. Every unique
// failing finding of a target is one <failure> of its test case (junit-10.xsd
// and its junit-4.xsd ancestor allow any number per test case); accepted
// findings go to <system-out>. A target the engine could not run is an
// <error>; one left unrun by an interrupt is <skipped>. The suite's
// `failures` counts failing test cases, as JUnit readers expect.
std::string report_junit(const CampaignReport& r) {
  struct Case {
    std::string name;
    const TargetRun* run = nullptr;
    std::vector<const UniqueFinding*> failing, accepted;
  };
  std::vector<Case> cases;
  for (const std::string& name : target_names(r)) {
    Case c{name, find_run(r, name), {}, {}};
    for (const UniqueFinding& f : r.findings)
      if (f.target == name) (fails(f) ? c.failing : c.accepted).push_back(&f);
    cases.push_back(std::move(c));
  }
  std::size_t failures = 0, errors = 0, skipped = 0;
  const auto is_skipped = [&](const Case& c) {
    return c.run && c.run->status == TargetStatus::kNotRun;
  };
  const auto is_error = [&](const Case& c) {
    return c.run && c.run->status == TargetStatus::kEngineFailed;
  };
  for (const Case& c : cases) {
    if (!c.failing.empty()) ++failures;
    if (is_error(c)) ++errors;
    if (is_skipped(c)) ++skipped;
  }

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"diffsched campaign\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "time=\"{}\">\n",
      cases.size(), failures, errors, junit_time(r.seconds));
  out += fmt::format(
      "  <testsuite name=\"diffsched.campaign\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" time=\"{}\"",
      cases.size(), failures, errors, skipped, junit_time(r.seconds));
  if (!r.started_utc.empty()) out += fmt::format(" timestamp=\"{}\"", attr(r.started_utc));
  out += ">\n    <properties>\n";
  const std::pair<std::string_view, std::string> props[] = {
      {"engine", r.engine},
      {"jobs", std::to_string(r.jobs)},
      {"budget_seconds", junit_time(r.budget_seconds)},
      {"corpus_dir", r.corpus_dir},
      {"out_dir", r.out_dir},
      {"interrupted", r.interrupted ? "true" : "false"},
      {"new_findings", std::to_string(r.new_findings())},
  };
  for (const auto& [name, value] : props)
    out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, attr(value));
  out += "    </properties>\n";

  for (const Case& c : cases) {
    const std::string engine = c.run && !c.run->engine.empty() ? c.run->engine : r.engine;
    out += fmt::format("    <testcase classname=\"diffsched.campaign.{}\" name=\"{}\" time=\"{}\">\n",
                       attr(engine), attr(c.name), junit_time(c.run ? c.run->seconds : 0));
    if (is_skipped(c)) {
      out += fmt::format("      <skipped>not run: {}</skipped>\n",
                         xml_text(c.run->error.empty() ? "the campaign was interrupted" : c.run->error));
    } else if (is_error(c)) {
      const std::string why = c.run->error.empty() ? "the engine did not run it" : c.run->error;
      out += fmt::format(
          "      <error message=\"engine-failed: {}\" type=\"engine-failed\">{}</error>\n",
          attr(one_line(why)), xml_text(why));
    }
    for (const UniqueFinding* f : c.failing) {
      const std::string message = fmt::format("{} finding {}: {}", finding_status_name(f->status),
                                              f->signature, finding_words(f->finding));
      out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", attr(message),
                         finding_status_name(f->status), xml_text(finding_block(*f)));
    }
    std::string system_out;
    if (c.run && c.run->status != TargetStatus::kNotRun) system_out += target_stats(*c.run);
    if (r.interrupted) system_out += "campaign interrupted before its time budget\n";
    for (const UniqueFinding* f : c.accepted) {
      system_out += fmt::format("accepted: {} ({}): {}\n", f->signature,
                                plural(f->duplicates, "crash file", "crash files"),
                                f->accepted_reason);
    }
    if (!system_out.empty())
      out += fmt::format("      <system-out>{}</system-out>\n", xml_text(system_out));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

// ---------------------------------------------------------------------------
// SARIF 2.1.0.

namespace {

// Keys in the order written (the SARIF spec's order), not sorted.
using json = nlohmann::ordered_json;

// "cpudl/divergence/exact", "cpudl/invariant/heap-order", "pick/model-mismatch/model".
std::string rule_id(const Finding& f) {
  return fmt::format("{}/{}/{}", f.subject, finding_kind_name(f.kind), f.check);
}

std::string rule_short(const Finding& f) {
  switch (f.kind) {
    case FindingKind::kDivergence:
      return fmt::format("A {} side differs from the reference at level {}.", f.subject, f.check);
    case FindingKind::kInvariant:
      return fmt::format("A {} side breaks its invariant {}.", f.subject, f.check);
    case FindingKind::kModelMismatch:
      return fmt::format("A {} side answers what the simple model does not permit.", f.subject);
    case FindingKind::kOutOfDomain:
      return fmt::format("A {} check ({}) failed while live deadlines spanned 2^63 or more.",
                         f.subject, f.check);
  }
  return "A diffsched finding.";
}

std::string rule_full(const Finding& f) {
  switch (f.kind) {
    case FindingKind::kDivergence:
      return fmt::format(
          "diffsched ran the same op sequence on every {} side in lockstep and compared each "
          "side's observation with the reference's at equivalence level {}; a side differed.",
          f.subject, f.check);
    case FindingKind::kInvariant:
      return fmt::format(
          "diffsched checks each {} side's own invariants after every op; invariant {} did "
          "not hold on one side.",
          f.subject, f.check);
    case FindingKind::kModelMismatch:
      return fmt::format(
          "diffsched compares each {} side with a simple model at the level the model can "
          "answer; a side gave an answer the model does not permit.",
          f.subject);
    case FindingKind::kOutOfDomain:
      return fmt::format(
          "A {} check ({}) failed while live deadlines spanned 2^63 or more, outside the "
          "domain where dl_time_before() orders deadlines.",
          f.subject, f.check);
  }
  return rule_short(f);
}

constexpr std::string_view kRuleHelp =
    "Replay the reproducer with the command in the result (diffsched replay FILE.ops) to see "
    "the op-by-op trace; diffsched minimize shrinks it further. If the difference is "
    "intended, add the signature with a reason to the campaign's accepted list.";

std::string result_message(const UniqueFinding& f) {
  std::string text = fmt::format("{} finding in target {}: {}.", finding_status_name(f.status),
                                 f.target, finding_words(f.finding));
  if (f.status == FindingStatus::kAccepted && !f.accepted_reason.empty())
    fmt::format_to(std::back_inserter(text), " Accepted: {}.", one_line(f.accepted_reason));
  // The command before the closing sentence, so that no period sticks to it.
  if (!f.reproduce.empty())
    fmt::format_to(std::back_inserter(text), " Reproduce: {}", one_line(f.reproduce));
  fmt::format_to(std::back_inserter(text), " (re-runs: {}; {}; ops {} -> {}).", reruns_text(f),
                 plural(f.duplicates, "crash file", "crash files"), f.original_ops,
                 f.minimized_ops);
  return text;
}

}  // namespace

std::string report_sarif(const CampaignReport& r) {
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  json results = json::array();
  for (const UniqueFinding& f : r.findings) {
    const std::string id = rule_id(f.finding);
    auto [it, inserted] = rule_index.emplace(id, rule_index.size());
    if (inserted) {
      rules.push_back({
          {"id", id},
          {"name", fmt::format("{}-{}", finding_kind_name(f.finding.kind), f.finding.check)},
          {"shortDescription", {{"text", rule_short(f.finding)}}},
          {"fullDescription", {{"text", rule_full(f.finding)}}},
          {"help", {{"text", std::string(kRuleHelp)}}},
          {"helpUri", std::string(kInformationUri)},
          {"defaultConfiguration", {{"level", "error"}}},
          {"properties", {{"tags", {"diffsched", std::string(f.finding.subject),
                                    std::string(finding_kind_name(f.finding.kind))}}}},
      });
    }
    json result = {
        {"ruleId", id},
        {"ruleIndex", it->second},
        {"level", fails(f) ? "error" : "note"},
        {"message", {{"text", result_message(f)}}},
        {"partialFingerprints", {{"diffschedSignature/v1", f.signature}}},
        {"properties",
         {{"target", f.target},
          {"status", std::string(finding_status_name(f.status))},
          {"signature", f.signature},
          {"duplicates", f.duplicates},
          {"reruns", f.reruns},
          {"rerunFailures", f.rerun_failures},
          {"originalOps", f.original_ops},
          {"minimizedOps", f.minimized_ops},
          {"reproduce", f.reproduce},
          {"ops", f.ops_text},
          {"opsPath", f.ops_path}}},
    };
    if (!f.variants.empty()) {
      json variants = json::array();
      for (const auto& v : f.variants)
        variants.push_back({{"signature", v.signature},
                            {"duplicates", v.duplicates},
                            {"minimizedOps", v.minimized_ops},
                            {"opsPath", v.ops_path},
                            {"reproduce", v.reproduce}});
      result["properties"]["variants"] = std::move(variants);
    }
    if (!f.check_file.empty()) {
      json physical = {{"artifactLocation", {{"uri", f.check_file}, {"uriBaseId", "SRCROOT"}}}};
      if (f.check_line > 0) physical["region"] = {{"startLine", f.check_line}};
      result["locations"] = json::array({{{"physicalLocation", physical}}});
    }
    if (f.status == FindingStatus::kAccepted)
      result["suppressions"] = json::array(
          {{{"kind", "external"},
            {"justification", f.accepted_reason.empty() ? "listed as accepted" : f.accepted_reason}}});
    results.push_back(std::move(result));
  }

  bool all_ran = true;
  json notifications = json::array();
  for (const TargetRun& t : r.targets) {
    if (t.ran()) continue;
    all_ran = false;
    const bool failed = t.status == TargetStatus::kEngineFailed;
    notifications.push_back(
        {{"level", failed ? "error" : "warning"},
         {"message", {{"text", fmt::format("Target {} {}: {}.", t.target,
                                           failed ? "engine-failed" : "not run",
                                           t.error.empty() ? "no reason given"
                                                           : one_line(t.error))}}},
         {"properties", {{"status", std::string(target_status_name(t.status))}}}});
  }
  if (r.interrupted)
    notifications.push_back(
        {{"level", "warning"},
         {"message", {{"text", fmt::format("The campaign was interrupted by signal {} before its "
                                           "time budget.", r.signal)}}}});
  const int exit_code = r.exit_status();
  json invocation = {
      {"executionSuccessful", all_ran && exit_code <= 1},
      {"exitCode", exit_code},
  };
  if (!r.started_utc.empty()) invocation["startTimeUtc"] = r.started_utc;
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  invocation["properties"] = {
      {"engine", r.engine},         {"jobs", r.jobs},
      {"seconds", r.seconds},       {"budgetSeconds", r.budget_seconds},
      {"interrupted", r.interrupted}, {"newFindings", r.new_findings()},
      {"engineFailures", r.engine_failures()},
  };

  json run = {
      {"tool",
       {{"driver",
         {{"name", "diffsched"},
          {"informationUri", std::string(kInformationUri)},
          {"version", DIFFSCHED_VERSION},
          {"rules", rules}}}}},
      {"automationDetails",
       {{"id", fmt::format("diffsched/campaign/{}", r.started_utc.empty() ? "run" : r.started_utc)}}},
      {"originalUriBaseIds",
       {{"SRCROOT", {{"description", {{"text", "The root of the diffsched source tree."}}}}}}},
      {"invocations", json::array({invocation})},
      {"results", results},
  };
  json log = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::array({run})},
  };
  return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace diffsched::campaign
