// kernel-check's form detection (src/kcheck/kernel_check.h, read through
// libclang by src/kcheck/c_source.h) never crashes and stays linear: hostile
// texts (issue 22, section 5) get an answer or a one-line reason, never a
// SIGSEGV. The std::regex detection overflowed the stack on the first two.
// Also issue 22, section 6: every unsupported signature at once, and the
// list of supported forms matching what is accepted.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "kcheck/c_source.h"
#include "kcheck/kernel_check.h"

namespace diffsched::tools {
namespace {

const std::string kRest =
    "void cpudl_clear(struct cpudl *cp, int cpu) { }\n"
    "int cpudl_init(struct cpudl *cp) { return 0; }\n"
    "void cpudl_cleanup(struct cpudl *cp) { }\n"
    "void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }\n"
    "void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }\n";

std::string comment(std::size_t bytes) {
  std::string c = "/*";
  for (std::size_t i = 0; c.size() + 2 < bytes; ++i) c += (i % 61 == 60) ? '\n' : "x(;{ "[i % 5];
  return c + "*/";
}

// A v4.9 file with `filler` between cpudl_set's name and its '(' and inside
// the return of cpudl_find.
std::string v49_with(const std::string& filler) {
  return "void cpudl_set" + filler + "(struct cpudl *cp, int cpu, u64 dl) { }\n" +
         "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m)\n"
         "{\n\tint best_cpu = -1;\n\tif (m) best_cpu = cpumask_any(m);\n\treturn " +
         filler + " best_cpu;\n}\n" + kRest;
}

std::string fmt_decl(int i) { return "static int x" + std::to_string(i) + " = 1; "; }

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void expect_v49_cpu(const std::string& text, double max_seconds) {
  const auto start = std::chrono::steady_clock::now();
  std::string error, evidence;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
  EXPECT_EQ(detect_find_return(text, &error, &evidence), FindReturn::kCpu) << error;
  EXPECT_EQ(evidence, "return best_cpu");
  EXPECT_LT(seconds_since(start), max_seconds);
}

TEST(FormDetectionNeverCrashes, A64KbCommentBeforeTheParenthesisAndInAReturn) {
  expect_v49_cpu(v49_with(comment(64 * 1024)), 30);
}

TEST(FormDetectionNeverCrashes, A1MbCommentBeforeTheParenthesisAndInAReturn) {
  expect_v49_cpu(v49_with(comment(1024 * 1024)), 60);
}

TEST(FormDetectionNeverCrashes, LineCommentsAndBlanksOfAMegabyte) {
  std::string filler;
  while (filler.size() < 1024 * 1024) filler += "// ((((( ;;; {{{ return 1;\n   \t\n";
  expect_v49_cpu(v49_with(filler), 60);
}

TEST(FormDetectionNeverCrashes, ATenMegabyteLine) {
  // One line of 10 MB: a comment, then declarations, then the file's own
  // definitions, all on that line.
  std::string line = "/*" + std::string(5 * 1024 * 1024, 'a') + "*/ ";
  for (int i = 0; i < 1000; ++i) line += fmt_decl(i);
  line += "static const char text[] = \"" + std::string(10u * 1024 * 1024 - line.size(), 's') +
          "\"; ";
  std::string text = v49_with("");
  for (char& c : text)
    if (c == '\n') c = ' ';
  expect_v49_cpu(line + text + "\n", 120);
}

TEST(FormDetectionNeverCrashes, DeeplyNestedParentheses) {
  for (std::size_t depth : {300u, 100000u}) {
    const std::string nest = std::string(depth, '(') + "1" + std::string(depth, ')');
    const std::string text = "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
                             "int cpudl_find(struct cpudl *cp, struct task_struct *p, "
                             "struct cpumask *m)\n{\n\treturn " + nest + ";\n}\n" + kRest;
    std::string error;
    // Within clang's bracket depth (1024 here) the form is read; past it the
    // file cannot be read as C, said as such (never "does not define ...").
    const auto api = detect_cpudl_api(text, &error);
    if (depth <= 1000) {
      EXPECT_EQ(api, KernelApi::kV4_9) << depth << ": " << error;
    } else {
      EXPECT_EQ(api, std::nullopt) << depth;
      EXPECT_NE(error.find("cannot be read as C"), std::string::npos) << depth << ": " << error;
    }
    (void)detect_find_return(text, &error);  // an answer or a reason, never a crash
    // Unbalanced: only opening parentheses, in a signature and in a body.
    const std::string open = "void cpudl_set" + std::string(depth, '(') + "\n" +
                             "int cpudl_find(struct cpudl *cp) { return " +
                             std::string(depth, '(') + "\n" + kRest;
    (void)detect_cpudl_api(open, &error);
    (void)detect_find_return(open, &error);
  }
}

TEST(FormDetectionNeverCrashes, DeeplyNestedBracesAndALongChain) {
  const std::string braces = "int cpudl_find(struct cpudl *cp, struct task_struct *p, "
                             "struct cpumask *m)\n" +
                             std::string(100000, '{') + " return 1; " +
                             std::string(100000, '}') + "\n";
  std::string error;
  (void)detect_find_return(braces, &error);
  // clang itself overflows its stack on a chain of 2 * 10^5 additions (so
  // the file could not be built either): a reason, in this process's life.
  std::string chain = "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
                      "int cpudl_find(struct cpudl *cp, struct task_struct *p, "
                      "struct cpumask *m)\n{\n\tint r = 0";
  for (int i = 0; i < 200000; ++i) chain += " + 1";
  chain += ";\n\treturn r;\n}\n" + kRest;
  error.clear();
  const auto api = detect_cpudl_api(chain, &error);
  if (!api) {
    EXPECT_NE(error.find("cannot be read as C"), std::string::npos) << error;
  }
  (void)detect_find_return(chain, &error);
  (void)shim_helpers_defined_by(chain);
  (void)summarize_link_errors("undefined symbol: helper\n", chain, "x.c");
}

TEST(FormDetectionNeverCrashes, UnterminatedCommentsAndStrings) {
  const std::string base = v49_with("");
  std::string error;
  for (const std::string& tail : {std::string("/* never closed"), std::string("\"never closed"),
                                  std::string("'x"), std::string("#if 1\n"),
                                  std::string("#define X(a) \\\n")}) {
    EXPECT_EQ(detect_cpudl_api(base + tail, &error), KernelApi::kV4_9) << tail << ": " << error;
    (void)detect_find_return(base + tail, &error);
    (void)detect_cpudl_api(tail + base, &error);
    (void)defines_function(tail + base, "cpudl_set");
  }
  // A comment opened before the definitions hides them all.
  EXPECT_FALSE(detect_cpudl_api("/* " + base, &error));
}

TEST(FormDetectionNeverCrashes, NulBytes) {
  std::string text = v49_with("");
  text.insert(text.find("int cpudl_find"), std::string("\0\0/*\0*/\0", 8));
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
  EXPECT_EQ(detect_find_return(text, &error), FindReturn::kCpu) << error;
  EXPECT_FALSE(detect_cpudl_api(std::string(4096, '\0'), &error));
}

TEST(FormDetectionNeverCrashes, CompilerOutputWithHugeNamesIsSummarised) {
  const std::string name(1024 * 1024, 'q');
  const std::string out = "x.c:1:1: error: implicit declaration of function '" + name +
                          "' is invalid\nld: undefined reference to `" + name + "'\n" +
                          "x.c:2:1: error: conflicting types for 'cpudl_" + name + "'\n" +
                          "x.c:3:1: error: unknown type name '" + std::string(1 << 20, '(');
  EXPECT_NE(summarize_missing_api(out).find(name + "()"), std::string::npos);
  EXPECT_NE(summarize_link_errors(out, "", "x.c").find(name + "()"), std::string::npos);
  EXPECT_NE(summarize_form_errors(out, "x.c", "glue_cpudl.c").find("`cpudl_" + name + "`"), std::string::npos);
}

TEST(FormDetectionFrontEnd, ReadsDefinitionsNotPrototypesCommentsOrInactiveCode) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid);\n"  // a prototype
      "/* void cpudl_clear(struct cpudl *cp, int cpu, bool online) { } */\n"
      "#if 0\nvoid cpudl_clear(struct cpudl *cp, int cpu, bool online) { }\n#endif\n"
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) "
      "{ return 1; }\n" + kRest;
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
  const CSource& src = parse_c_source(text);
  ASSERT_TRUE(src.parsed) << src.error;
  ASSERT_NE(src.definition("cpudl_set"), nullptr);
  EXPECT_EQ(src.definition("cpudl_set")->params, 3);
  EXPECT_EQ(src.definition("cpudl_set")->param_text, "struct cpudl *cp, int cpu, u64 dl");
}

TEST(FormDetectionFrontEnd, TheV314LayoutFromTheStructDefinition) {
  const std::string text =
      "struct cpudl { int size; int cpu_to_idx[8]; };\n"
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) "
      "{ return -1; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\nvoid cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV3_14) << error;
  EXPECT_EQ(parse_c_source(text).fields.count("cpudl.cpu_to_idx"), 1u);
}

TEST(FormRefusals, EveryUnsupportedSignatureIsNamedAtOnce) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *sched_ctx,\n"
      "               struct task_struct *exec_ctx, struct cpumask *later_mask) { return 0; }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu) { }\n"
      "int cpudl_init(struct cpudl *cp, bool (*cmp_dl)(u64 a, u64 b)) { return 0; }\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n"
      "void cpudl_set_freecpu(struct cpudl *cp, int cpu, int x) { }\n"
      "void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }\n";
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(text, &error));
  for (const char* part :
       {"`cpudl_find` has an unsupported signature: cpudl_find(struct cpudl *cp, struct "
        "task_struct *sched_ctx, struct task_struct *exec_ctx, struct cpumask *later_mask) (4 "
        "parameters); kernel-check supports cpudl_find(cp, p, later_mask)",
        "`cpudl_set` has an unsupported signature: cpudl_set(struct cpudl *cp, int cpu) (2 "
        "parameters)",
        "`cpudl_init` has an unsupported signature: cpudl_init(struct cpudl *cp, bool "
        "(*cmp_dl)(u64 a, u64 b)) (2 parameters)",
        "`cpudl_set_freecpu` has an unsupported signature: cpudl_set_freecpu(struct cpudl *cp, "
        "int cpu, int x) (3 parameters)"})
    EXPECT_NE(error.find(part), std::string::npos) << part << "\nin: " << error;
  EXPECT_EQ(error.find("cpudl_clear`"), std::string::npos) << error;
  EXPECT_EQ(error.find("cpudl_clear_freecpu`"), std::string::npos) << error;
}

TEST(FormRefusals, EveryConflictingEntryPointIsNamedAtOnce) {
  const std::string s = summarize_form_errors(
      "x.c:10:5: error: conflicting types for 'cpudl_find'\n"
      "x.c:20:5: error: conflicting types for 'cpudl_set'\n"
      "x.c:30:5: error: conflicting types for 'cpudl_find'\n"
      "x.c:40:5: error: conflicting types for 'helper'\n", "x.c", "glue_cpudl.c");
  EXPECT_NE(s.find("`cpudl_find` has an unsupported signature (its definition conflicts"),
            std::string::npos) << s;
  EXPECT_NE(s.find("; `cpudl_set` has an unsupported signature (its definition conflicts"),
            std::string::npos) << s;
  EXPECT_EQ(s.find("`cpudl_find`", s.find("`cpudl_find`") + 1), std::string::npos) << s;
  EXPECT_EQ(s.find("`helper`"), std::string::npos) << s;
  EXPECT_NE(s.find("; supported: " + supported_cpudl_forms()), std::string::npos) << s;
}

// Each form the supported list names is accepted, with and without the
// free-CPU helpers where it says so.
TEST(FormRefusals, TheSupportedListMatchesWhatIsAccepted) {
  const std::string list = supported_cpudl_forms();
  const std::string common =
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) "
      "{ return 0; }\nint cpudl_init(struct cpudl *cp) { return 0; }\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n";
  const std::string helpers = "void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }\n"
                              "void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }\n";
  const std::string set4 = "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int v) { }\n";
  const std::string set3 = "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n";
  const std::string clear2 = "void cpudl_clear(struct cpudl *cp, int cpu) { }\n";
  const std::string clear3 = "void cpudl_clear(struct cpudl *cp, int cpu, bool online) { }\n";
  struct Case {
    std::string text;
    KernelApi api;
    const char* listed;
  };
  const Case cases[] = {
      {set4 + common + helpers, KernelApi::kV4_8,
       "v4.8 (cpudl_set(cp, cpu, dl, is_valid) with elements[cpu].idx, with or without the "
       "free-CPU helpers)"},
      {set4 + common, KernelApi::kV4_8, "v4.8 ("},
      {set3 + clear2 + common + helpers, KernelApi::kV4_9,
       "v4.9 (cpudl_set(cp, cpu, dl) and cpudl_clear(cp, cpu), with or without the free-CPU "
       "helpers)"},
      {set3 + clear2 + common, KernelApi::kV4_9, "v4.9 ("},
      {set3 + clear3 + common, KernelApi::kV6_19, "v6.19 (cpudl_clear(cp, cpu, online))"},
      {"struct cpudl { int cpu_to_idx[4]; };\n" + set4 + common, KernelApi::kV3_14,
       "v3.14 (cpudl_set(cp, cpu, dl, is_valid) with struct cpudl's cpu_to_idx[], no free-CPU "
       "helpers)"},
  };
  for (const auto& c : cases) {
    std::string error;
    EXPECT_EQ(detect_cpudl_api(c.text, &error), c.api) << c.listed << ": " << error;
    EXPECT_NE(list.find(c.listed), std::string::npos) << c.listed << "\nnot in: " << list;
  }
  // One helper without the other is refused, and the message lists the forms.
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(set4 + common + "void cpudl_set_freecpu(struct cpudl *cp, "
                                "int cpu) { }\n", &error));
  EXPECT_NE(error.find("does not define cpudl_clear_freecpu()"), std::string::npos) << error;
  EXPECT_NE(error.find("supported: " + list), std::string::npos) << error;
}

}  // namespace
}  // namespace diffsched::tools
