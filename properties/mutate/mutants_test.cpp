// The mutant generator of `diffsched mutate` (src/mutate/mutants.h): the
// tokenizer skips comments, literals and preprocessor lines; function bodies
// are found by matched braces in files of any era; each operator makes one
// change inside the functions under test only; sampling is deterministic.
#include <algorithm>
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "mutate/mutants.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::mutate {
namespace {

std::vector<std::string> names(const std::vector<Function>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.name);
  return out;
}

TEST(MutateTokenize, SkipsCommentsStringsAndPreprocessorLines) {
  const std::string text =
      "#define X(a) \\\n  ((a) < 1)\n/* if (a < b) */ int f(void) { // x < y\n"
      "  return g(\"<\", '<') < 2; }\n";
  const auto t = tokenize(text);
  std::vector<std::string> s;
  for (const auto& tok : t) s.emplace_back(tok.text);
  EXPECT_EQ(s, (std::vector<std::string>{"int", "f", "(", "void", ")", "{", "return", "g", "(",
                                         "\"<\"", ",", "'<'", ")", "<", "2", ";", "}"}));
  EXPECT_EQ(t.front().line, 3);
  EXPECT_EQ(t[6].line, 4);
}

TEST(MutateFunctions, FindsDefinitionsNotStructsOrInitialisers) {
  const std::string text =
      "struct cpudl { int size; };\nstatic int tab[] = { 1, 2 };\n"
      "static inline int parent(int i) { return (i - 1) >> 1; }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu) __releases(x) { if (cp) { cp->size--; } }\n"
      "int cpudl_find(struct cpudl *cp,\n   struct task_struct *p) { return 0; }\n"
      "#ifdef CONFIG_X\nvoid cpudl_cleanup(struct cpudl *cp) { }\n#endif\n";
  const auto t = tokenize(text);
  EXPECT_EQ(names(find_functions(t)),
            (std::vector<std::string>{"parent", "cpudl_clear", "cpudl_find", "cpudl_cleanup"}));
  EXPECT_EQ(names(functions_under_test(t, kCpudlTool, "")),
            (std::vector<std::string>{"cpudl_clear", "cpudl_find", "cpudl_cleanup"}));
  EXPECT_EQ(names(functions_under_test(t, kPickTool, "parent")),
            (std::vector<std::string>{"parent"}));
}

const std::string kSmall =
    "static int helper(int a) { return a < 1; }\n"
    "int cpudl_find(struct cpudl *cp, u64 dl)\n{\n"
    "\t/* a < b in a comment */\n"
    "\tif (cp->size > 0 && dl_time_before(dl, cp->elements[0].dl))\n"
    "\t\treturn 1;\n"
    "\tcp->size = cp->size - 1;\n"
    "\tcpumask_set_cpu(0, cp->free_cpus);\n"
    "\treturn IDX_INVALID;\n}\n";

TEST(MutateGenerate, EachOperatorChangesOnePlaceInsideTheFunctionsUnderTest) {
  const auto all = generate(kSmall, kCpudlTool, "",
                            {std::begin(kAllOperators), std::end(kAllOperators)});
  ASSERT_FALSE(all.empty());
  std::set<Operator> ops;
  std::set<std::string> texts;
  for (const auto& m : all) {
    ops.insert(m.op);
    EXPECT_EQ(m.function, "cpudl_find") << m.id;  // never helper(), never the comment
    EXPECT_GE(m.line, 5) << m.id;
    EXPECT_NE(m.text, kSmall) << m.id;
    EXPECT_TRUE(texts.insert(m.text).second) << "duplicate " << m.id;
    EXPECT_NE(m.text.find("static int helper(int a) { return a < 1; }"), std::string::npos);
    EXPECT_NE(m.text.find("/* a < b in a comment */"), std::string::npos);
    EXPECT_FALSE(m.diff.empty());
  }
  EXPECT_EQ(ops.size(), std::size(kAllOperators));  // every operator applies here
  auto has = [&](Operator op, std::string_view fragment) {
    return std::any_of(all.begin(), all.end(), [&](const Mutant& m) {
      return m.op == op && m.text.find(fragment) != std::string::npos;
    });
  };
  EXPECT_TRUE(has(Operator::kRelational, "cp->size >= 0"));
  EXPECT_TRUE(has(Operator::kRelational, "cp->size < 0"));
  EXPECT_TRUE(has(Operator::kDlTimeBefore, "dl_time_before(cp->elements[0].dl, dl)"));
  EXPECT_TRUE(has(Operator::kDlTimeBefore, "((dl) < (cp->elements[0].dl))"));
  EXPECT_TRUE(has(Operator::kOffByOne, "cp->size - 2"));
  EXPECT_TRUE(has(Operator::kOffByOne, "cp->size - 0"));
  EXPECT_TRUE(has(Operator::kOffByOne, "cp->elements[(0) + 1]"));
  EXPECT_TRUE(has(Operator::kNegate, "if (!(cp->size > 0 && dl_time_before"));
  EXPECT_TRUE(has(Operator::kDelete, "\t;\n\tcpumask_set_cpu"));    // the store
  EXPECT_TRUE(has(Operator::kDelete, "\t;\n\treturn IDX_INVALID"));  // the cpumask call
  EXPECT_TRUE(has(Operator::kDelete, "\t\t;\n\tcp->size"));         // return 1;
  EXPECT_TRUE(has(Operator::kSwapArgs, "cpumask_set_cpu(cp->free_cpus, 0)"));
  EXPECT_TRUE(has(Operator::kConstant, "return nr_cpu_ids;"));
  EXPECT_TRUE(has(Operator::kConstant, "return 0;\n}"));
  // A diff shows the line before and after.
  const auto it = std::find_if(all.begin(), all.end(), [](const Mutant& m) {
    return m.text.find("cp->size - 2") != std::string::npos;
  });
  ASSERT_NE(it, all.end());
  EXPECT_EQ(it->diff, "-\tcp->size = cp->size - 1;\n+\tcp->size = cp->size - 2;\n");
  // Ids are in source order.
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LE(all[i - 1].line, all[i].line);
}

TEST(MutateGenerate, OperatorsFilterAndSamplingIsDeterministic) {
  const auto ror = generate(kSmall, kCpudlTool, "", {Operator::kRelational});
  for (const auto& m : ror) EXPECT_EQ(m.op, Operator::kRelational);
  EXPECT_EQ(ror.size(), 3u);  // > -> >=, <, <=
  const auto all = generate(kSmall, kCpudlTool, "",
                            {std::begin(kAllOperators), std::end(kAllOperators)});
  const auto a = sample(all, 5, 7), b = sample(all, 5, 7), c = sample(all, 5, 8);
  ASSERT_EQ(a.size(), 5u);
  std::vector<std::string> ia, ib, ic;
  for (auto& m : a) ia.push_back(m.id);
  for (auto& m : b) ib.push_back(m.id);
  for (auto& m : c) ic.push_back(m.id);
  EXPECT_EQ(ia, ib);
  EXPECT_NE(ia, ic);
  EXPECT_TRUE(std::is_sorted(ia.begin(), ia.end()));
  EXPECT_EQ(sample(all, 0, 1).size(), all.size());
  EXPECT_EQ(sample(all, all.size() + 3, 1).size(), all.size());
}

TEST(MutateGenerate, NoneOutsideTheFunctionUnderTest) {
  EXPECT_TRUE(generate(kSmall, kPickTool, "select_dst_cpu",
                       {std::begin(kAllOperators), std::end(kAllOperators)})
                  .empty());
  for (const auto& name : {"cpudl_find", "helper"})
    for (const auto& m : generate(kSmall, kPickTool, name, {Operator::kConstant})) {
      EXPECT_EQ(m.function, name);
      EXPECT_EQ(m.description.find("-> `IDX_INVALID`"), std::string::npos);  // not a pick constant
    }
}

TEST(MutateGenerate, AssertionsAreNotMutated) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu)\n{\n"
      "\tWARN_ON(cpu != -1 && !cpu_present(cpu));\n"
      "\tcp->size = cpu + 1;\n}\n";
  const auto all = generate(text, kCpudlTool, "",
                            {std::begin(kAllOperators), std::end(kAllOperators)});
  ASSERT_FALSE(all.empty());
  for (const auto& m : all) {
    EXPECT_EQ(m.line, 4) << m.id << " " << m.description;
    EXPECT_NE(m.text.find("WARN_ON(cpu != -1 && !cpu_present(cpu));"), std::string::npos);
  }
}

// Every example file of the project: mutants of every operator family that
// applies, in the cpudl_* functions (or the pick function) only.
TEST(MutateGenerate, ExampleFiles) {
  namespace fs = std::filesystem;
  const fs::path ex = tools::source_dir() / "kshim" / "examples";
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(ex / "cpudl")) {
    if (e.path().extension() != ".c") continue;
    ++files;
    const auto all = generate(util::read_text(e.path()), kCpudlTool, "",
                              {std::begin(kAllOperators), std::end(kAllOperators)});
    EXPECT_GT(all.size(), 100u) << e.path();
    std::set<std::string> fns;
    for (const auto& m : all) fns.insert(m.function);
    EXPECT_TRUE(fns.contains("cpudl_find")) << e.path();
    EXPECT_TRUE(fns.contains("cpudl_set")) << e.path();
    for (const auto& f : fns) EXPECT_TRUE(f.starts_with("cpudl_")) << e.path() << " " << f;
  }
  EXPECT_GE(files, 16u);
  const auto pick = generate(util::read_text(ex / "pick" / "named.c"), kPickTool,
                             "pick_new_dst_cpu", {std::begin(kAllOperators), std::end(kAllOperators)});
  EXPECT_GT(pick.size(), 5u);
  for (const auto& m : pick) EXPECT_EQ(m.function, "pick_new_dst_cpu");
}

}  // namespace
}  // namespace diffsched::mutate
