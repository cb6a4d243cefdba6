// diffsched fn's example pairs (kshim/examples/fn/pairs/<name>/*.c, issue 24
// section 6) build against the shim: for every .c found there when the test
// runs (a new pair is covered without editing this file), the function its
// `// fn-expect:` header names is extracted (src/fn/extract.h) with nothing
// "the kernel shim lacks" (no implicit call, no external variable the shim
// does not declare; a function the file declares is a stub), no #include the shim cannot resolve, and the extracted
// unit compiles with kernel-check's flags (issue 27's last "done when").
// The header's format: kshim/examples/README.md.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fn/extract.h"
#include "tools/process.h"

namespace diffsched::fn {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 7> kVerdicts = {
    "equivalent", "finding", "sorted-only", "perf", "hidden-global", "fault", "intended"};
constexpr std::array<std::string_view, 3> kLevels = {"exact", "multiset", "sorted"};
constexpr std::string_view kHeader = "// fn-expect: ";

// `// fn-expect: FUNCTION VERDICT [LEVEL]`, the first line of an example.
struct FnExpect {
  std::string function, verdict, level = "exact";
};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Parses the file's first line into *out: "" or why it is not a header.
std::string parse_fn_expect(const std::string& text, FnExpect* out) {
  *out = {};
  const std::string line = text.substr(0, text.find('\n'));
  if (line.rfind(kHeader, 0) != 0) return "the first line is not '// fn-expect: ...'";
  std::istringstream words(line.substr(kHeader.size()));
  std::vector<std::string> fields;
  for (std::string w; words >> w;) fields.push_back(w);
  if (fields.size() < 2 || fields.size() > 3)
    return "2 or 3 fields, not " + std::to_string(fields.size());
  out->function = fields[0];
  out->verdict = fields[1];
  if (fields.size() == 3) out->level = fields[2];
  if (!one_of(kVerdicts, out->verdict)) return "unknown VERDICT '" + out->verdict + "'";
  if (!one_of(kLevels, out->level)) return "unknown LEVEL '" + out->level + "'";
  if (out->verdict == "sorted-only" && out->level == "exact")
    return "sorted-only is equivalent at a LEVEL other than exact: give it (sorted)";
  return {};
}

// The first error of compiling the unit as kernel-check builds a candidate
// (-fsyntax-only), or "" when it compiles.
std::string compile_error(const Extraction& x, const fs::path& scratch) {
  fs::path clang = tools::find_program("clang-14");
  if (clang.empty()) clang = tools::find_program("clang");
  if (clang.empty()) return "no clang-14 on PATH";
  const fs::path unit = scratch / "unit.c", log = scratch / "unit.log";
  std::ofstream(unit) << x.text;
  std::vector<std::string> argv = {clang.string()};
  for (const auto& a : x.compile_args({})) argv.push_back(a);
  argv.insert(argv.end(),
              {"-Werror=implicit-function-declaration", "-fsyntax-only", unit.string()});
  const int rc = tools::run({.argv = argv, .log = log, .deadline = 120, .stdin_null = true});
  if (rc == 0) return {};
  std::istringstream out(tools::read_text(log));
  for (std::string line; std::getline(out, line);)
    if (line.find("error:") != std::string::npos) return line.substr(line.find("error:"));
  return "the compiler exited with " + std::to_string(rc);
}

// One line naming `shown` and what is wrong with the example file, or "".
std::string check_example(const fs::path& file, const std::string& shown, const fs::path& scratch) {
  FnExpect expect;
  if (const std::string why = parse_fn_expect(tools::read_text(file), &expect); !why.empty())
    return shown + ": bad fn-expect header: " + why +
           " (the form is // fn-expect: FUNCTION VERDICT [LEVEL])";
  if (file.filename() == "old.c" && expect.verdict != "equivalent")
    return shown + ": old.c is the pair's reference: its VERDICT is equivalent, not " +
           expect.verdict;
  const Extraction x = extract_function_from_file(file, expect.function);
  if (!x.ok()) return shown + ": cannot extract " + expect.function + "(): " + x.error;
  std::string lacks;
  // A function the file declares and the shim lacks is a stub (docs/fn.md
  // "Stubs"); a call without any declaration, or a variable, still lacks.
  for (const External& e : x.externals)
    if ((!e.in_shim || e.implicit) && (e.implicit || !e.is_function))
      lacks += (lacks.empty() ? "" : ", ") + e.name + (e.is_function ? "()" : "");
  if (!lacks.empty()) return shown + ": the kernel shim lacks: " + lacks;
  if (!x.missing_includes.empty()) {
    std::string list;
    for (const auto& inc : x.missing_includes) list += (list.empty() ? "" : ", ") + inc;
    return shown + ": the shim cannot resolve #include " + list;
  }
  if (!x.diagnostics.empty()) return shown + ":" + x.diagnostics.front();
  if (const std::string err = compile_error(x, scratch); !err.empty())
    return shown + ": the extracted unit of " + expect.function + "() does not compile: " + err;
  return {};
}

struct PairsReport {
  std::size_t files = 0;
  std::vector<std::string> failures;  // one line each
};

// Every .c under root (recursively, sorted), named relative to `shown_base`.
PairsReport check_pairs(const fs::path& root, const fs::path& shown_base) {
  PairsReport report;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".c") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  const fs::path scratch =
      fs::temp_directory_path() / ("fn_examples_test." + std::to_string(::getpid()));
  fs::create_directories(scratch);
  for (const fs::path& f : files) {
    ++report.files;
    const std::string line = check_example(f, fs::relative(f, shown_base).string(), scratch);
    if (!line.empty()) report.failures.push_back(line);
  }
  fs::remove_all(scratch);
  return report;
}

fs::path pairs_dir() { return tools::source_dir() / "kshim" / "examples" / "fn" / "pairs"; }

TEST(FnExamples, EveryPairFileBuildsAgainstTheShimWithNothingItLacks) {
  const PairsReport report = check_pairs(pairs_dir(), tools::source_dir());
  for (const std::string& line : report.failures) ADD_FAILURE() << line;
  // Each pair has its two sides (and the 8 of issue 24 section 6 are there).
  std::size_t pairs = 0;
  for (const auto& dir : fs::directory_iterator(pairs_dir())) {
    if (!dir.is_directory()) continue;
    ++pairs;
    for (const char* side : {"old.c", "new.c"})
      EXPECT_TRUE(fs::is_regular_file(dir.path() / side)) << dir.path().string() << ": no " << side;
  }
  EXPECT_GE(pairs, 8u);
  EXPECT_GE(report.files, 2 * pairs);
}

TEST(FnExamples, HeadersParse) {
  FnExpect e;
  EXPECT_EQ(parse_fn_expect("// fn-expect: sort_cpu_loads sorted-only sorted\nrest", &e), "");
  EXPECT_EQ(e.function, "sort_cpu_loads");
  EXPECT_EQ(e.verdict, "sorted-only");
  EXPECT_EQ(e.level, "sorted");
  EXPECT_EQ(parse_fn_expect("// fn-expect: f fault\n", &e), "");
  EXPECT_EQ(e.level, "exact");
  for (const char* bad : {"// SPDX-License-Identifier: MIT\n// fn-expect: f equivalent\n",
                          "//fn-expect: f equivalent\n", "// fn-expect: f\n",
                          "// fn-expect: f maybe\n", "// fn-expect: f equivalent loose\n",
                          "// fn-expect: f sorted-only\n", "// fn-expect: f finding exact extra\n"})
    EXPECT_NE(parse_fn_expect(bad, &e), "") << bad;
}

// What a new example that the shim cannot build looks like: one line per
// file, naming it and the missing symbol; a good file next to it passes.
TEST(FnExamples, AFileCallingWhatTheShimLacksIsNamedWithTheSymbol) {
  const fs::path root =
      fs::temp_directory_path() / ("fn_examples_neg." + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "pairs" / "spread");
  std::ofstream(root / "pairs" / "spread" / "old.c")
      << "// fn-expect: pick_spread equivalent\n"
         "#include <linux/cpumask.h>\n"
         "unsigned int pick_spread(const struct cpumask *m)\n"
         "{\n\treturn cpumask_first(m);\n}\n";
  // cpumask_local_spread() is the kernel's (lib/cpumask.c), not the shim's.
  std::ofstream(root / "pairs" / "spread" / "new.c")
      << "// fn-expect: pick_spread equivalent\n"
         "#include <linux/cpumask.h>\n"
         "unsigned int pick_spread(const struct cpumask *m)\n"
         "{\n\treturn cpumask_local_spread(cpumask_weight(m), 0);\n}\n";
  // A prototype of a function the shim lacks: declared, so a stub (not lacking).
  std::ofstream(root / "pairs" / "spread" / "declared.c")
      << "// fn-expect: pick_spread finding\n"
         "#include <linux/cpumask.h>\n"
         "unsigned int cpumask_local_spread(unsigned int i, int node);\n"
         "unsigned int pick_spread(const struct cpumask *m)\n"
         "{\n\treturn cpumask_local_spread(0, 0) + cpumask_first(m);\n}\n";
  std::ofstream(root / "pairs" / "spread" / "header.c") << "// fn-expect: pick_spread maybe\n";
  const PairsReport report = check_pairs(root / "pairs", root);
  fs::remove_all(root);
  EXPECT_EQ(report.files, 4u);
  ASSERT_EQ(report.failures.size(), 2u);
  EXPECT_NE(report.failures[0].find(
                "pairs/spread/header.c: bad fn-expect header: unknown VERDICT 'maybe'"),
            std::string::npos)
      << report.failures[0];
  EXPECT_EQ(report.failures[1],
            "pairs/spread/new.c: the kernel shim lacks: cpumask_local_spread()");
  for (const std::string& line : report.failures) EXPECT_EQ(line.find('\n'), std::string::npos);
}

// The hidden-global pair says what its header says: the new side reads the
// file-scope sched_curr_level through the NUMA levels' mask callback (state
// nobody passed in, to be covered or reported), the old side does not read it.
TEST(FnExamples, TheHiddenGlobalPairReadsTheLevelOnlyOnTheNewSide) {
  const Extraction now =
      extract_function_from_file(pairs_dir() / "hidden-global" / "new.c", "level_span_sane");
  ASSERT_TRUE(now.ok()) << now.error;
  const GlobalRead* level = now.global("sched_curr_level");
  ASSERT_NE(level, nullptr);
  EXPECT_TRUE(level->read && level->defined_in_file && level->is_static);
  EXPECT_FALSE(level->constant);
  EXPECT_EQ(level->read_by, (std::vector<std::string>{"numa_level_mask"}));
  EXPECT_EQ(now.indirect_calls, (std::vector<std::string>{"tl->mask(cpu)", "tl->mask(id)"}));
  const Extraction before =
      extract_function_from_file(pairs_dir() / "hidden-global" / "old.c", "level_span_sane");
  ASSERT_TRUE(before.ok()) << before.error;
  EXPECT_EQ(before.global("sched_curr_level"), nullptr);
  EXPECT_NE(before.global("level_masks"), nullptr);
}

}  // namespace
}  // namespace diffsched::fn
