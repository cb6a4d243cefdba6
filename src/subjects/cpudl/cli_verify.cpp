// `diffsched verify cpudl` (cli/verify.h): its options and its run.
#include <algorithm>

#include "cli/verify.h"
#include "subjects/cpudl/verify_bfs.h"

namespace diffsched::cli {

namespace {

struct CpudlOptions {
  unsigned cpus = 5;
  unsigned deadlines = 4;
  std::string domain = "window";
  std::string level = "deadline";
  unsigned max_depth = 0;
  bool force = false;
  std::string output = fmt::format("diffsched-verify-{}.ops", cpudl::Subject::kName);
};

std::string list_values(const std::vector<kernel::u64>& values) {
  std::string out;
  for (auto v : values) out += (out.empty() ? "" : ", ") + io::format_value(v);
  return "{" + out + "}";
}

int run_cpudl_once(const CpudlOptions& o, verify::Domain domain, Level level) {
  verify::CpudlBounds b;
  b.cpus = o.cpus;
  b.deadlines = o.deadlines;
  b.domain = domain;
  b.level = level;
  b.max_depth = o.max_depth;
  const std::string command = fmt::format(
      "diffsched verify {} --cpus {} --deadlines {} --domain {} --level {}{}", cpudl::Subject::kName, o.cpus,
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

}  // namespace

template <>
std::pair<CLI::App*, Runner> add_verify_subject<cpudl::Subject>(CLI::App& verify) {
  auto c = std::make_shared<CpudlOptions>();
  auto* cpudl = verify.add_subcommand(
      std::string(cpudl::Subject::kName), "Breadth-first search over every reachable state of both heaps and the model");
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
  return {cpudl, [=] { return run_cpudl(*c); }};
}

}  // namespace diffsched::cli
