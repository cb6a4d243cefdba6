// diffsched fn's extraction (src/fn/extract.h) on the project's example
// files, kshim/examples/fn/: the closure in the file, the externals and
// whether the shim has them, the globals read, the parameters' kinds, and
// that the extracted unit compiles against the shim as kernel-check builds a
// candidate.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fn/extract.h"
#include "kcheck/c_source.h"
#include "tools/process.h"

namespace diffsched::fn {
namespace {

namespace fs = std::filesystem;

fs::path example(const std::string& name) {
  return tools::source_dir() / "kshim" / "examples" / "fn" / name;
}

Extraction extract(const std::string& file, const std::string& function) {
  Extraction x = extract_function_from_file(example(file), function);
  EXPECT_TRUE(x.ok()) << x.error;
  return x;
}

std::vector<std::string> names_of(const Extraction& x, PieceKind kind) {
  std::vector<std::string> out;
  for (const Piece& p : x.pieces)
    if (p.kind == kind) out.push_back(p.name);
  return out;
}

using Names = std::vector<std::string>;

// The unit compiles against the shim (-fsyntax-only, kernel-check's flags):
// "" or the compiler's messages.
std::string compile_errors(const Extraction& x, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("fn_extract_test." + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path unit = dir / (name + ".c"), log = dir / (name + ".log");
  std::ofstream(unit) << x.text;
  fs::path clang = tools::find_program("clang-14");
  if (clang.empty()) clang = tools::find_program("clang");
  if (clang.empty()) return "no clang-14 on PATH";
  std::vector<std::string> argv = {clang.string()};
  for (const auto& a : x.compile_args({})) argv.push_back(a);
  argv.insert(argv.end(), {"-fsyntax-only", unit.string()});
  const int rc = tools::run({.argv = argv, .log = log, .deadline = 120, .stdin_null = true});
  std::string out = tools::read_text(log);
  if (rc == 0) {
    fs::remove_all(dir);
    return {};
  }
  return "rc " + std::to_string(rc) + ":\n" + out + "\n--- unit:\n" + x.text;
}

TEST(Extract, MaskScanTakesItsHelperMacrosAndTypesAndNothingElse) {
  const Extraction x = extract("mask-scan.c", "scan_for_cpu");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"cpu_is_candidate", "scan_for_cpu"}));
  EXPECT_EQ(names_of(x, PieceKind::kType), (Names{"scan_stats", "scan_mode"}));
  // SCAN_STRIDE only through SCAN_STEP's body; UNUSED_LIMIT only in an unused helper.
  EXPECT_EQ(names_of(x, PieceKind::kMacro), (Names{"SCAN_LIMIT", "SCAN_STEP", "SCAN_STRIDE"}));
  EXPECT_EQ(names_of(x, PieceKind::kInclude), (Names{"<linux/cpumask.h>"}));
  EXPECT_TRUE(x.missing_includes.empty());
  EXPECT_EQ(x.text.find("unrelated_helper"), std::string::npos);
  EXPECT_EQ(x.text.find("unused_cb_t"), std::string::npos);
  // Pieces in file order.
  for (std::size_t i = 1; i < x.pieces.size(); ++i)
    EXPECT_LE(x.pieces[i - 1].begin, x.pieces[i].begin);

  const External* test_cpu = x.external("cpumask_test_cpu");
  ASSERT_NE(test_cpu, nullptr);
  EXPECT_TRUE(test_cpu->is_function);
  EXPECT_TRUE(test_cpu->in_shim);
  EXPECT_EQ(test_cpu->header, "include/kshim/cpumask.h");
  for (const External& e : x.externals) EXPECT_TRUE(e.in_shim) << e.name;

  const GlobalRead* nr = x.global("nr_cpu_ids");
  ASSERT_NE(nr, nullptr);
  EXPECT_TRUE(nr->in_shim);
  EXPECT_TRUE(nr->read);
  EXPECT_FALSE(nr->written);
  EXPECT_FALSE(nr->defined_in_file);
  EXPECT_EQ(nr->type.kind, TypeKind::kInteger);
  EXPECT_EQ(nr->read_by, (Names{"scan_for_cpu"}));
  EXPECT_TRUE(x.indirect_calls.empty());
  EXPECT_EQ(compile_errors(x, "mask-scan"), "");
}

TEST(Extract, MaskScanParamsHaveTheirKinds) {
  const Extraction x = extract("mask-scan.c", "scan_for_cpu");
  ASSERT_TRUE(x.ok());
  const Signature& s = x.function;
  EXPECT_EQ(s.name, "scan_for_cpu");
  EXPECT_FALSE(s.is_static);
  EXPECT_EQ(s.result.kind, TypeKind::kInteger);
  EXPECT_EQ(s.result.bits, 32u);
  EXPECT_TRUE(s.result.is_signed);
  ASSERT_EQ(s.params.size(), 4u);
  EXPECT_EQ(s.params[0].name, "span");
  EXPECT_TRUE(s.params[0].is_cpumask_pointer());
  EXPECT_TRUE(s.params[0].target()->is_const);
  EXPECT_TRUE(s.params[1].is_cpumask_pointer());
  EXPECT_EQ(s.params[2].kind, TypeKind::kEnum);
  EXPECT_EQ(s.params[2].tag, "scan_mode");
  EXPECT_EQ(s.params[2].bits, 32u);
  const CType& stats = s.params[3];
  EXPECT_EQ(stats.kind, TypeKind::kPointer);
  ASSERT_NE(stats.target(), nullptr);
  EXPECT_EQ(stats.target()->kind, TypeKind::kStruct);
  EXPECT_EQ(stats.target()->tag, "scan_stats");
  EXPECT_FALSE(stats.target()->is_const);
  ASSERT_EQ(stats.target()->inner.size(), 2u);
  EXPECT_EQ(stats.target()->inner[0].name, "visited");
  EXPECT_EQ(stats.target()->inner[1].name, "found");
}

TEST(Extract, GlobalsAreListedWithTheirOriginAndConstness) {
  const Extraction x = extract("globals.c", "next_balance");
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"current_weight", "next_balance"}));
  EXPECT_EQ(names_of(x, PieceKind::kData),
            (Names{"sched_hidden_level", "balance_interval", "nr_balances", "level_weight"}));
  Names globals;
  for (const GlobalRead& g : x.globals) globals.push_back(g.name);
  // never_read is read by another function, not by this one's closure.
  EXPECT_EQ(globals, (Names{"balance_interval", "level_weight", "nr_balances", "sched_hidden_level"}));

  const GlobalRead* hidden = x.global("sched_hidden_level");
  ASSERT_NE(hidden, nullptr);
  EXPECT_FALSE(hidden->defined_in_file);
  EXPECT_FALSE(hidden->in_shim);
  EXPECT_FALSE(hidden->constant);  // state nobody gave a value: to cover or report
  EXPECT_EQ(hidden->read_by, (Names{"current_weight"}));
  const External* ext = x.external("sched_hidden_level");
  ASSERT_NE(ext, nullptr);
  EXPECT_FALSE(ext->is_function);
  EXPECT_FALSE(ext->in_shim);
  EXPECT_TRUE(ext->declared_in_file);

  const GlobalRead* interval = x.global("balance_interval");
  ASSERT_NE(interval, nullptr);
  EXPECT_TRUE(interval->defined_in_file && interval->is_static && interval->has_initializer);
  EXPECT_FALSE(interval->written);
  EXPECT_TRUE(interval->constant);  // initialised, never written

  const GlobalRead* count = x.global("nr_balances");
  ASSERT_NE(count, nullptr);
  EXPECT_TRUE(count->read && count->written);
  EXPECT_FALSE(count->has_initializer);
  EXPECT_FALSE(count->constant);

  const GlobalRead* table = x.global("level_weight");
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->constant);
  EXPECT_EQ(table->type.kind, TypeKind::kArray);
  EXPECT_EQ(table->type.array_size, 4);
  EXPECT_EQ(table->read_by, (Names{"current_weight"}));
  EXPECT_EQ(compile_errors(x, "globals"), "");
}

TEST(Extract, HeaderInlineFunctionTakesTheStructAndItsHelper) {
  const Extraction x = extract("ring.h", "ring_full");
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(x.function.is_static);
  EXPECT_TRUE(x.function.is_inline);
  EXPECT_EQ(x.function.result.kind, TypeKind::kBool);
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"ring_count", "ring_full"}));
  // struct ring names struct ring_slot in a field: both come along.
  EXPECT_EQ(names_of(x, PieceKind::kType), (Names{"ring_slot", "ring"}));
  EXPECT_TRUE(names_of(x, PieceKind::kMacro).empty());  // the include guard is not used
  EXPECT_TRUE(x.globals.empty());
  EXPECT_EQ(compile_errors(x, "ring"), "");

  const Extraction push = extract("ring.h", "ring_push");
  ASSERT_EQ(push.function.params.size(), 3u);
  const CType& r = push.function.params[0];
  ASSERT_EQ(r.kind, TypeKind::kPointer);
  const CType& ring = *r.target();
  EXPECT_EQ(ring.tag, "ring");
  ASSERT_EQ(ring.inner.size(), 4u);
  EXPECT_EQ(ring.inner[0].name, "head");
  EXPECT_EQ(ring.inner[0].kind, TypeKind::kInteger);
  EXPECT_EQ(ring.inner[0].bits, 32u);
  EXPECT_FALSE(ring.inner[0].is_signed);
  EXPECT_EQ(ring.inner[3].name, "slots");
  EXPECT_EQ(ring.inner[3].kind, TypeKind::kPointer);
  EXPECT_EQ(push.function.params[1].bits, 64u);
  EXPECT_EQ(compile_errors(push, "ring_push"), "");
}

TEST(Extract, StructArrayAndFunctionPointerParams) {
  const Extraction x = extract("struct-arg.c", "env_pick");
  ASSERT_TRUE(x.ok());
  const auto& p = x.function.params;
  ASSERT_EQ(p.size(), 6u);
  const CType& env = *p[0].target();
  EXPECT_EQ(env.kind, TypeKind::kStruct);
  ASSERT_EQ(env.inner.size(), 5u);
  EXPECT_TRUE(env.inner[2].is_cpumask_pointer());  // cpumask_var_t
  EXPECT_EQ(env.inner[2].spelling, "cpumask_var_t");
  EXPECT_EQ(env.inner[3].kind, TypeKind::kArray);
  EXPECT_EQ(env.inner[3].array_size, 4);
  EXPECT_EQ(env.inner[3].target()->bits, 64u);
  EXPECT_EQ(env.inner[4].kind, TypeKind::kFunctionPointer);
  ASSERT_EQ(env.inner[4].inner.size(), 3u);  // int (const void *, const void *)
  EXPECT_EQ(env.inner[4].inner[0].kind, TypeKind::kInteger);
  // `const unsigned long *load` with a length.
  EXPECT_EQ(p[1].kind, TypeKind::kPointer);
  EXPECT_TRUE(p[1].target()->is_const);
  EXPECT_EQ(p[1].target()->bits, 64u);
  EXPECT_FALSE(p[1].target()->is_signed);
  EXPECT_EQ(p[2].kind, TypeKind::kInteger);  // size_t
  EXPECT_EQ(p[2].spelling, "size_t");
  EXPECT_EQ(p[3].kind, TypeKind::kBool);
  EXPECT_EQ(p[4].bits, 8u);  // u8
  EXPECT_FALSE(p[4].is_signed);
  EXPECT_TRUE(p[5].is_cpumask_pointer());

  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"min_index", "env_pick"}));
  EXPECT_EQ(names_of(x, PieceKind::kType), (Names{"cmp_func_t", "pick_env"}));
  EXPECT_EQ(names_of(x, PieceKind::kMacro), (Names{"ENV_F_IDLE"}));
  // Calls through pointers are named, not followed.
  EXPECT_EQ(x.indirect_calls,
            (Names{"env->cmp(&env->weights[level & 3], &load[i])", "cmp(&load[i], &load[best])"}));
  EXPECT_EQ(compile_errors(x, "struct-arg"), "");

  const Extraction helper = extract("struct-arg.c", "min_index");
  ASSERT_EQ(helper.function.params.size(), 3u);
  EXPECT_EQ(helper.function.params[2].kind, TypeKind::kFunctionPointer);
  EXPECT_EQ(helper.function.params[2].spelling, "cmp_func_t");
}

TEST(Extract, ExternalsTheShimLacksAreStubCandidates) {
  const Extraction x = extract("stub.c", "capacity_sum");
  ASSERT_TRUE(x.ok());
  const External* hint = x.external("group_capacity_hint");
  ASSERT_NE(hint, nullptr);
  EXPECT_TRUE(hint->is_function);
  EXPECT_FALSE(hint->in_shim);
  EXPECT_TRUE(hint->declared_in_file);
  EXPECT_FALSE(hint->implicit);
  EXPECT_EQ(hint->type, "unsigned long (struct em_perf_domain *, int)");
  const External* pass = x.external("sched_balance_pass");
  ASSERT_NE(pass, nullptr);
  EXPECT_FALSE(pass->in_shim);
  const External* cap = x.external("kshim_arch_scale_cpu_capacity");
  ASSERT_NE(cap, nullptr);
  EXPECT_TRUE(cap->in_shim);
  // Only those two are not the shim's.
  Names lacking;
  for (const External& e : x.externals)
    if (!e.in_shim) lacking.push_back(e.name);
  EXPECT_EQ(lacking, (Names{"group_capacity_hint", "sched_balance_pass"}));
  // The file's declarations of them are in the unit.
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"group_capacity_hint", "capacity_sum"}));
  EXPECT_EQ(names_of(x, PieceKind::kType), (Names{"em_perf_domain"}));
  // The shim's globals the shim's macros read are globals read too.
  ASSERT_NE(x.global("nr_cpu_ids"), nullptr);
  ASSERT_NE(x.global("sched_balance_pass"), nullptr);
  EXPECT_FALSE(x.global("sched_balance_pass")->in_shim);
  EXPECT_EQ(compile_errors(x, "stub"), "");
}

TEST(Extract, AnUndeclaredCallIsAnImplicitExternal) {
  const Extraction x = extract_function("int f(int x) { return undeclared_helper(x) + 1; }\n", "f");
  ASSERT_TRUE(x.ok()) << x.error;
  const External* e = x.external("undeclared_helper");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->implicit);
  EXPECT_FALSE(e->in_shim);
  EXPECT_FALSE(e->declared_in_file);
}

TEST(Extract, ShimHelpersTheFileDefinesAreLeftOutOfTheShim) {
  const std::string text =
      "static inline bool dl_time_before(u64 a, u64 b) { return (s64)(a - b) < 0; }\n"
      "bool earlier(u64 a, u64 b) { return dl_time_before(a, b); }\n";
  const Extraction x = extract_function(text, "earlier");
  ASSERT_TRUE(x.ok()) << x.error;
  EXPECT_EQ(x.shim_own, (Names{"dl_time_before"}));
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"dl_time_before", "earlier"}));
  EXPECT_EQ(x.parse_errors, 0u);
  EXPECT_EQ(compile_errors(x, "own"), "");
}

// lib/sort.c's shape: a file macro before `static` starts clang's extent
// inside the macro's body; the helper still comes along, from the macro on.
TEST(Extract, AFileMacroBeforeAHelperKeepsTheHelper) {
  const std::string text =
      "#define my_attr_const __attribute__((__const__))\n"
      "my_attr_const __always_inline\n"
      "static unsigned long up(unsigned long i) { return i / 2; }\n"
      "unsigned long f(unsigned long x) { return up(x); }\n";
  const Extraction x = extract_function(text, "f");
  ASSERT_TRUE(x.ok()) << x.error;
  EXPECT_EQ(names_of(x, PieceKind::kFunction), (Names{"up", "f"}));
  EXPECT_EQ(names_of(x, PieceKind::kMacro), (Names{"my_attr_const"}));
  EXPECT_EQ(compile_errors(x, "attr"), "");
}

// A definition clang may have lost (an unknown kernel macro before it, a
// header the shim lacks): the error names clang's first error. A name the
// file never spells is said so instead (a function of another era): no
// error of clang's explains it.
TEST(Extract, AMissingFunctionNamesClangsFirstError) {
  const std::string text =
      "#include <linux/no_such_header.h>\n"
      "int other(void) { return 0; }\n"
      "DEFINE_FROM_THE_MISSING_HEADER(lost)\n";
  const Extraction x = extract_function(text, "lost");
  EXPECT_NE(x.error.find("no function `lost` is defined in it (clang's first error, line "), std::string::npos)
      << x.error;
  const Extraction absent = extract_function(text, "renamed_since");
  EXPECT_NE(absent.error.find("input.c: no function `renamed_since` is defined in it (the name does not occur "
                              "in the file; clang's first error, line "),
            std::string::npos)
      << absent.error;
  const Extraction clean = extract_function("int other(void) { return 0; }\n", "renamed_since");
  EXPECT_EQ(clean.error, "input.c: no function `renamed_since` is defined in it (the name does not occur in the file)");
}

TEST(Extract, MissingIncludesAndErrorsInTheUnitAreNamed) {
  const std::string text =
      "#include <linux/cpumask.h>\n"
      "#include <linux/no_such_header.h>\n"
      "int g(struct unknown_thing *u) { return u->field + undeclared_var; }\n";
  const Extraction x = extract_function(text, "g");
  ASSERT_TRUE(x.ok()) << x.error;
  EXPECT_EQ(x.missing_includes, (Names{"<linux/no_such_header.h>"}));
  EXPECT_GE(x.parse_errors, 1u);
  ASSERT_FALSE(x.diagnostics.empty());
  EXPECT_NE(x.diagnostics.front().find("3: "), std::string::npos) << x.diagnostics.front();
}

TEST(Extract, FailuresAreOneLine) {
  const Extraction missing = extract_function_from_file(example("mask-scan.c"), "no_such_function");
  EXPECT_NE(missing.error.find("no function `no_such_function` is defined in it"), std::string::npos)
      << missing.error;
  EXPECT_NE(missing.error.find("mask-scan.c"), std::string::npos);
  const Extraction declared = extract_function("int h(int);\n", "h");
  EXPECT_NE(declared.error.find("`h` is declared in it but not defined"), std::string::npos)
      << declared.error;
  const Extraction unreadable = extract_function_from_file(example("no-such-file.c"), "f");
  EXPECT_NE(unreadable.error.find("not a readable regular file"), std::string::npos);
  for (const auto* x : {&missing, &declared, &unreadable})
    EXPECT_EQ(x->error.find('\n'), std::string::npos);
}

TEST(Extract, DeepNestingIsBoundedNotACrash) {
  // Deeper than clang's bracket limit: an error, not a crash or a hang.
  std::string text = "int deep(int x) { return ";
  for (int i = 0; i < 5000; ++i) text += "(";
  text += "x";
  for (int i = 0; i < 5000; ++i) text += ")";
  text += "; }\n";
  const Extraction x = extract_function(text, "deep");
  EXPECT_FALSE(x.ok());
  EXPECT_EQ(x.error.find('\n'), std::string::npos);
  // Deep but within bounds: the walk is iterative.
  std::string ok = "int deep(int x) { return ";
  for (int i = 0; i < 500; ++i) ok += "(x + ";
  ok += "1";
  for (int i = 0; i < 500; ++i) ok += ")";
  ok += "; }\n";
  const Extraction y = extract_function(ok, "deep");
  EXPECT_TRUE(y.ok()) << y.error;
}

// Kernel-check's form detection shares the libclang loader and the child
// (kcheck/libclang.h): it still reads a pick candidate.
TEST(Extract, KernelCheckReaderStillReadsAPick) {
  const std::string text =
      tools::read_text(tools::source_dir() / "kshim" / "examples" / "pick" / "reference.c");
  const tools::CSource& src = tools::parse_c_source(text);
  ASSERT_TRUE(src.parsed) << src.error;
  const tools::CFunction* f = src.definition("select_dst_cpu");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->params, 3);
  EXPECT_FALSE(f->returns.empty());
}

}  // namespace
}  // namespace diffsched::fn
