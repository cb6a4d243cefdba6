#include "campaign/classify.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "campaign/supervise.h"
#include "campaign/util.h"
#include "engine/runner.h"
#include "tools/process.h"

namespace diffsched::campaign {

BinaryVerdict run_binary_on(const fs::path& fuzzer, const fs::path& input, const fs::path& log) {
  BinaryVerdict v;
  if (!read_bytes(input)) return v;  // no input, no verdict: never "crash:exit-1"
  const int rc = tools::run({.argv = {fuzzer.string(), "-runs=1", input.string()}, .log = log});
  v.failed = rc != 0;
  if (!v.failed) return v;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto p = line.find("  signature "); p == 0) {
      v.signature = line.substr(12);
      return v;
    }
    if (auto sig = sanitizer_summary_signature(line)) v.signature = std::move(*sig);
  }
  if (v.signature.empty()) v.signature = fmt::format("crash:exit-{}", rc);
  return v;
}

std::string replay_signature(const FuzzTarget& target, const fs::path& file) {
  auto bytes = read_bytes(file);
  if (!bytes) return {};
  const Verdict v = run_target(target, *bytes);
  if (!v.finding || v.finding->kind == FindingKind::kOutOfDomain) return {};
  return v.finding->signature();
}

std::map<std::string, std::vector<Crash>> classify(const std::vector<Crash>& crashes,
                                                   const fs::path& fuzz_dir, const fs::path& log) {
  std::map<std::string, std::vector<Crash>> groups;
  for (const Crash& crash : crashes) {
    // A crash file that is gone (or unreadable) is no finding: the fuzz
    // binary's "file missing" exit must never become one (issue 22).
    if (!read_bytes(crash.file)) {
      std::ofstream(log, std::ios::app) << "skipped (cannot read): " << crash.file.string() << "\n";
      continue;
    }
    std::string sig = replay_signature(*crash.target, crash.file);
    if (sig.empty()) {
      const BinaryVerdict bv = run_binary_on(fuzz_dir / std::string(crash.target->name), crash.file, log);
      sig = std::string(crash.target->subject) + ":" + (bv.failed ? bv.signature : "no-repro");
    }
    groups[sig].push_back(crash);
  }
  return groups;
}

void rerun(const fs::path& fuzzer, const Crash& rep, const std::string& sig, unsigned times,
           const fs::path& log, UniqueFinding* u) {
  const std::string subject(rep.target->subject);
  for (unsigned k = 0; k < times && !interrupt_signal(); ++k) {
    const BinaryVerdict bv = run_binary_on(fuzzer, rep.file, log);
    ++u->reruns;
    const bool qualified =
        bv.signature.find(':') != std::string::npos && bv.signature.starts_with(subject + ":");
    const std::string got = qualified ? bv.signature : subject + ":" + bv.signature;
    u->rerun_failures += bv.failed && got == sig;
  }
}

void fold_variants(std::vector<UniqueFinding>* findings) {
  auto bug = [](const UniqueFinding& f) {
    const auto colon = f.signature.rfind(':');
    return std::pair(f.signature.substr(0, colon), f.status == FindingStatus::kAccepted);
  };
  std::vector<UniqueFinding> out;
  std::map<std::pair<std::string, bool>, std::vector<UniqueFinding>> groups;
  std::vector<std::pair<std::string, bool>> order;
  for (auto& f : *findings) {
    auto key = bug(f);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(std::move(f));
  }
  for (const auto& key : order) {
    auto& g = groups[key];
    std::stable_sort(g.begin(), g.end(), [](const UniqueFinding& a, const UniqueFinding& b) {
      return a.minimized_ops < b.minimized_ops;
    });
    UniqueFinding primary = std::move(g.front());
    for (std::size_t i = 1; i < g.size(); ++i)
      primary.variants.push_back({g[i].signature, g[i].duplicates, g[i].minimized_ops,
                                  g[i].ops_path, g[i].reproduce});
    out.push_back(std::move(primary));
  }
  *findings = std::move(out);
}

}  // namespace diffsched::campaign
