// `diffsched campaign --time S [--targets T,...] [--jobs N] [--engine libfuzzer|afl]
//  [--corpus DIR] [--out DIR]`: a time-boxed fuzz campaign (campaign/campaign.h)
// that ends with its Markdown summary.
#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "campaign/campaign.h"
#include "campaign/layout.h"
#include "cli/commands.h"
#include "perf/run.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::cli {

namespace fs = std::filesystem;

namespace {

// A pair of --fn OLD.c,NEW.c,FUNCTION[,SPEC], read at the edge.
struct FnPair {
  std::string old_file, new_file, function, spec;
};

struct CampaignArgs {
  campaign::CampaignOptions o;
  std::vector<std::string> fn_args;  // --fn, as given
  std::vector<FnPair> fn_pairs;      // the same, read
  std::uint64_t fn_time = 60;        // --fn-time: each pair's fuzzing seconds
  bool quiet = false;
  bool perf = false;              // --perf: the extra perf stage
  std::uint64_t perf_runs = 2000;  // its evaluations per search
};

// The --perf stage: `diffsched perf` (worst case only, no clock) on both
// subjects at their default sizes, reproducers in OUT/perf/, a Markdown
// section appended to OUT/summary.md. Returns 1 if it met a behavioural
// finding, 2 if it could not write, else 0.
int perf_stage(const CampaignArgs& a) {
  std::string md = "\n## Perf stage (diffsched perf, worst counted ratios)\n\n"
                   "| subject | cpus | side | metric | ratio | guided found | random | reproducer |\n"
                   "|---|---|---|---|---|---|---|---|\n";
  int status = 0;
  const campaign::Layout layout{a.o.out, a.o.corpus};
  for (const SubjectTool* tool : kSubjectTools) {
    const std::string_view subject = tool->name;
    perf::PerfSettings ro;
    ro.subject = tool;
    ro.metric = perf::default_metric(*tool);
    ro.cpus.assign(tool->perf_cpus.begin(), tool->perf_cpus.end());
    ro.runs = a.perf_runs;
    ro.seed = a.o.seed.value_or(1);
    ro.clock = false;
    ro.best = false;
    ro.out = layout.perf().string();
    ro.self = a.o.self;
    std::string error;
    const auto r = perf::run(ro, &error);
    if (!r) {
      fmt::print(stderr, "diffsched: error: campaign --perf: {}\n", error);
      return kExitBadInput;
    }
    for (const perf::Row& row : r->worst)
      md += fmt::format("| {} | {} | {} | {} | {:.3f} | {:.3f} | {:.3f} | `{}` |\n", subject,
                        row.cpus, row.side, perf::metric_name(ro.metric), row.ratio,
                        row.found_ratio, row.random_ratio, row.reproducer);
    for (const std::string& f : r->findings) {
      md += fmt::format("\nFINDING ({}): {}\n", subject, f);
      status = kExitFinding;
    }
  }
  {
    std::ofstream summary(layout.summary_md(), std::ios::app);
    summary << md;
    summary.flush();
    if (!summary) {  // the finding's status wins over a lost report line
      fmt::print(stderr, "diffsched: error: cannot write {}\n", layout.summary_md().string());
      if (status == kExitOk) status = kExitBadInput;
    }
  }
  if (!a.quiet) fmt::print("{}", md);
  return status;
}

// "" or the one line saying what is wrong with a --fn value.
std::string read_fn_pair(const std::string& text, FnPair* p) {
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t comma = text.find(',', at);
    parts.push_back(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (parts.size() < 3 || parts.size() > 4 || (parts.size() == 4 && parts[3].empty()))
    return fmt::format("--fn {}: expected OLD.c,NEW.c,FUNCTION[,SPEC.fnspec]", text);
  *p = {parts[0], parts[1], parts[2], parts.size() == 4 ? parts[3] : ""};
  for (const std::string* f : {&p->old_file, &p->new_file, &p->spec})
    if ((f != &p->spec || !f->empty()) && !fs::is_regular_file(*f))
      return fmt::format("--fn {}: {} is not a file", text, f->empty() ? "''" : *f);
  const bool name = !p->function.empty() && !std::isdigit(static_cast<unsigned char>(p->function[0])) &&
                    std::all_of(p->function.begin(), p->function.end(),
                                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!name) return fmt::format("--fn {}: `{}` is not a C function name", text, p->function);
  return "";
}

// The --fn stage: `diffsched fn --fuzz` on each pair as a child (its verdict
// read back as data, --verdict-json), a Markdown section appended to
// OUT/summary.md. Returns 1 if a pair has a finding, 2 if a pair could not
// be checked (or the summary not written), else 0.
int fn_stage(const CampaignArgs& a) {
  const campaign::Layout layout{a.o.out, a.o.corpus};
  std::string md = fmt::format("\n## fn stage (diffsched fn --fuzz {} s a pair)\n\n"
                               "| function | old | new | verdict | fuzzed inputs | replay or error |\n"
                               "|---|---|---|---|---|---|\n", a.fn_time);
  int status = kExitOk;
  std::error_code ec;
  fs::create_directories(layout.fn(), ec);
  for (std::size_t k = 0; k < a.fn_pairs.size(); ++k) {
    const FnPair& p = a.fn_pairs[k];
    const fs::path json_file = layout.fn() / fmt::format("{}-{}.json", k + 1, p.function);
    const fs::path log = layout.fn() / fmt::format("{}-{}.log", k + 1, p.function);
    std::vector<std::string> argv = {util::self_path(), "fn", "--old", p.old_file, "--new", p.new_file,
                                     "--function", p.function, "--fuzz", std::to_string(a.fn_time),
                                     "--fuzz-corpus", layout.fn_corpus(p.function).string(),
                                     "--verdict-json", json_file.string(),
                                     "--seed", std::to_string(a.o.seed.value_or(1))};
    if (!p.spec.empty()) argv.insert(argv.end(), {"--spec", p.spec});
    fs::remove(json_file, ec);
    const int rc = tools::run({.argv = argv, .log = log, .deadline = static_cast<double>(a.fn_time) + 900,
                               .stdin_null = true});
    const auto j = nlohmann::json::parse(tools::read_text(json_file), nullptr, false);
    std::string verdict = "error", fuzzed = "-", detail;
    if (j.is_object()) {
      verdict = j.value("verdict", std::string("?"));
      if (j.contains("fuzz") && j["fuzz"].contains("runs") && j["fuzz"]["runs"].is_number())
        fuzzed = std::to_string(j["fuzz"]["runs"].get<std::uint64_t>());
      if (j.contains("first_divergence")) detail = "`" + j["first_divergence"].value("replay", "") + "`";
      if (j.contains("error")) detail = j.value("error", "");
    }
    if (rc == kExitFinding) {
      status = std::max(status, kExitFinding);
    } else if (rc != kExitOk) {
      status = kExitBadInput;
      if (detail.empty()) detail = fmt::format("exit {}, no verdict (see {})", rc, log.string());
    }
    md += fmt::format("| `{}` | `{}` | `{}` | {} | {} | {} |\n", p.function, p.old_file, p.new_file, verdict,
                      fuzzed, detail);
  }
  std::ofstream summary(layout.summary_md(), std::ios::app);
  summary << md;
  summary.flush();
  if (!summary) {
    fmt::print(stderr, "diffsched: error: cannot write {}\n", layout.summary_md().string());
    status = std::max(status, kExitBadInput);
  }
  if (!a.quiet) fmt::print("{}", md);
  return status;
}

const campaign::TargetRun& first_failure(const campaign::CampaignReport& r) {
  for (const auto& t : r.targets)
    if (t.status == campaign::TargetStatus::kEngineFailed) return t;
  return r.targets.front();
}

int run_campaign_cmd(CampaignArgs& a) {
  a.o.self = self_command();
  campaign::CampaignReport report;
  std::string error;
  const int status = campaign::run_campaign(a.o, &report, &error);
  if (!error.empty()) {  // bad input or could not start: no reports
    fmt::print(stderr, "diffsched: error: campaign: {}\n", error);
    return status;
  }
  if (!a.quiet) fmt::print("\n{}", campaign::report_markdown(report));
  fmt::print("\nreports: {0}/summary.md {0}/junit.xml {0}/results.sarif\n", a.o.out.string());
  int stage_status = 0;  // the extra stages': 0, 1 or 2
  if (a.perf && !report.interrupted) stage_status = perf_stage(a);
  if (!a.fn_pairs.empty() && !report.interrupted) stage_status = std::max(stage_status, fn_stage(a));
  if (report.interrupted)
    fmt::print(stderr, "diffsched: campaign interrupted (signal {}); the corpus holds what was "
                       "merged\n", report.signal);
  else if (const std::size_t n = report.engine_failures())
    fmt::print(stderr, "diffsched: error: campaign: {} target{} engine-failed (first: {}: {})\n",
               n, n == 1 ? "" : "s", first_failure(report).target, first_failure(report).error);
  // The extra stages raise the status, never lower it (2 and 130/143 stay).
  if (status == kExitOk || (status == kExitFinding && stage_status == kExitBadInput))
    return std::max(status, stage_status);
  return status;
}

}  // namespace

Runner add_campaign(CLI::App& app) {
  auto a = std::make_shared<CampaignArgs>();
  auto* sub = app.add_subcommand(
      "campaign", "Time-boxed fuzz campaign over the targets: dedup, minimise, report");
  sub->add_option("--time", a->o.seconds, "fuzzing time over all targets, seconds")
      ->required()
      ->check(CLI::Range(1.0, 1e7));
  sub->add_option("--targets", a->o.targets, "targets (default all: " + target_names() + ")")
      ->delimiter(',');
  sub->add_option("--jobs", a->o.jobs, "parallel fuzzing jobs per target (libFuzzer -fork)")
      ->check(CLI::Range(1u, 256u));
  sub->add_option("--engine", a->o.engine, "libfuzzer or afl")
      ->check(CLI::IsMember({"libfuzzer", "afl"}));
  sub->add_option("--corpus", a->o.corpus,
                  "corpus directory: DIR/<target> seeds the run and receives new inputs "
                  "(created from the checked-in corpus if missing)");
  sub->add_option("--out", a->o.out,
                  "output directory for reports and findings: new, empty or a campaign's "
                  "earlier --out (its reports, findings/ and work/ are replaced)");
  sub->add_flag("--force", a->o.force,
                "use a non-empty --out that is not a campaign's (only the campaign's own files "
                "in it are replaced)");
  sub->add_option("--accepted", a->o.accepted,
                  "accepted divergences file (default: corpus/accepted.txt of the source)")
      ->check(CLI::ExistingFile);
  sub->add_option("--fuzz-dir", a->o.fuzz_dir,
                  "use these libFuzzer binaries instead of building the fuzz preset");
  sub->add_option("--afl-dir", a->o.afl_dir,
                  "use these AFL++ binaries instead of building the afl preset");
  sub->add_option("--reruns", a->o.reruns, "re-runs per unique finding (flaky or real)")
      ->check(CLI::Range(1u, 100u));
  sub->add_option("--seed", a->o.seed, "engine seed");
  sub->add_option("--progress-every", a->o.progress_every,
                  "seconds between progress lines when stdout is not a terminal")
      ->check(positive());
  sub->add_flag("-q,--quiet", a->quiet, "do not print the Markdown summary at the end");
  sub->add_flag("--perf", a->perf,
                "extra stage: diffsched perf (worst case, both subjects), worst ratios in the "
                "summary, reproducers in OUT/perf/");
  sub->add_option("--perf-runs", a->perf_runs, "evaluations per perf search (default 2000)")
      ->check(positive());
  auto* fn = sub->add_option("--fn", a->fn_args,
                  "extra stage, repeatable: OLD.c,NEW.c,FUNCTION[,SPEC.fnspec], a function pair "
                  "run by diffsched fn --fuzz (docs/fn.md \"Fuzzing\"), its corpus kept in "
                  "CORPUS/fn-FUNCTION, a row in the summary");
  sub->add_option("--fn-time", a->fn_time, "--fn: each pair's fuzzing seconds (default 60)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{86400}))
      ->needs(fn);
  return [a] {
    for (const std::string& text : a->fn_args) {  // every pair read before anything runs
      FnPair p;
      if (const std::string why = read_fn_pair(text, &p); !why.empty())
        return bad_input(fmt::format("campaign: {}", why));
      const fs::path corpus = campaign::Layout{a->o.out, a->o.corpus}.fn_corpus(p.function);
      if (std::error_code ec; fs::exists(corpus, ec) && !fs::is_directory(corpus, ec))
        return bad_input(fmt::format("campaign: --fn {}: its corpus {} is not a directory", text, corpus.string()));
      a->fn_pairs.push_back(std::move(p));
    }
    return run_campaign_cmd(*a);
  };
}

}  // namespace diffsched::cli
