// `diffsched verify cpudl|pick`: bounded exhaustive verification
// (subjects/cpudl/verify_bfs.h, subjects/pick/verify_check.h). Prints what was explored and
// either "verified within bounds: ..." (exit 0) or the shortest
// counterexample, also written as an .ops file for `diffsched replay` (exit 1).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "io/program.h"
#include "io/text.h"
#include "util/text.h"
#include "subjects/cpudl/verify_bfs.h"
#include "subjects/pick/verify_check.h"

namespace diffsched::cli {

namespace {

struct CpudlOptions {
  unsigned cpus = 5;
  unsigned deadlines = 4;
  std::string domain = "window";
  std::string level = "deadline";
  unsigned max_depth = 0;
  bool force = false;
  std::string output = "diffsched-verify-cpudl.ops";
};

struct PickOptions {
  unsigned bits = 8;
  unsigned boundary_cpus = 192;
  bool no_z3 = false;
  bool force = false;
  std::string output = "diffsched-verify-pick.ops";
};

void print_progress(const verify::Progress& p) {
  fmt::print(stderr, "verify: {}\n", p.line);
  std::fflush(stderr);
}

// Memory this process may use: MemAvailable, else physical memory; 0 if unknown.
double available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

std::string human_bytes(double b) {
  if (b < 1e6) return fmt::format("{:.0f} kB", b / 1e3);
  if (b < 1e9) return fmt::format("{:.0f} MB", b / 1e6);
  return fmt::format("{:.3g} GB", b / 1e9);
}

std::string human_seconds(double s) {
  if (s < 120) return fmt::format("{:.0f} s", s);
  if (s < 7200) return fmt::format("{:.0f} min", s / 60);
  if (s < 3 * 86400) return fmt::format("{:.1f} h", s / 3600);
  return fmt::format("{:.3g} days", s / 86400);
}

// The refusal limits: a run expected to take longer than this, or to need more
// than kMemoryShare of the available memory, needs --force.
constexpr double kMaxSeconds = 3600;
constexpr double kMemoryShare = 0.8;

std::string list_values(const std::vector<kernel::u64>& values) {
  std::string out;
  for (auto v : values) out += (out.empty() ? "" : ", ") + io::format_value(v);
  return "{" + out + "}";
}

// Writes the counterexample program with a comment header (a missing
// directory made); false with *error.
bool write_ops(const std::string& path, const std::string& header, const io::AnyProgram& p,
               std::string* error) {
  return io::write_file(path, header + io::format_program(p), error);
}

template <class S>
int report_counterexample(const std::string& path, const std::string& command,
                          const io::Program<S>& program, const Verdict& replayed,
                          bool confirmed) {
  fmt::print("COUNTEREXAMPLE, {} op{} (shortest):\n", program.ops.size(),
             program.ops.size() == 1 ? "" : "s");
  {
    kernel::NrCpuIdsScope scope(program.config.nr_cpu_ids);
    for (const auto& op : program.ops) fmt::print("  {}\n", io::format_op(op));
  }
  if (replayed.finding) fmt::print("FINDING: {}\n", replayed.finding->describe());
  if (!confirmed) {
    fmt::print(
        "NOT CONFIRMED: the search saw this finding, but replaying the ops from the "
        "initial state did not reproduce it (a side depends on state the search's "
        "encoding drops)\n");
    return kExitFinding;
  }
  const std::string header = fmt::format(
      "# Shortest counterexample found by: {}\n# {}\n", command,
      replayed.finding ? replayed.finding->signature() : std::string("?"));
  // The counterexample is printed above: a failed write is said, and the
  // finding's status (1) wins (README: Exit statuses).
  if (std::string why; !write_ops(path, header, io::AnyProgram(program), &why)) {
    fmt::print(stderr, "diffsched: error: {} (the counterexample is printed above)\n", why);
    return kExitFinding;
  }
  fmt::print("written to {}; explain it with: {} replay {}\n", path, self_command(),
             util::shell_path(path));
  return kExitFinding;
}

int run_cpudl_once(const CpudlOptions& o, verify::Domain domain, Level level) {
  verify::CpudlBounds b;
  b.cpus = o.cpus;
  b.deadlines = o.deadlines;
  b.domain = domain;
  b.level = level;
  b.max_depth = o.max_depth;
  const std::string command = fmt::format(
      "diffsched verify cpudl --cpus {} --deadlines {} --domain {} --level {}{}", o.cpus,
      o.deadlines, verify::domain_name(domain), level_name(level),
      o.max_depth ? fmt::format(" --max-depth {}", o.max_depth) : std::string());
  if (b.cpus < 1 || b.cpus > verify::CpudlBounds::kMaxCpus || b.deadlines < 1 ||
      b.deadlines > verify::CpudlBounds::kMaxDeadlines) {
    fmt::print(stderr, "diffsched: error: --cpus must be in 1..{} and --deadlines in 1..{}\n",
               verify::CpudlBounds::kMaxCpus, verify::CpudlBounds::kMaxDeadlines);
    return kExitBadInput;
  }
  const verify::CpudlEstimate e = verify::estimate_cpudl(b);
  const std::string estimate = fmt::format(
      "~{} states, ~{} transitions ({} ops per state), ~{} of memory, ~{} at {} transitions/s",
      verify::human_count(static_cast<unsigned long long>(std::min(e.states, 1e18))),
      verify::human_count(static_cast<unsigned long long>(std::min(e.transitions, 1e18))),
      e.ops_per_state, human_bytes(e.bytes), human_seconds(e.seconds),
      verify::human_count(static_cast<unsigned long long>(
          verify::CpudlEstimate::kTransitionsPerSecond)));
  const double memory = available_bytes();
  const bool too_long = e.seconds > kMaxSeconds;
  const bool too_big = memory > 0 && e.bytes > kMemoryShare * memory;
  if ((too_long || too_big) && !o.force) {
    fmt::print(stderr,
               "diffsched: error: {}: estimated {} (docs/verification.md): {}{}{}; lower "
               "--cpus or --deadlines, set --max-depth, or pass --force to run it anyway\n",
               command, estimate, too_big ? fmt::format("more than {:.0f}% of the {} of "
                                                        "memory available",
                                                        100 * kMemoryShare, human_bytes(memory))
                                          : std::string(),
               too_big && too_long ? " and " : "",
               too_long ? fmt::format("more than {}", human_seconds(kMaxSeconds)) : std::string());
    return kExitBadInput;
  }
  fmt::print("== {}\n", command);
  fmt::print("heap deadlines {} ({}), task deadlines {}, level {}\n",
             list_values(verify::heap_deadlines(b)), verify::domain_name(domain),
             list_values(verify::task_deadlines(b)), level_name(level));
  fmt::print("estimate: {}{}\n", estimate,
             too_long || too_big ? " (beyond the limits; run because of --force)" : "");
  std::fflush(stdout);

  cpudl::Lockstep lockstep;
  const verify::CpudlResult r = verify::verify_cpudl(b, lockstep, print_progress);
  if (!r.error.empty()) {
    fmt::print(stderr, "diffsched: error: {}\n", r.error);
    return kExitBadInput;
  }
  std::string by_depth;
  for (auto n : r.states_by_depth) by_depth += fmt::format(" {}", n);
  fmt::print("explored {} states, {} transitions ({} ops tried per state), {:.1f} s\n",
             r.states, r.transitions, r.ops_per_state, r.seconds);
  fmt::print("new states by depth:{}\n", by_depth);
  for (std::size_t k = 0; k < r.notes.size(); ++k)
    if (r.notes[k])
      fmt::print("note: {} on {} transitions\n", note_name(static_cast<NoteKind>(k)),
                 r.notes[k]);
  if (r.counterexample)
    return report_counterexample(o.output, command, *r.counterexample, r.replayed, r.confirmed);
  fmt::print(
      "verified within bounds: every sequence of {} cpudl ops on {} CPUs, with heap deadlines "
      "from the {} values above and task deadlines from the {} above, all affinity masks: "
      "every invariant holds on both heaps, the optimized heap equals the reference at level "
      "{} and both agree with the model after every op ({}{} reachable states, each "
      "checked once)\n",
      r.complete ? "any number of" : fmt::format("at most {}", o.max_depth), o.cpus,
      o.deadlines, o.deadlines + 2, level_name(level), r.complete ? "all " : "",
      r.states);
  return kExitOk;
}

int run_cpudl(const CpudlOptions& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is printed, also into a pipe
  const auto level = parse_level(o.level);
  if (!level) {
    fmt::print(stderr, "diffsched: error: unknown level '{}' (known: exact, deadline)\n", o.level);
    return kExitBadInput;
  }
  std::vector<verify::Domain> domains;
  if (o.domain == "wrap") {
    domains = {verify::Domain::kWrap63, verify::Domain::kWrap64};
  } else if (auto d = verify::parse_domain(o.domain)) {
    domains = {*d};
  } else {
    fmt::print(stderr,
               "diffsched: error: unknown domain '{}' (known: window, wrap, wrap63, wrap64)\n",
               o.domain);
    return kExitBadInput;
  }
  for (auto d : domains)
    if (int status = run_cpudl_once(o, d, *level); status != kExitOk) return status;
  return kExitOk;
}

int run_pick(const PickOptions& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  verify::PickBounds b;
  b.bits = o.bits;
  b.boundary_cpus = o.boundary_cpus;
  b.z3 = !o.no_z3;
  const std::string command =
      fmt::format("diffsched verify pick --bits {} --boundary-cpus {}{}", o.bits,
                  o.boundary_cpus, o.no_z3 ? " --no-z3" : "");
  const verify::PickEstimate e = verify::estimate_pick(b);
  const std::string estimate = fmt::format(
      "{} + {} triples, ~{} at {} and {} triples/s",
      verify::human_count(static_cast<unsigned long long>(e.every_triples)),
      verify::human_count(static_cast<unsigned long long>(e.two_cpu_triples)),
      human_seconds(e.seconds),
      verify::human_count(static_cast<unsigned long long>(
          verify::PickEstimate::kEveryTriplesPerSecond)),
      verify::human_count(static_cast<unsigned long long>(
          verify::PickEstimate::kTwoCpuTriplesPerSecond)));
  if (e.seconds > kMaxSeconds && !o.force) {
    fmt::print(stderr,
               "diffsched: error: {}: estimated {} (docs/verification.md): more than {}; lower "
               "--bits or --boundary-cpus, or pass --force to run it anyway\n",
               command, estimate, human_seconds(kMaxSeconds));
    return kExitBadInput;
  }
  fmt::print("== {}\n", command);
  fmt::print("estimate: {}{}\n", estimate,
             e.seconds > kMaxSeconds ? " (beyond the limit; run because of --force)" : "");
  std::fflush(stdout);
  const auto sides = pick::default_sides();
  std::string names;
  for (const auto& s : sides) names += (names.empty() ? "" : ", ") + std::string(s.name);
  fmt::print("variants {} against each other and the model\n", names);
  const verify::PickResult r = verify::verify_pick(b, sides, print_progress);
  if (!r.error.empty()) {
    fmt::print(stderr, "diffsched: error: {}\n", r.error);
    return kExitBadInput;
  }
  for (const auto& c : r.checks)
    fmt::print("  {:<13} {}: {} triples, {:.1f} s: {}\n", c.name, c.bounds, c.triples,
               c.seconds, c.passed ? "all equal" : "FAILED");
  if (r.counterexample)
    return report_counterexample(o.output, command, *r.counterexample, r.replayed,
                                 r.replayed.finding.has_value());
  for (const auto& l : r.lemmas) {
    fmt::print("  Z3 {:<19} {} ({:.1f} s): {}\n", l.name, verify::lemma_status_name(l.status),
               l.seconds, l.statement);
    if (!l.detail.empty()) fmt::print("      {}\n", l.detail);
  }
  if (b.z3)
    fmt::print("  transcription: the Z3 word model {} {} random triples (nr_cpu_ids 1..320)\n",
               r.transcription.mismatch.empty() ? "agrees with the code on" : "DISAGREES on",
               r.transcription.samples + (r.transcription.mismatch.empty() ? 0 : 1));
  if (!r.transcription.mismatch.empty()) fmt::print("      {}\n", r.transcription.mismatch);
  fmt::print("total {:.1f} s\n", r.seconds);
  if (!r.ok()) {
    fmt::print("NOT VERIFIED: a lemma was not proved or the word model disagrees with the code\n");
    return kExitFinding;
  }
  fmt::print(
      "verified within bounds: the {} variants and the model return the same CPU for every "
      "triple of masks with nr_cpu_ids <= {}, and for every triple with set bits on at most "
      "two CPUs with nr_cpu_ids <= {}{}\n",
      sides.size(), o.bits, o.boundary_cpus,
      b.z3 ? fmt::format("; the word lemmas are proved, which docs/verification.md extends to "
                         "every triple with nr_cpu_ids <= {}",
                         kernel::NR_CPUS)
           : std::string("; Z3 part skipped"));
  return kExitOk;
}

}  // namespace

Runner add_verify(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "verify", "Bounded exhaustive verification: prove the variants equivalent within bounds, "
                "or print the shortest counterexample (exit 0 verified, 1 counterexample, 2 bad "
                "arguments or a bound refused by its estimate)");
  sub->require_subcommand(1);

  auto c = std::make_shared<CpudlOptions>();
  auto* cpudl = sub->add_subcommand(
      "cpudl", "Breadth-first search over every reachable state of both heaps and the model");
  cpudl->add_option("--cpus", c->cpus, "nr_cpu_ids")
      ->capture_default_str()
      ->check(CLI::Range(1u, verify::CpudlBounds::kMaxCpus));
  cpudl->add_option("--deadlines", c->deadlines, "number K of heap deadline values")
      ->capture_default_str()
      ->check(CLI::Range(1u, verify::CpudlBounds::kMaxDeadlines));
  cpudl->add_option("--domain", c->domain,
                    "window (1000..), wrap63 (straddling 2^63), wrap64 (straddling 2^64), "
                    "or wrap (both)")
      ->capture_default_str()
      ->check(CLI::IsMember({"window", "wrap", "wrap63", "wrap64"}));
  cpudl->add_option("--level", c->level, "exact or deadline")
      ->capture_default_str()
      ->check(level_names());
  cpudl->add_option("--max-depth", c->max_depth,
                    "expand states up to this many ops from the empty heap (0: no limit)")
      ->capture_default_str();
  cpudl->add_option("-o,--output", c->output, "where to write a counterexample (.ops)")
      ->capture_default_str()
      ->check(output_file());
  cpudl->add_flag("--force", c->force,
                  "run even if the estimate (printed first; docs/verification.md) exceeds "
                  "an hour or 80% of the available memory");

  auto p = std::make_shared<PickOptions>();
  auto* pick = sub->add_subcommand(
      "pick", "Every triple of masks up to --bits CPUs, two-CPU triples up to "
              "--boundary-cpus, and the Z3 word lemmas");
  pick->add_option("--bits", p->bits, "every triple of masks for nr_cpu_ids 1..B")
      ->capture_default_str()
      ->check(CLI::Range(1u, 10u));
  pick->add_option("--boundary-cpus", p->boundary_cpus,
                   "two-CPU triples for nr_cpu_ids 1..M (0: skip)")
      ->capture_default_str()
      ->check(CLI::Range(0u, static_cast<unsigned>(kernel::NR_CPUS)));
  pick->add_flag("--no-z3", p->no_z3, "skip the Z3 word lemmas");
  pick->add_flag("--force", p->force,
                 "run even if the estimate (printed first; docs/verification.md) exceeds an hour");
  pick->add_option("-o,--output", p->output, "where to write a counterexample (.ops)")
      ->capture_default_str()
      ->check(output_file());

  return [=] { return cpudl->parsed() ? run_cpudl(*c) : run_pick(*p); };
}

}  // namespace diffsched::cli
