// The whole `diffsched perf` search for one subject, as a library call (the
// CLI and the campaign's --perf stage are thin callers):
//
//   perf::PerfSettings o{.subject = &kPickTool, .metric = Metric::kWork, .cpus = {8, 8192}};
//   std::string error;
//   std::optional<perf::Report> r = perf::run(o, &error);   // nullopt: cannot write --out
//
// Per size x side x direction (worst, then best unless !best): plain random
// generation, then the guided search with as many evaluations as random made
// (so both have the same budget even under a seconds cap), then minimise()
// (>= 90% of the ratio); the result is written to OUT/{worst,best}-SUBJECT-
// CPUS-SIDE.ops with '# perf-expect:' and a reproduce command; then, one
// input at a time (no search runs meanwhile), the clock confirmation.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "perf/report.h"

namespace diffsched::perf {

// perf's --out, named once: one reproducer per worst (or best) row,
// OUT/<worst|best>-<subject>-<cpus>-<side>.ops.
struct OutDir {
  std::filesystem::path dir;

  std::filesystem::path reproducer(bool worst, std::string_view subject, unsigned cpus,
                                   std::string_view side) const {
    return dir / fmt::format("{}-{}-{}-{}.ops", worst ? "worst" : "best", subject, cpus, side);
  }
};

struct PerfSettings {
  const SubjectTool* subject = &kCpudlTool;
  Metric metric = Metric::kAccesses;
  std::vector<unsigned> cpus;      // each its own search
  std::string side = "all";        // a side name, or "all"
  u64 runs = 4000;                 // evaluations per search and strategy
  double seconds = 0;              // for all searches together, 0: none
  u64 seed = 1;
  std::size_t max_ops = 0;         // 0: default_max_ops()
  unsigned jobs = 1;               // searches in parallel threads
  bool clock = true;               // clock confirmation
  bool best = true;                // also the best case
  std::string out;                 // reproducers' directory (OutDir), "" none
  std::string self = "diffsched";  // how reproduce commands invoke diffsched
  const std::atomic<bool>* stop = nullptr;
};

// The sides of o.side (indices into side_names()), empty if it names none.
std::vector<std::size_t> sides_of(const SubjectTool& subject, const std::string& side);

// The command that prints a reproducer's counted costs.
std::string replay_command(const std::string& self, const SubjectTool& subject, Metric metric,
                           const std::string& file);

std::optional<Report> run(const PerfSettings& o, std::string* error);

// run() for the subject S (o.subject is its descriptor): instantiated by the
// subject's package (perf/subject_impl.h, DIFFSCHED_PERF_SUBJECT).
template <class S>
std::optional<Report> run_subject(const PerfSettings& o, std::string* error);

}  // namespace diffsched::perf
