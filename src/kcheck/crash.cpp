// Minimising an input on which a sanitizer (ASan, UBSan) stops the harness.
// This one runs out of process: the error kills the process that meets it,
// so each try is one harness run (a replay), and the predicate is "the
// replay stops with the same sanitizer SUMMARY line". The list reduction is
// the project's one ddmin (util/ddmin.h), which tools::minimize also runs in
// process for the other findings.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "kcheck/session.h"
#include "kcheck/work.h"
#include "util/ddmin.h"
#include "util/text.h"

namespace diffsched::kcheck {

namespace {

// A decoded .ops text split into its header lines (directives and comments
// before the first op) and its op lines.
struct OpsText {
  std::vector<std::string> head, ops;

  static OpsText parse(const std::string& text) {
    OpsText t;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      const bool directive = line.empty() || line[0] == '#' || line.starts_with("subject ") ||
                             line.starts_with("cpus ") || line.starts_with("level ");
      (directive && t.ops.empty() ? t.head : t.ops).push_back(line);
    }
    return t;
  }
  void write(const std::vector<std::string>& body, const fs::path& to) const {
    std::ofstream f(to, std::ios::binary | std::ios::trunc);
    for (const auto& l : head) f << l << '\n';
    for (const auto& l : body) f << l << '\n';
  }
};

}  // namespace

// Bounded like the in-harness minimisation: at most --minimize-tries runs (and
// never more than kMaxRuns) and --minimize-seconds of wall clock, each run
// under a watchdog. Writes `out` (the smallest found so far when the budget
// runs out, and says so).
std::optional<std::pair<std::size_t, std::size_t>> minimize_crash(const Session& s,
                                                                  const fs::path& input, bool raw,
                                                                  const fs::path& out) {
  constexpr std::size_t kMaxRuns = 300;
  constexpr double kFirstRunLimit = 30;
  const auto start = std::chrono::steady_clock::now();
  const KernelCheckOptions& opts = s.o;
  const tools::KcheckWork w{s.work};
  const fs::path decoded = w.crash_decoded(), trial = w.crash_trial();
  KernelCheckOptions decode = s.h.with_mode("replay");
  decode.input = fs::absolute(input).string();
  decode.raw = raw;
  decode.decode_only = true;
  decode.output = decoded.string();
  if (!s.h.run(decode, {}, {}, kFirstRunLimit).is("decoded")) return std::nullopt;
  OpsText text = OpsText::parse(util::read_text(decoded));

  const fs::path log = tools::KcheckWork{s.work}.crash_trial_log();
  KernelCheckOptions replay = s.h.with_mode("replay");
  replay.input = trial.string();
  replay.raw = false;
  replay.quiet = true;
  auto summary_of = [&](const std::vector<std::string>& body, double limit) {
    text.write(body, trial);
    // A try counts only if its record says a sanitizer stopped it; the
    // SUMMARY line then tells one sanitizer error from another.
    return s.h.run(replay, {}, log, limit).is("sanitizer")
               ? util::sanitizer_summary(util::read_text(log))
               : std::string();
  };
  const std::string want = summary_of(text.ops, kFirstRunLimit);
  if (want.empty()) return std::nullopt;

  const std::size_t original = text.ops.size();
  const std::size_t max_runs =
      std::min(kMaxRuns, opts.minimize_tries == 0 ? kMaxRuns : opts.minimize_tries);
  std::size_t runs = 0;
  std::string stopped;
  auto exhausted = [&] {
    if (stopped.empty() && runs >= max_runs)
      stopped = fmt::format("tries budget ({} runs)", max_runs);
    else if (stopped.empty() && opts.minimize_seconds > 0 && since(start) >= opts.minimize_seconds)
      stopped = fmt::format("time budget ({:g} s)", opts.minimize_seconds);
    return !stopped.empty();
  };
  // Each run's watchdog: what is left of the time budget (at least 1 s).
  auto limit = [&] {
    return opts.minimize_seconds > 0 ? std::max(1.0, opts.minimize_seconds - since(start)) : 0.0;
  };
  util::ddmin(
      text.ops,
      [&](const std::vector<std::string>& fewer) {
        if (exhausted()) return false;
        ++runs;
        return summary_of(fewer, limit()) == want;
      },
      exhausted);
  if (!stopped.empty())
    text.head.insert(text.head.begin(), fmt::format("{} the {} ran out", kNotMinimal, stopped));
  text.write(text.ops, out);
  fmt::print("minimised outside the harness: {} ops -> {} ops ({} runs, {:.1f} s), {}\n",
             original, text.ops.size(), runs, since(start), want);
  if (!stopped.empty())
    fmt::print("NOT MINIMAL: the minimisation's {} ran out; the reproducer is the smallest "
               "found so far (it fails the same way)\n", stopped);
  return std::make_pair(original, text.ops.size());
}

}  // namespace diffsched::kcheck
