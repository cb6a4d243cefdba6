// `diffsched verify`: one subcommand per subject, each its package's
// (cli/verify.h).
#include "cli/verify.h"

#include <unistd.h>

#include <fstream>
#include <tuple>
#include <vector>

namespace diffsched::cli {

void print_progress(const verify::Progress& p) {
  fmt::print(stderr, "verify: {}\n", p.line);
  std::fflush(stderr);
}

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

bool write_ops(const std::string& path, const std::string& header, const io::AnyProgram& p,
               std::string* error) {
  return io::write_file(path, header + io::format_program(p), error);
}

Runner add_verify(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "verify", "Bounded exhaustive verification: prove the variants equivalent within bounds, "
                "or print the shortest counterexample (exit 0 verified, 1 counterexample, 2 bad "
                "arguments or a bound refused by its estimate)");
  sub->require_subcommand(1);
  std::vector<std::pair<CLI::App*, Runner>> subs;
  [&]<class... S>(std::type_identity<std::tuple<S...>>) {
    (subs.push_back(add_verify_subject<S>(*sub)), ...);
  }(std::type_identity<ToolSubjects>{});
  return [subs] {
    for (const auto& [cmd, run] : subs)
      if (cmd->parsed()) return run();
    return kExitBadInput;  // require_subcommand(1) rules it out
  };
}

}  // namespace diffsched::cli
