#include "campaign/report.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "campaign/report_text.h"

namespace diffsched::campaign {

using namespace report_text;  // NOLINT(google-build-using-namespace): the formats' shared words

// Markdown.

namespace {

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


}  // namespace diffsched::campaign
