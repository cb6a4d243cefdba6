// tools/coverage.h: grouping by function, llvm-cov's line rule, branch
// directions, and template instantiations merged, on small export documents.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tools/coverage.h"

namespace diffsched::tools {
namespace {

// Mangled names of functions in the real build.
constexpr const char* kHoleUp =
    "_ZN9diffsched6kernel11HoleHeapify16cpudl_heapify_upINS0_5CpudlILj8192EEEEEvPT_i";
constexpr const char* kPickRef =
    "_ZN9diffsched6kernel14pick_referenceEPKNS0_7CpumaskES3_S3_";

nlohmann::json export_doc(nlohmann::json functions) {
  return {{"type", "llvm.coverage.json.export"},
          {"version", "2.0.1"},
          {"data",
           {{{"files",
              {{{"filename", "/r/src/kernel/heapify.h"},
                {"summary",
                 {{"lines", {{"count", 10}, {"covered", 9}}},
                  {"branches", {{"count", 4}, {"covered", 3}}}}}},
               {{"filename", "/usr/include/fmt/core.h"}, {"summary", nlohmann::json::object()}}}},
             {"functions", std::move(functions)}}}}};
}

TEST(Coverage, DemanglesAndStripsTheFilePrefixOfLocalFunctions) {
  EXPECT_EQ(demangle(kPickRef),
            "diffsched::kernel::pick_reference(diffsched::kernel::Cpumask const*, "
            "diffsched::kernel::Cpumask const*, diffsched::kernel::Cpumask const*)");
  EXPECT_EQ(demangle(std::string("pick.cpp:") + kPickRef), demangle(kPickRef));
  EXPECT_EQ(demangle("main"), "main");
}

TEST(Coverage, GroupsFunctionsNotFiles) {
  EXPECT_EQ(classify_function(demangle(kHoleUp), "src/kernel/heapify.h"), CodeGroup::kOptimized);
  EXPECT_EQ(classify_function(demangle(kPickRef), "src/kernel/pick.cpp"), CodeGroup::kReference);
  EXPECT_EQ(classify_function("diffsched::kernel::pick_fused(int)", "src/kernel/pick.cpp"),
            CodeGroup::kOptimized);
  EXPECT_EQ(classify_function("void diffsched::kernel::SwapHeapify::cpudl_exchange<X>(X*, int, int)",
                              "src/kernel/heapify.h"),
            CodeGroup::kReference);
  EXPECT_EQ(classify_function("diffsched::kernel::cpudl_set(int)", "src/kernel/cpudeadline.h"),
            CodeGroup::kShared);
  EXPECT_EQ(classify_function("diffsched::kernel::Counted::load()", "src/kernel/counters.h"),
            std::nullopt);
  EXPECT_EQ(classify_function("diffsched::io::parse()", "src/io/text.cpp"), std::nullopt);
  EXPECT_EQ(classify_function("diffsched::kernel::pick_referencex()", "src/io/x.cpp"),
            std::nullopt);
}

TEST(Coverage, CountsLinesBranchesAndMergesInstantiations) {
  // Lines 10-16. Instantiation 1 never entered the block on lines 11-13 and
  // took the branch on line 11 one way; instantiation 2 entered the block and
  // took the branch the other way. Neither entered the block whose line 15
  // lies inside it, so together only line 15 is missed. Line 16 follows a gap
  // region that ran, and line 14 starts a block inside a body that ran.
  auto fn = [](std::uint64_t block, std::uint64_t t, std::uint64_t f) {
    return nlohmann::json{
        {"name", kHoleUp},
        {"count", 1},
        {"filenames", {"/r/src/kernel/heapify.h"}},
        {"regions",
         {{10, 40, 16, 2, 1, 0, 0, 0},
          {11, 30, 13, 6, block, 0, 0, 0},
          {14, 30, 15, 6, 0, 0, 0, 0},
          {15, 7, 16, 1, 1, 0, 0, 3}}},
        {"branches", {{11, 9, 11, 30, t, f, 0, 0, 4}}}};
  };
  std::string error;
  auto r = parse_llvm_cov_export(export_doc({fn(0, 3, 0), fn(2, 0, 1)}), "/r", &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->files.size(), 1u);  // fmt's header is not under src/
  EXPECT_EQ(r->files[0].file, "src/kernel/heapify.h");
  EXPECT_EQ(r->files[0].figures.lines.covered, 9u);
  const auto& g = r->groups[static_cast<int>(CodeGroup::kOptimized)];
  ASSERT_EQ(g.functions.size(), 1u);
  EXPECT_EQ(g.functions[0], "diffsched::kernel::HoleHeapify::cpudl_heapify_up (src/kernel/heapify.h:10)");
  EXPECT_EQ(g.figures.lines.total, 7u);
  EXPECT_EQ(g.figures.lines.covered, 6u);
  EXPECT_EQ(g.figures.branches.total, 2u);
  EXPECT_EQ(g.figures.branches.covered, 2u);
  EXPECT_EQ(g.figures.regions.total, 3u);
  EXPECT_EQ(g.figures.regions.covered, 2u);
  ASSERT_EQ(g.missed.size(), 1u);
  EXPECT_EQ(g.missed[0], "src/kernel/heapify.h:15");
  EXPECT_TRUE(r->groups[static_cast<int>(CodeGroup::kReference)].functions.empty());
}

TEST(Coverage, AMissedBranchDirectionIsNamed) {
  nlohmann::json fn = {{"name", kPickRef},
                       {"filenames", {"/r/src/kernel/pick.cpp", "/r/src/kernel/cpumask.h"}},
                       {"regions", {{5, 1, 9, 2, 4, 0, 0, 0}}},
                       {"branches", {{7, 3, 7, 9, 4, 0, 0, 0, 4}, {30, 1, 30, 8, 2, 2, 1, 0, 4}}}};
  std::string error;
  auto r = parse_llvm_cov_export(export_doc({fn}), "/r", &error);
  ASSERT_TRUE(r) << error;
  const auto& g = r->groups[static_cast<int>(CodeGroup::kReference)];
  EXPECT_EQ(g.figures.lines.total, 5u);
  EXPECT_TRUE(g.figures.lines.complete());
  EXPECT_EQ(g.figures.branches.total, 4u);  // one of them in a macro from cpumask.h
  EXPECT_EQ(g.figures.branches.covered, 3u);
  ASSERT_EQ(g.missed.size(), 1u);
  EXPECT_EQ(g.missed[0], "src/kernel/pick.cpp:7:3 branch never false");
}

TEST(Coverage, ABranchThatIfConstexprDiscardedIsNotALine) {
  // clang-14's regions for SwapHeapify::raw_load<int> (heapify.h 78-83): the
  // counted branch on line 80 is discarded in this instantiation, yet mapped
  // with count 0 after a gap region. A plain `if` there would be a miss.
  const auto root = std::filesystem::temp_directory_path() / "diffsched-coverage-test";
  std::filesystem::create_directories(root / "src/kernel");
  auto write = [&](const char* cond) {
    std::ofstream(root / "src/kernel/heapify.h")
        << "l1\nl2\nl3\n  static auto raw_load(const F& f) {\n    " << cond
        << " (kIsCounted<F>)\n      return f.raw();\n    else\n      return f;\n  }\n";
  };
  nlohmann::json fn = {
      {"name", "_ZN9diffsched6kernel11SwapHeapify8raw_loadIiEEDaRKT_"},
      {"filenames", {(root / "src/kernel/heapify.h").string()}},
      {"regions",
       {{4, 36, 9, 4, 212, 0, 0, 0},
        {5, 19, 5, 32, 212, 0, 0, 0},
        {5, 33, 6, 7, 0, 0, 0, 3},
        {6, 7, 6, 13, 0, 0, 0, 0},
        {6, 13, 8, 7, 212, 0, 0, 3},
        {8, 7, 8, 15, 212, 0, 0, 0}}}};
  std::string error;
  write("if constexpr");
  auto r = parse_llvm_cov_export(export_doc({fn}), root, &error);
  ASSERT_TRUE(r) << error;
  const auto& g = r->groups[static_cast<int>(CodeGroup::kReference)];
  EXPECT_TRUE(g.missed.empty());
  EXPECT_EQ(g.figures.lines.total, 5u);  // 4, 5, 7, 8, 9
  EXPECT_EQ(g.figures.regions.total, 3u);
  write("if");
  r = parse_llvm_cov_export(export_doc({fn}), root, &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->groups[static_cast<int>(CodeGroup::kReference)].missed.size(), 1u);
  EXPECT_EQ(r->groups[static_cast<int>(CodeGroup::kReference)].missed[0], "src/kernel/heapify.h:6");
  std::filesystem::remove_all(root);
}

TEST(Coverage, RefusesADocumentThatIsNotAnExport) {
  std::string error;
  EXPECT_FALSE(parse_llvm_cov_export(nlohmann::json{{"type", "other"}}, "/r", &error));
  EXPECT_NE(error.find("not an llvm-cov export"), std::string::npos);
  nlohmann::json broken = export_doc({{{"name", kPickRef}, {"filenames", {"/r/src/a.cpp"}}}});
  EXPECT_FALSE(parse_llvm_cov_export(broken, "/r", &error));
  EXPECT_NE(error.find("malformed"), std::string::npos);
}

}  // namespace
}  // namespace diffsched::tools
