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


}  // namespace diffsched::campaign
