// kernel-check's API detection and its "the shim lacks" summary
// (src/tools/kernel_check.h), on small texts.
#include <gtest/gtest.h>

#include "tools/kernel_check.h"

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

TEST(KernelCheckApi, RefusesAV49FileWithoutTheFreeCpuHelpers) {
  const std::string text =
      "void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }\n"
      "void cpudl_clear(struct cpudl *cp, int cpu) { }\n"
      "int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *m) { return 0; }\n"
      "int cpudl_init(struct cpudl *cp) { return 0; }\n"
      "void cpudl_cleanup(struct cpudl *cp) { }\n";
  std::string error;
  EXPECT_FALSE(detect_cpudl_api(text, &error));
  EXPECT_NE(error.find("cpudl_set_freecpu()"), std::string::npos) << error;
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
