#include "cli/bench_ttb.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "cli/bench_workdir.h"
#include "cli/commands.h"
#include "tools/process.h"
#include "util/json.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

namespace fs = std::filesystem;

// "12.3", or "> 60" for a miss (the script writes null for infinity).
std::string seconds_cell(const nlohmann::json& v, double limit) {
  if (!v.is_number()) return fmt::format("> {:g}", limit);
  return fmt::format("{:.1f}", v.get<double>());
}

bool print_table(const nlohmann::json& doc, double limit, std::string* error) {
  if (!doc.is_object() || !doc.contains("classes") || !doc["classes"].is_object() ||
      !doc.contains("all") || !doc["all"].is_object()) {
    *error = "scripts/ttb.py wrote no per-class figures";
    return false;
  }
  fmt::print("time to bug, kernel-check --time {:g}, {} trials\n\n", limit,
             doc["all"].value("trials", 0));
  fmt::print("| class | found | median s | max s |\n|---|---:|---:|---:|\n");
  auto row = [&](const std::string& name, const nlohmann::json& r) {
    fmt::print("| {} | {}/{} | {} | {} |\n", name, r.value("found", 0), r.value("trials", 0),
               seconds_cell(r.value("median", nlohmann::json()), limit),
               seconds_cell(r.value("max", nlohmann::json()), limit));
  };
  for (const auto& [name, r] : doc["classes"].items()) row(name, r);
  row("all", doc["all"]);
  return true;
}

fs::path self_exe() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self;
}

}  // namespace

int run_ttb(const TtbOptions& o) {
  const fs::path python = tools::find_program("python3");
  if (python.empty())
    return bad_input("python3 not found on PATH (needed for bench --ttb; apt-get install python3)");
  const fs::path script = TtbTemp::script();
  if (!fs::is_regular_file(script))
    return bad_input(fmt::format("{} not found (bench --ttb runs it from the source tree)",
                                 script.string()));
  for (const std::string& f : o.files)
    if (!fs::is_regular_file(f)) return bad_input(fmt::format("{}: no such file", f));
  const TtbTemp tmp{util::make_temp_dir(TtbTemp::kTemplate)};
  if (tmp.dir.empty()) return bad_input("cannot create a temporary directory");
  const fs::path json = o.json.empty() ? tmp.json() : fs::path(o.json);

  std::vector<std::string> argv{python.string(), script.string(), "--time",
                                fmt::format("{:g}", o.time_s), "--json", json.string(),
                                "--seeds"};
  for (int s = 1; s <= o.seeds; ++s) argv.push_back(std::to_string(s));
  if (const fs::path self = self_exe(); !self.empty())
    argv.insert(argv.end(), {"--diffsched", self.string()});
  if (!o.files.empty()) {
    argv.push_back("--files");
    for (const std::string& f : o.files) argv.push_back(fs::absolute(f).string());
  }
  const fs::path log = tmp.log();
  fmt::print(stderr, "diffsched bench: time to bug (seeds 1-{}, --time {:g}; log {})...\n",
             o.seeds, o.time_s, log.string());
  const auto t0 = std::chrono::steady_clock::now();
  const int status = tools::run({.argv = argv, .log = log, .stdin_null = true});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != kExitOk) {
    fmt::print(stderr, "diffsched: error: scripts/ttb.py failed (exit {}) after {:.1f} s; last "
                       "lines of {}:\n{}\n",
               status, s, log.string(), tools::tail_file(log, 5));
    return kExitBadInput;
  }
  std::string error = "not valid JSON";
  const nlohmann::json doc = nlohmann::json::parse(util::read_text(json), nullptr, false);
  if (doc.is_discarded() || !print_table(doc, o.time_s, &error)) {
    fmt::print(stderr, "diffsched: error: {}: {} (log kept in {})\n", json.string(), error,
               log.string());
    return kExitBadInput;
  }
  fmt::print("\ntime to bug run in {:.0f} s{}\n", s,
             o.json.empty() ? "" : fmt::format("; every trial in {}", o.json));
  std::error_code ec;
  fs::remove_all(tmp.dir, ec);
  return kExitOk;
}

}  // namespace diffsched::cli
