// diffsched fn's shim eras (src/fn/era.h): every version the shim's headers
// test is an era fn can choose, the --kernel-version check, the Makefile of
// a kernel tree, and the spec's `kernel` line.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "fn/era.h"
#include "fn/model.h"
#include "kcheck/options.h"
#include "tools/process.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::fn {
namespace {

namespace fs = std::filesystem;

int version_number(const std::string& v) {
  const auto dot = v.find('.');
  return std::stoi(v.substr(0, dot)) * 256 + std::stoi(v.substr(dot + 1));
}

// Each interval between two versions the shim's headers test holds exactly
// one era fn tries (or the default): a shape no era reaches would never be
// built, and two eras in one interval would try one shape twice.
TEST(FnEra, EveryShimGateIsAnEra) {
  const std::regex gate(R"(KSHIM_KERNEL_VERSION\s*[<>=!]+\s*KSHIM_KV\((\d+),\s*(\d+)\))");
  std::set<int> gates;
  for (const auto& e : fs::recursive_directory_iterator(tools::source_dir() / "kshim" / "include")) {
    if (!e.is_regular_file()) continue;
    const std::string text = util::read_text(e.path());
    for (std::sregex_iterator m(text.begin(), text.end(), gate), end; m != end; ++m)
      gates.insert(std::stoi((*m)[1]) * 256 + std::stoi((*m)[2]));
  }
  ASSERT_GE(gates.size(), 5u) << "the shim's version tests were not found";
  std::vector<int> eras = {version_number(std::string(kShimDefaultEra))};
  for (const std::string_view e : kShimEras) eras.push_back(version_number(std::string(e)));
  std::vector<int> bounds = {0};
  bounds.insert(bounds.end(), gates.begin(), gates.end());
  bounds.push_back(1 << 30);
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    const auto in = std::count_if(eras.begin(), eras.end(),
                                  [&](int v) { return v >= bounds[k] && v < bounds[k + 1]; });
    EXPECT_EQ(in, 1) << "versions " << bounds[k] / 256 << "." << bounds[k] % 256 << " up to "
                     << bounds[k + 1] / 256 << "." << bounds[k + 1] % 256;
  }
  // Newest first, so the first era that builds is the newest one.
  for (std::size_t k = 1; k < kShimEras.size(); ++k)
    EXPECT_GT(version_number(std::string(kShimEras[k - 1])), version_number(std::string(kShimEras[k])));
}

TEST(FnEra, KernelVersionIsMajorDotMinorOfThreeToSeven) {
  for (const char* good : {"3.0", "5.10", "6.1", "6.19", "7.2"})
    EXPECT_EQ(check_fn_kernel_version(good), "") << good;
  for (const char* bad : {"", "6", "6.1.0", "v6.1", "2.6", "8.0", "6.x", "6.256", "-6.1"})
    EXPECT_NE(check_fn_kernel_version(bad), "") << bad;
  EXPECT_EQ(tools::kernel_version_define("5.10"), "KSHIM_KERNEL_VERSION=KSHIM_KV(5,10)");
  EXPECT_EQ(tools::kernel_version_flag("5.10"), "-DKSHIM_KERNEL_VERSION=KSHIM_KV(5,10)");
}

TEST(FnEra, TheTreesMakefileNamesTheVersion) {
  const util::TempDir tmp("fn-era-XXXXXX");
  ASSERT_FALSE(tmp.path.empty());
  const fs::path tree = fs::path(tmp.path) / "linux";
  fs::create_directories(tree / "kernel" / "sched");
  std::ofstream(tree / "Makefile") << "# SPDX-License-Identifier: GPL-2.0\nVERSION = 5\nPATCHLEVEL = 10\n"
                                      "SUBLEVEL = 262\nEXTRAVERSION =\nNAME = Dare mighty things\n";
  // A Makefile that names no kernel version (a subdirectory's) is passed by.
  std::ofstream(tree / "kernel" / "Makefile") << "obj-y = fork.o\n";
  const auto v = tree_version(tree / "kernel" / "sched" / "fair.c");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->version, "5.10");
  EXPECT_EQ(v->makefile, tree / "Makefile");
  // Outside a tree, or with a version the shim does not follow: none.
  EXPECT_FALSE(tree_version(fs::path(tmp.path) / "fair.c").has_value());
  std::ofstream(tree / "Makefile") << "VERSION = 2\nPATCHLEVEL = 6\n";
  EXPECT_FALSE(tree_version(tree / "kernel" / "sched" / "fair.c").has_value());
  std::ofstream(tree / "Makefile") << "VERSION = 6\n";  // no PATCHLEVEL
  EXPECT_FALSE(tree_version(tree / "kernel" / "sched" / "fair.c").has_value());
}

// Hostile or odd Makefiles: a FIFO or a directory named Makefile is passed
// by (never opened: reading a FIFO would block), CRLF lines are read, and
// only the first lines are (a file of one endless line is no version).
TEST(FnEra, AMakefileThatIsNoRegularFileIsPassedBy) {
  const util::TempDir tmp("fn-era-XXXXXX");
  ASSERT_FALSE(tmp.path.empty());
  const fs::path tree = fs::path(tmp.path) / "linux";
  const fs::path file = tree / "kernel" / "sched" / "fair.c";
  fs::create_directories(file.parent_path());
  std::ofstream(tree / "Makefile") << "VERSION = 6\r\nPATCHLEVEL = 1\r\n";
  const auto crlf = tree_version(file);
  ASSERT_TRUE(crlf.has_value());
  EXPECT_EQ(crlf->version, "6.1");
  ASSERT_EQ(mkfifo((tree / "kernel" / "Makefile").c_str(), 0600), 0);
  fs::create_directories(tree / "kernel" / "sched" / "Makefile");
  const auto v = tree_version(file);  // past the directory and the FIFO
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->makefile, tree / "Makefile");
  std::ofstream(tree / "Makefile") << std::string(1 << 20, '#') << "\nVERSION = 6\nPATCHLEVEL = 1\n";
  EXPECT_FALSE(tree_version(file).has_value());
}

TEST(FnEra, TheSpecsKernelLine) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("kernel 6.1\n", "x.fnspec", &spec, &error)) << error;
  EXPECT_EQ(spec.kernel, "6.1");
  EXPECT_EQ(spec.kernel_from, "the spec's `kernel` line");
  for (const char* bad : {"kernel\n", "kernel 6\n", "kernel 6.1 6.2\n", "kernel 9.1\n",
                          "kernel 6.1\nkernel 6.2\n"}) {
    Spec s;
    EXPECT_FALSE(parse_spec(bad, "x.fnspec", &s, &error)) << bad;
  }
}

}  // namespace
}  // namespace diffsched::fn
