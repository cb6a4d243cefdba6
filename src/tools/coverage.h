// Source-based coverage of src/ by the checked-in corpus (`diffsched coverage`).
//
//   CoverageRun run = run_coverage({.corpus = source_dir() / "corpus"}, &error);
//   // builds preset `coverage` (clang-14 -fprofile-instr-generate
//   // -fcoverage-mapping), replays every input with LLVM_PROFILE_FILE set,
//   // merges with llvm-profdata-14 and reads `llvm-cov-14 export` JSON.
//   const GroupCoverage& ref = run.report.groups[int(CodeGroup::kReference)];
//
// The two heapify strategies and the pick variants share their files
// (src/kernel/heapify.h, src/kernel/pick.cpp), so the groups are formed per
// function, from the export's regions and branches:
//   reference  SwapHeapify::*, pick_reference
//   optimized  HoleHeapify::*, pick_optimized, pick_fused
//   shared     every other function defined under src/kernel/ (cpudl_*,
//              cpumask, deadline), except the bench's counters.{h,cpp}
// A template instantiated several times counts once: a line or branch
// direction is covered if any instantiation covers it (as llvm-cov's file view).
// Lines follow llvm-cov's rule: a line is executable if a code region starts
// on it or spans it, covered if the innermost such region ran.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace diffsched::tools {

struct Counts {
  std::size_t covered = 0;
  std::size_t total = 0;
  double percent() const { return total ? 100.0 * static_cast<double>(covered) / static_cast<double>(total) : 100.0; }
  bool complete() const { return covered == total; }
};

// Branches count each direction (true, false) once, as llvm-cov does.
struct Figures {
  Counts lines, branches, regions;
};

struct FileCoverage {
  std::string file;  // relative to the source tree: src/kernel/pick.cpp
  Figures figures;
};

enum class CodeGroup { kReference, kOptimized, kShared };
inline constexpr std::array<std::string_view, 3> kGroupNames = {"reference", "optimized", "shared"};

struct GroupCoverage {
  Figures figures;
  std::vector<std::string> functions;  // demangled, one per source function
  std::vector<std::string> missed;     // "src/kernel/heapify.h:97" or "...:97:11 branch false"
};

struct CoverageReport {
  std::vector<FileCoverage> files;       // sorted by name
  std::array<GroupCoverage, 3> groups;   // indexed by CodeGroup
};

// The group of a function (demangled name, file relative to the source tree),
// or nullopt if it belongs to none.
std::optional<CodeGroup> classify_function(std::string_view demangled, std::string_view file);

// The functions that the corpus must cover completely; `diffsched coverage`
// fails if one of them is absent from the export (never instantiated).
inline constexpr std::array<std::string_view, 7> kGatedFunctions = {
    "SwapHeapify::cpudl_heapify_down", "SwapHeapify::cpudl_heapify_up",
    "HoleHeapify::cpudl_heapify_down", "HoleHeapify::cpudl_heapify_up",
    "pick_reference",                  "pick_optimized",
    "pick_fused"};

// Demangles an Itanium C++ name; strips the "file.cpp:" prefix llvm-cov gives
// to functions with internal linkage. Returns the input if it is not mangled.
std::string demangle(std::string_view name);

// Reads `llvm-cov export -format=text` output. Files outside `root`/src are
// left out; paths are made relative to `root`. nullopt and *error on a
// document that is not an export.
std::optional<CoverageReport> parse_llvm_cov_export(const nlohmann::json& doc,
                                                    const std::filesystem::path& root,
                                                    std::string* error);

struct CoverageOptions {
  std::filesystem::path corpus;  // <target>/ raw, seeds/<target>/*.ops, regressions/<subject>/*.ops
  std::filesystem::path html;    // empty: no HTML report
  std::filesystem::path work;    // profiles, merged profile, export, logs
};

struct CoverageRun {
  CoverageReport report;
  std::size_t inputs = 0;           // files replayed
  std::vector<std::string> notes;   // e.g. a regression whose verdict changed
};

// Builds, replays, merges and exports (see the top). nullopt and a one-line
// *error if something could not run (build, tools, no inputs, a crash).
std::optional<CoverageRun> run_coverage(const CoverageOptions& options, std::string* error);

}  // namespace diffsched::tools
