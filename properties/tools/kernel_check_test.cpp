// kernel-check's API detection and its "the shim lacks" summary
// (src/kcheck/kernel_check.h), on small texts.
#include <gtest/gtest.h>

#include "kcheck/kernel_check.h"

namespace diffsched::tools {
namespace {

const char* kV49Rest = R"(
void cpudl_clear(struct cpudl *cp, int cpu) { }
int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return 0; }
int cpudl_init(struct cpudl *cp) { return 0; }
void cpudl_cleanup(struct cpudl *cp) { }
void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }
void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }
)";

TEST(KernelCheckApi, DetectsTheV48FormFromCpudlSetWithIsValid) {
  const std::string text = std::string("void cpudl_set(struct cpudl *cp, int cpu, u64 dl,\n"
                                       "               int is_valid)\n{\n}\n") +
                           "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return -1; }\n"
                           "int cpudl_init(struct cpudl *cp) { return 0; }\n"
                           "void cpudl_cleanup(struct cpudl *cp) { }\n"
                           "void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }\n"
                           "void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }\n";
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_8) << error;
}

TEST(KernelCheckApi, DetectsTheV49Form) {
  std::string error;
  const std::string text = std::string("void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }") + kV49Rest;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
}

TEST(KernelCheckApi, DetectsTheV619FormFromCpudlClearWithOnline) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu, bool online)\n{\n}\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return 0; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV6_19) << error;
}

TEST(KernelCheckApi, IgnoresDefinitionsInComments) {
  const std::string text = std::string("/* void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int v) { } */\n"
                                       "// void cpudl_clear(struct cpudl *cp, int cpu, bool online) { }\n"
                                       "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }") +
                           kV49Rest;
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
}

TEST(KernelCheckApi, RefusesAFileWithNoneOfTheFunctions) {
  std::string error;
  EXPECT_FALSE(detect_cpudl_api("int answer(void) { return 42; }\n"
                                "void cpudl_set(struct cpudl *cp, int cpu, u64 dl);\n",
                                &error));
  EXPECT_NE(error.find("none of the expected functions"), std::string::npos) << error;
}

// The v4.9 split without v3.19's free-CPU helpers (Android 3.18 backports):
// supported, the glue keeps free_cpus. One helper without the other is not a
// form any kernel had.
TEST(KernelCheckApi, AcceptsAV49FileWithoutTheFreeCpuHelpers) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return 0; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV4_9) << error;
  std::string v48 = text;
  v48.replace(0, v48.find('\n'), "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid) { }");
  v48.erase(v48.find("void cpudl_clear"), v48.find("int cpudl_find") - v48.find("void cpudl_clear"));
  EXPECT_EQ(detect_cpudl_api(v48, &error), KernelApi::kV4_8) << error;
}

TEST(KernelCheckApi, RefusesAV49FileWithOnlyOneFreeCpuHelper) {
  for (const char* helper : {"cpudl_set_freecpu", "cpudl_clear_freecpu"}) {
    const std::string text =
        std::string("void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
                    "void cpudl_clear(struct cpudl *cp, int cpu) { }\n"
                    "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return 0; }\n"
                    "int cpudl_init(struct cpudl *cp) { return 0; }\n"
                    "void cpudl_cleanup(struct cpudl *cp) { }\n"
                    "void ") + helper + "(struct cpudl *cp, int cpu) { }\n";
    std::string error;
    EXPECT_FALSE(detect_cpudl_api(text, &error)) << helper;
    const std::string other = std::string(helper) == "cpudl_set_freecpu" ? "cpudl_clear_freecpu()"
                                                                         : "cpudl_set_freecpu()";
    EXPECT_NE(error.find(other), std::string::npos) << error;
  }
}

// A parameter with parentheses of its own (a function pointer) is one
// parameter, and the definition is still found: an out-of-tree cpudl_init()
// taking a comparison function is an unsupported signature, named as such.
TEST(KernelCheckApi, AFunctionPointerParameterIsOneParameter) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return -1; }\n"
      "int cpudl_init(struct cpudl *cp, bool (*cmp_dl)(u64 a, u64 b))\n{\n\treturn 0;\n}\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(text, &error));
  EXPECT_NE(error.find("`cpudl_init` has an unsupported signature: cpudl_init(struct cpudl *cp, "
                       "bool (*cmp_dl)(u64 a, u64 b)) (2 parameters)"),
            std::string::npos)
      << error;
}

TEST(KernelCheckApi, FindsAPickFunctionDefinitionNotADeclaration) {
  EXPECT_TRUE(defines_function("int select_dst_cpu(const struct cpumask *a,\n"
                               "  const struct cpumask *b, const struct cpumask *c)\n{ return 0; }",
                               "select_dst_cpu"));
  EXPECT_FALSE(defines_function("int select_dst_cpu(const struct cpumask *a, "
                                "const struct cpumask *b, const struct cpumask *c);",
                                "select_dst_cpu"));
}

TEST(KernelCheckSummary, NamesTheMissingHeadersFunctionsAndTypes) {
  const std::string out =
      "x.c:3:10: fatal error: 'linux/rbtree.h' file not found\n"
      "x.c:9:5: error: implicit declaration of function 'rb_first_cached' is invalid in C99\n"
      "x.c:9:5: error: implicit declaration of function 'rb_first_cached' is invalid in C99\n"
      "x.c:4:8: error: unknown type name 'atomic_t'\n"
      "x.c:7:3: error: use of undeclared identifier 'CONFIG_FOO'\n"
      "x.c:8:3: error: no member named 'dl_server' in 'struct sched_dl_entity'\n";
  const std::string s = summarize_missing_api(out);
  EXPECT_NE(s.find("lacks: <linux/rbtree.h>, rb_first_cached(), CONFIG_FOO, type atomic_t, "
                   "struct sched_dl_entity.dl_server"),
            std::string::npos)
      << s;
}

TEST(KernelCheckSummary, SaysNothingForAnOrdinarySyntaxError) {
  EXPECT_EQ(summarize_missing_api("x.c:7:10: error: expected ';' after return statement\n"), "");
}

}  // namespace
}  // namespace diffsched::tools

namespace diffsched::tools {
namespace {

TEST(KernelCheckLinkErrors, AnUndefinedKernelFunctionIsWhatTheShimLacks) {
  const std::string s = summarize_link_errors(
      "kcheck: error: cannot load /w/candidate.so: /w/candidate.so: undefined symbol: "
      "cpu_util_cfs\n",
      "unsigned long cpu_util_cfs(int cpu);\nint f(void) { return cpu_util_cfs(0); }\n", "x.c");
  EXPECT_NE(s.find("the kernel shim (kshim/) lacks: cpu_util_cfs()"), std::string::npos) << s;
  EXPECT_EQ(s.find("own code"), std::string::npos) << s;
}

TEST(KernelCheckLinkErrors, AStaticFunctionNeverDefinedIsTheFilesOwnError) {
  const std::string out =
      "/usr/bin/ld: /tmp/x.o: in function `cpudl_find':\n"
      "x.c:(.text+0x1d): undefined reference to `cpudl_pick_slot'\n"
      "/usr/bin/ld: x.c: hidden symbol `cpudl_pick_slot' isn't defined\n";
  const std::string s = summarize_link_errors(
      out, "/* static int nope(void); */\nstatic int cpudl_pick_slot(struct cpudl *cp);\n",
      "x.c");
  EXPECT_NE(s.find("x.c declares cpudl_pick_slot() static but never defines it"),
            std::string::npos) << s;
  EXPECT_EQ(s.find("lacks"), std::string::npos) << s;
}

TEST(KernelCheckLinkErrors, BothKindsAndLldMessagesAreNamedOnce) {
  const std::string s = summarize_link_errors(
      "ld.lld: error: undefined symbol: task_h_load\nld.lld: error: undefined symbol: helper\n"
      "ld.lld: error: undefined symbol: task_h_load\n",
      "static inline int helper(void);\n", "f.c");
  EXPECT_NE(s.find("f.c declares helper()"), std::string::npos) << s;
  EXPECT_NE(s.find("lacks: task_h_load()"), std::string::npos) << s;
  EXPECT_EQ(s.find("task_h_load(), task_h_load()"), std::string::npos) << s;
}

TEST(KernelCheckLinkErrors, NothingForOutputWithoutLinkErrors) {
  EXPECT_EQ(summarize_link_errors("x.c:7:10: error: expected ';'\n", "", "x.c"), "");
}

}  // namespace
}  // namespace diffsched::tools

// Issue 12: cpudl_find()'s return convention (0/1 or a CPU or -1), from the
// text, and the three kinds of "cannot check this" messages kept apart.
namespace diffsched::tools {
namespace {

std::optional<FindReturn> find_return_of(const std::string& body, std::string* error) {
  return detect_find_return("int cpudl_find(struct cpudl *cp, struct task_struct *p,\n"
                            "               struct cpumask *later_mask)\n{\n" + body + "\n}\n",
                            error);
}

TEST(KernelCheckFindReturn, ZeroOneLiterals) {
  std::string error;
  EXPECT_EQ(find_return_of("if (x) { return 1; } else { if (y) return (1); }\nreturn 0;", &error),
            FindReturn::kBool) << error;
}

TEST(KernelCheckFindReturn, BestCpuSetToMinusOne) {
  std::string error, evidence;
  const std::string text =
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m)\n{\n"
      "  int best_cpu = -1;\n  if (m && cpumask_and(m, a, b)) {\n"
      "    best_cpu = cpumask_any(m);\n    goto out;\n  }\n"
      "out:\n  /* return 1; in a comment */\n  return best_cpu;\n}\n";
  EXPECT_EQ(detect_find_return(text, &error, &evidence), FindReturn::kCpu) << error;
  EXPECT_EQ(evidence, "return best_cpu");
}

TEST(KernelCheckFindReturn, LiteralMinusOneAndAVariableAssignedTheMaximum) {
  std::string error;
  EXPECT_EQ(find_return_of("int c;\nif (!x) return -1;\nc = cpudl_maximum(cp);\nreturn c;", &error),
            FindReturn::kCpu) << error;
}

TEST(KernelCheckFindReturn, TheCapacityFormsMaxCpuMinusOneIsStillZeroOne) {
  // v5.9+: a local `max_cpu = -1` that is never returned.
  std::string error;
  EXPECT_EQ(find_return_of("if (a) { int cpu, max_cpu = -1;\n if (!asym) return 1;\n"
                           "cpumask_set_cpu(max_cpu, later_mask);\n return 1; }\nreturn 0;",
                           &error),
            FindReturn::kBool) << error;
}

TEST(KernelCheckFindReturn, AVariableOfOnlyZeroAndOneIsZeroOne) {
  std::string error;
  EXPECT_EQ(find_return_of("int ret = 0;\nif (a != 0 && b == 1) ret = 1;\nreturn ret;", &error),
            FindReturn::kBool) << error;
  EXPECT_FALSE(find_return_of("int ret = 0;\nret = helper();\nreturn ret;", &error));
}

TEST(KernelCheckFindReturn, RefusesWhatItCannotRead) {
  std::string error;
  EXPECT_FALSE(find_return_of("return some_helper(cp, p);", &error));
  EXPECT_NE(error.find("return some_helper(cp, p)"), std::string::npos) << error;
  EXPECT_NE(error.find("supported:"), std::string::npos) << error;
  EXPECT_FALSE(find_return_of("if (x) return 1;\nreturn -1;", &error));  // mixed
  EXPECT_FALSE(detect_find_return("int f(void) { return 0; }\n", &error));
}

TEST(KernelCheckFindReturn, TheFormIsNamed) {
  EXPECT_EQ(describe_cpudl_form(KernelApi::kV4_9, FindReturn::kCpu),
            "the v4.9 API form (cpudl_set()/cpudl_clear() split), cpudl_find() returns a CPU or -1");
  EXPECT_NE(describe_cpudl_form(KernelApi::kV4_8, FindReturn::kBool).find("returns 0/1"),
            std::string::npos);
}

TEST(KernelCheckMessages, AFourArgumentCpudlFindIsAnUnsupportedSignature) {
  const std::string text = std::string(
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *sched_ctx,\n"
      "               struct task_struct *exec_ctx, struct cpumask *later_mask) { return 0; }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu, bool online) { }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\nvoid cpudl_cleanup(struct cpudl *cp) { }\n");
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(text, &error));
  EXPECT_NE(error.find("`cpudl_find` has an unsupported signature: cpudl_find(struct cpudl *cp, "
                       "struct task_struct *sched_ctx, struct task_struct *exec_ctx, struct "
                       "cpumask *later_mask) (4 parameters)"),
            std::string::npos) << error;
  EXPECT_EQ(error.find("lacks"), std::string::npos) << error;
}

TEST(KernelCheckApi, DetectsTheV314FormFromCpuToIdx) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid)\n"
      "{ int old_idx = cp->cpu_to_idx[cpu]; }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return -1; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\nvoid cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_EQ(detect_cpudl_api(text, &error), KernelApi::kV3_14) << error;
}

TEST(KernelCheckMessages, AnUnknownMixIsNamedAsAnUnsupportedForm) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl)\n"
      "{ int old_idx = cp->cpu_to_idx[cpu]; }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return -1; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\nvoid cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(text, &error));
  EXPECT_NE(error.find("an API form kernel-check does not support; supported: v3.14"),
            std::string::npos) << error;
  EXPECT_EQ(error.find("lacks"), std::string::npos) << error;
}

TEST(KernelCheckMessages, GlueErrorsAreTheFormNotTheShim) {
  const std::string out =
      "/k/kernel/sched/cpudeadline.c:40:2: warning: unused variable 'x'\n"
      "/src/kshim/runtime/glue_cpudl.c:120:60: error: implicit declaration of function "
      "'cpudl_set_freecpu' is invalid in C99\n"
      "/src/kshim/runtime/glue_cpudl.c:150:20: error: invalid application of 'sizeof' to an "
      "incomplete type 'struct cpudl_item'\n"
      "/src/kshim/runtime/glue_cpudl.c:160:20: error: no member named 'idx' in 'struct "
      "array_item'\n";
  const std::string s = summarize_form_errors(out, "cpudeadline.c", "glue_cpudl.c");
  EXPECT_NE(s.find("the file has an API form kernel-check does not support (not a limit of the shim)"),
            std::string::npos) << s;
  EXPECT_NE(s.find("cpudl_set_freecpu(), struct cpudl_item, struct array_item.idx"),
            std::string::npos) << s;
  EXPECT_EQ(s.find("kernel shim (kshim/) lacks"), std::string::npos) << s;
  EXPECT_EQ(summarize_missing_api(without_glue_errors(out, "glue_cpudl.c")), "");
}

// Each subject names its own glue: a third subject's glue errors are its
// form's, and another subject's glue lines are not (no name list here).
TEST(KernelCheckMessages, GlueErrorsAreTheNamedGluesOnly) {
  const std::string out =
      "/src/kshim/runtime/glue_third.c:12:3: error: use of undeclared identifier 'third_fn'\n"
      "/k/third.c:3:1: error: unknown type name 'atomic_t'\n";
  const std::string s = summarize_glue_errors(out, {"glue_third.c", "", "the third forms"});
  EXPECT_NE(s.find("the glue (kshim/runtime/glue_third.c) expects of the file: third_fn"),
            std::string::npos) << s;
  EXPECT_NE(s.find("supported: the third forms"), std::string::npos) << s;
  EXPECT_EQ(without_glue_errors(out, "glue_third.c"), "/k/third.c:3:1: error: unknown type name 'atomic_t'\n");
  EXPECT_EQ(without_glue_errors(out, "glue_cpudl.c"), out);
  EXPECT_EQ(summarize_glue_errors(out, {"glue_cpudl.c", "", "x"}), "");
}

TEST(KernelCheckMessages, ConflictingTypesOfAnEntryPointIsASignature) {
  const std::string s = summarize_form_errors(
      "x.c:10:5: error: conflicting types for 'cpudl_find'\n", "x.c", "glue_cpudl.c");
  EXPECT_NE(s.find("`cpudl_find` has an unsupported signature"), std::string::npos) << s;
  EXPECT_EQ(summarize_form_errors("x.c:1:1: error: unknown type name 'atomic_t'\n", "x.c", "glue_cpudl.c"), "");
}

}  // namespace
}  // namespace diffsched::tools

namespace diffsched::tools {
namespace {

TEST(KernelCheckOwnDefinitions, TheFilesOwnHelpersAreNamed) {
  EXPECT_EQ(shim_helpers_defined_by("static inline int dl_time_before(u64 a, u64 b)\n{\n"
                                    "  return (s64)(a - b) < 0;\n}\n"
                                    "/* static inline int task_cpu(struct task_struct *p) { } */\n"
                                    "int f(void) { return dl_time_before(1, 2); }\n"),
            std::vector<std::string>{"dl_time_before"});
  EXPECT_TRUE(shim_helpers_defined_by("bool dl_time_before(u64 a, u64 b);\n").empty());
}

}  // namespace
}  // namespace diffsched::tools
