// write_report_samples DIR: writes DIR/<sample>/{summary.md,junit.xml,
// results.sarif} for each sample of report_samples.h, for
// scripts/validate-reports.sh to check with the real validators.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "campaign/report_samples.h"

int main(int argc, char** argv) {
  using namespace diffsched::campaign;
  if (argc != 2) {
    std::cerr << "usage: write_report_samples DIR\n";
    return 2;
  }
  const std::filesystem::path root = argv[1];
  for (const auto& [name, report] : report_samples()) {
    const std::filesystem::path dir = root / name;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "summary.md", std::ios::binary) << report_markdown(report);
    std::ofstream(dir / "junit.xml", std::ios::binary) << report_junit(report);
    std::ofstream(dir / "results.sarif", std::ios::binary) << report_sarif(report);
    std::cout << dir.string() << "\n";
  }
  return 0;
}
