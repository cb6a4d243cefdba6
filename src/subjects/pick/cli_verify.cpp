// `diffsched verify pick` (cli/verify.h): its options and its run.
#include <algorithm>

#include "cli/verify.h"
#include "subjects/pick/verify_check.h"

namespace diffsched::cli {

namespace {

struct PickOptions {
  unsigned bits = 8;
  unsigned boundary_cpus = 192;
  bool no_z3 = false;
  bool force = false;
  std::string output = fmt::format("diffsched-verify-{}.ops", pick::Subject::kName);
};

int run_pick(const PickOptions& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  pick::verify::PickBounds b;
  b.bits = o.bits;
  b.boundary_cpus = o.boundary_cpus;
  b.z3 = !o.no_z3;
  const std::string command =
      fmt::format("diffsched verify {} --bits {} --boundary-cpus {}{}", pick::Subject::kName, o.bits,
                  o.boundary_cpus, o.no_z3 ? " --no-z3" : "");
  const pick::verify::PickEstimate e = pick::verify::estimate_pick(b);
  const std::string estimate = fmt::format(
      "{} + {} triples, ~{} at {} and {} triples/s",
      verify::human_count(static_cast<unsigned long long>(e.every_triples)),
      verify::human_count(static_cast<unsigned long long>(e.two_cpu_triples)),
      human_seconds(e.seconds),
      verify::human_count(static_cast<unsigned long long>(
          pick::verify::PickEstimate::kEveryTriplesPerSecond)),
      verify::human_count(static_cast<unsigned long long>(
          pick::verify::PickEstimate::kTwoCpuTriplesPerSecond)));
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
  const pick::verify::PickResult r = pick::verify::verify_pick(b, sides, print_progress);
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
    fmt::print("  Z3 {:<19} {} ({:.1f} s): {}\n", l.name, pick::verify::lemma_status_name(l.status),
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

template <>
std::pair<CLI::App*, Runner> add_verify_subject<pick::Subject>(CLI::App& verify) {
  auto p = std::make_shared<PickOptions>();
  auto* pick = verify.add_subcommand(
      std::string(pick::Subject::kName), "Every triple of masks up to --bits CPUs, two-CPU triples up to "
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
  return {pick, [=] { return run_pick(*p); }};
}

}  // namespace diffsched::cli
