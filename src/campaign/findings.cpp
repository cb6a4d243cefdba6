#include "campaign/findings.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "campaign/supervise.h"
#include "campaign/util.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "subjects.h"
#include "targets.h"
#include "engine/minimize.h"
#include "util/text.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

namespace {

// Writes the reproducer (.ops and binary) under OUT/findings and fills in
// what it shows and how to reproduce it.
void write_reproducer(const FindingOptions& c, const Crash& rep, const io::AnyProgram& repro,
                      bool minimised, const std::string& not_minimal, unsigned serial,
                      UniqueFinding* u) {
  const fs::path ops_path = c.layout.reproducer(u->target, serial, ".ops");
  const fs::path bin_path = c.layout.reproducer(u->target, serial, ".bin");
  u->ops_text = io::format_program(repro);
  if (!not_minimal.empty())  // the minimisation's budget (tools::MinimizeBudget) ran out
    u->ops_text = fmt::format("# not minimal: the {} ran out\n{}", not_minimal, u->ops_text);
  u->minimized_ops = std::visit([](const auto& p) { return p.ops.size(); }, repro);
  const auto bytes = io::encode_file(repro);
  std::string werr;
  io::write_file(ops_path.string(), u->ops_text, &werr);
  io::write_file(bin_path.string(),
                 std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                 &werr);
  u->ops_path = relative_or_absolute(ops_path);
  u->bin_path = relative_or_absolute(bin_path);
  if (judged_by_target(*rep.target)) {  // the target's own check (the lockstep shows nothing)
    const Verdict v = run_target(*rep.target, io::encode_body(repro));
    if (v.finding) u->finding = *v.finding;
  } else {
    std::visit(  // the finding as the reproducer shows it (replayed in-process)
        [&]<class P>(const P& p) {
          using S = typename P::Subject;
          typename S::Lockstep lockstep;
          const Verdict v =
              run_lockstep<S>(lockstep, p.config, p.ops, p.level.value_or(S::kDefaultLevel));
          if (v.finding) u->finding = *v.finding;
        },
        repro);
  }
  u->check_file = u->finding.check_source();
  u->check_line = u->finding.check_line;
  const fs::path fuzzer = c.fuzz_dir / std::string(rep.target->name);
  const std::string target_flag =
      judged_by_target(*rep.target) ? fmt::format(" --target {}", rep.target->name) : "";
  u->reproduce = minimised ? fmt::format("{} replay{} {}", c.self, target_flag,
                                         util::shell_path(u->ops_path))
                           : fmt::format("{} -runs=1 {}",
                                         util::shell_command_word(relative_or_absolute(fuzzer)),
                                         util::shell_path(u->first_crash));
}

// One unique finding: re-run (flaky or real), minimise, store, accept or
// fail. After an interrupt there are no re-runs and no minimisation (the
// campaign stops promptly); the in-process replay decides.
UniqueFinding make_finding(const FindingOptions& c, const std::string& sig, std::vector<Crash>& files,
                           unsigned serial, const std::vector<AcceptedEntry>& accepted) {
  std::stable_sort(files.begin(), files.end(),
                   [](const Crash& a, const Crash& b) { return a.size < b.size; });
  const Crash& rep = files.front();
  UniqueFinding u;
  u.target = std::string(rep.target->name);
  u.signature = sig;
  u.duplicates = files.size();
  u.first_crash = relative_or_absolute(rep.file);
  rerun(c.fuzz_dir / u.target, rep, sig, c.reruns, c.layout.rerun_log(), &u);  // stops early on a signal
  const bool hurry = interrupt_signal() != 0;
  std::optional<io::AnyProgram> program;
  if (auto bytes = read_bytes(rep.file)) {
    program = io::decode_body_for(rep.target->subject, *bytes);
    if (program) {
      std::visit([&](auto& p) { p.level = rep.target->level; }, *program);
      u.original_ops = std::visit([](const auto& p) { return p.ops.size(); }, *program);
    }
  }
  const bool replayable = !sig.ends_with(":no-repro") &&
                          sig.find(":sanitizer:") == std::string::npos &&
                          sig.find(":crash:") == std::string::npos;
  std::string why;
  std::optional<tools::MinimizeResult> min;
  if (program && replayable && !hurry) {
    tools::MinimizeBudget budget;
    budget.stop = interrupt_flag();  // a SIGINT/SIGTERM ends the minimisation at the next try
    const FuzzTarget* target = rep.target;
    const tools::ProgramCheck own = [target](const io::AnyProgram& p) {
      return run_target(*target, io::encode_body(p));
    };
    min = tools::minimize(*program, rep.target->level, &why, budget, nullptr,
                          judged_by_target(*rep.target) ? &own : nullptr);
  }
  std::optional<io::AnyProgram> repro = min ? std::optional(min->program) : program;
  if (repro)
    write_reproducer(c, rep, *repro, min.has_value(), min && !min->minimal ? min->stopped : "",
                     serial, &u);
  if (!repro)
    u.reproduce = fmt::format("{} -runs=1 {}",
                              util::shell_command_word(relative_or_absolute(c.fuzz_dir / u.target)),
                              util::shell_path(u.first_crash));
  if (hurry)
    u.status = replayable ? FindingStatus::kNew : FindingStatus::kNoRepro;
  else if (u.rerun_failures == 0)
    u.status = FindingStatus::kNoRepro;
  else if (u.rerun_failures < u.reruns)
    u.status = FindingStatus::kFlaky;
  else
    u.status = FindingStatus::kNew;
  if (u.status == FindingStatus::kNew) apply_accepted(accepted, repro, &u);
  return u;
}

}  // namespace

std::vector<UniqueFinding> make_findings(const FindingOptions& c, const std::vector<Crash>& crashes,
                                         const std::vector<AcceptedEntry>& accepted) {
  std::vector<UniqueFinding> findings;
  unsigned serial = 0;
  for (auto& [sig, files] : classify(crashes, c.fuzz_dir, c.layout.classify_log()))
    findings.push_back(make_finding(c, sig, files, ++serial, accepted));
  fold_variants(&findings);
  std::stable_sort(findings.begin(), findings.end(),
                   [](const UniqueFinding& a, const UniqueFinding& b) {
                     return (a.status == FindingStatus::kAccepted) <
                            (b.status == FindingStatus::kAccepted);
                   });
  return findings;
}

}  // namespace diffsched::campaign
