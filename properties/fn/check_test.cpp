// diffsched fn's own pieces, without a compiler (src/fn/model.h, check.h):
// the spec format, the generator's determinism and domains, the CPU-list
// printer, and the levels of the comparison.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fn/check.h"
#include "fn/model.h"
#include "test_nodes.h"

namespace diffsched::fn {
namespace {

using nlohmann::json;

using test_nodes::mask_pointer;
using test_nodes::scalar;

// Each spec text is refused, its error starting with the expected text.
template <std::size_t N>
void expect_refused(const std::pair<const char*, const char*> (&bad)[N]) {
  for (const auto& [text, want] : bad) {
    Spec spec;
    std::string error;
    EXPECT_FALSE(parse_spec(text, "x.fnspec", &spec, &error)) << text;
    EXPECT_EQ(error.rfind(want, 0), 0u) << text << " -> " << error;
  }
}

// f(const struct cpumask *m, int target, const struct cpumask *const *hops, int nr_hops)
Layout mask_layout() {
  Layout l;
  l.function = "f";
  l.result = scalar(32, true);
  l.params.push_back({"m", false, false, -1, mask_pointer()});
  Slot target{"target", false, false, -1, scalar(32, true)};
  target.node.spec.lo = Bound{0, false};
  target.node.spec.hi = Bound{-1, true};
  l.params.push_back(target);
  Slot hops{"hops", false, false, -1, {}};
  hops.node.kind = NodeKind::kArray;
  hops.node.length_param = "nr_hops";
  hops.node.kids.push_back(mask_pointer());
  hops.node.spec.nested = true;
  hops.node.spec.lo = Bound{1, false};
  hops.node.spec.hi = Bound{4, false};
  l.params.push_back(hops);
  l.params.push_back({"nr_hops", false, true, 2, scalar(32, true)});
  return l;
}

std::vector<std::uint64_t> take(const std::vector<std::uint64_t>& v, std::size_t& at, std::size_t n) {
  std::vector<std::uint64_t> out(v.begin() + static_cast<long>(at), v.begin() + static_cast<long>(at + n));
  at += n;
  return out;
}

TEST(FnSpec, ParsesEveryDirective) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("# c\nparam n range 0 nr_cpu_ids-1\nparam hops nested\n"
                         "global g input\nglobal h = -3\nlevel sorted\n",
                         "x.fnspec", &spec, &error))
      << error;
  EXPECT_EQ(spec.params["n"].hi->at(8), 7);
  EXPECT_TRUE(spec.params["hops"].nested);
  EXPECT_TRUE(spec.globals["g"].input);
  EXPECT_EQ(*spec.globals["h"].constant, -3);
  EXPECT_EQ(spec.level, "sorted");
}

TEST(FnSpec, NamesTheBadLine) {
  Spec spec;
  std::string error;
  EXPECT_FALSE(parse_spec("\nparam n range 0\n", "x.fnspec", &spec, &error));
  EXPECT_EQ(error.rfind("x.fnspec:2: ", 0), 0u) << error;
  EXPECT_FALSE(parse_spec("frob\n", "y.fnspec", &spec, &error));
  EXPECT_EQ(error.rfind("y.fnspec:1: unknown directive", 0), 0u) << error;
  EXPECT_FALSE(parse_spec("level fuzzy\n", "z.fnspec", &spec, &error));
}

// A second line about one thing would silently win over the first: it is
// an error naming both lines; kinds that refine one value together are not.
TEST(FnSpec, NamesALineThatRepeatsOrContradictsAnother) {
  const std::pair<const char*, const char*> bad[] = {
      {"param n range 0 3\nparam n range 1 2\n", "x.fnspec:2: `param n range 1 2` conflicts with line 1"},
      {"param s.less less int\nparam s.less cmp int\n", "x.fnspec:2: `param s.less cmp int` conflicts with line 1, `param s.less less int`: a function pointer takes one binding"},
      {"param tl.mask fn node_span\n\nparam tl.mask null\n", "x.fnspec:3: `param tl.mask null` conflicts with line 1"},
      {"param cb range 0 1\nparam cb swap\n", "x.fnspec:2: `param cb swap` conflicts with line 1"},
      {"param cb swap int\nparam cb array 4\n", "x.fnspec:2: `param cb array 4` conflicts with line 1"},
      {"global g input\nglobal g = 3\n", "x.fnspec:2: `global g = 3` conflicts with line 1, `global g input`: say it once"},
      {"stub f input\nstub f = 0\n", "x.fnspec:2: "},
      {"level exact\nlevel sorted\n", "x.fnspec:2: "},
      {"intended return\nintended return\n", "x.fnspec:2: "},
  };
  expect_refused(bad);
  // Different values, or kinds that go together on one value.
  Spec spec;
  std::string error;
  EXPECT_TRUE(parse_spec("param base elements int num=n\nparam base array 4\nparam n range 0 3\n"
                         "param n scratch\nparam m range 0 3\nparam h heap\nparam h range 0 9\n"
                         "global g input\nglobal k = 1\nintended return\nintended *s\n",
                         "x.fnspec", &spec, &error))
      << error;
}

// `param PATH ring FIELD N`, `depth N`, `param PATH null` on a data pointer
// and `global NAME scratch` (docs/fn.md "Spec files").
TEST(FnSpec, RingAndDepthParse) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("param sd.groups ring next 3\ndepth 3\nparam sd.parent null\n"
                         "param sd.groups[].sgc.capacity range 1 1024\n",
                         "x.fnspec", &spec, &error))
      << error;
  EXPECT_EQ(spec.params["sd.groups"].ring, "next");
  EXPECT_EQ(spec.params["sd.groups"].ring_count, 3);
  EXPECT_EQ(spec.depth, 3);
  EXPECT_TRUE(spec.params["sd.parent"].null);
  ASSERT_TRUE(parse_spec("global select_rq_mask scratch\n", "x.fnspec", &spec, &error)) << error;
  EXPECT_TRUE(spec.globals["select_rq_mask"].input);
  EXPECT_TRUE(spec.globals["select_rq_mask"].scratch);
  const std::pair<const char*, const char*> bad[] = {
      {"global m scratch 1\n", "x.fnspec:1: the form is `global NAME input`, `global NAME scratch`"},
      {"global m input\nglobal m scratch\n", "x.fnspec:2: `global m scratch` conflicts with line 1"},
      {"param sd.groups ring next\n", "x.fnspec:1: the form is `param NAME ring FIELD N`"},
      {"param sd.groups ring next 0\n", "x.fnspec:1: the form is `param NAME ring FIELD N`"},
      {"param sd.groups ring next 65\n", "x.fnspec:1: the form is `param NAME ring FIELD N`"},
      {"param sd.groups ring next x\n", "x.fnspec:1: the form is `param NAME ring FIELD N`"},
      {"depth 0\n", "x.fnspec:1: the form is `depth N`"},
      {"depth 5\n", "x.fnspec:1: the form is `depth N`"},
      {"depth\n", "x.fnspec:1: the form is `depth N`"},
      {"depth 2\ndepth 3\n", "x.fnspec:2: `depth 3` conflicts with line 1"},
      {"param g ring next 2\nparam g array 2\n", "x.fnspec:2: `param g array 2` conflicts with line 1"},
      {"param g ring next 2\nparam g ring link 2\n", "x.fnspec:2: "},
      {"param g fn f\nparam g ring next 2\n", "x.fnspec:2: "},
  };
  expect_refused(bad);
}

// `config CONFIG_X [= N]` and `stub NAME` (docs/fn.md "Spec files").
TEST(FnSpec, ConfigParse) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("config CONFIG_NUMA_BALANCING\nconfig CONFIG_NR_CPUS = 64\n"
                         "stub task_numa_compare input\n",
                         "x.fnspec", &spec, &error))
      << error;
  EXPECT_EQ(spec.config["CONFIG_NUMA_BALANCING"], 1);
  EXPECT_EQ(spec.config["CONFIG_NR_CPUS"], 64);
  EXPECT_EQ(spec.stubs.count("task_numa_compare"), 1u);
  const std::pair<const char*, const char*> bad[] = {
      {"config\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config NUMA_BALANCING\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config CONFIG_\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config CONFIG_A-B\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config CONFIG_A = x\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config CONFIG_A 1\n", "x.fnspec:1: the form is `config CONFIG_NAME`"},
      {"config CONFIG_A\nconfig CONFIG_A = 2\n", "x.fnspec:2: `config CONFIG_A = 2` conflicts with line 1"},
  };
  expect_refused(bad);
}

// compatible_binding(): C's compatible types for `param PATH fn NAME`.
TEST(FnBinding, AcceptsWhatCAssignsWithoutACast) {
  auto integer = [](const char* name, unsigned bits, bool is_signed, TypeKind kind = TypeKind::kInteger) {
    CType t;
    t.kind = kind;
    t.canonical = name;
    t.bits = bits;
    t.is_signed = is_signed;
    return t;
  };
  auto pointer_to = [](CType target, bool is_const_target) {
    CType t;
    t.kind = TypeKind::kPointer;
    target.is_const = is_const_target;
    t.canonical = std::string(is_const_target ? "const " : "") + target.canonical + " *";
    t.inner.push_back(std::move(target));
    return t;
  };
  auto function = [](TypeKind kind, std::vector<CType> result_and_params, bool prototyped = true,
                     bool variadic = false) {
    CType t;
    t.kind = kind;
    t.inner = std::move(result_and_params);
    t.prototyped = prototyped;
    t.variadic = variadic;
    return t;
  };
  const CType i32 = integer("int", 32, true), u32 = integer("unsigned int", 32, false);
  const CType i64 = integer("long", 64, true), ll = integer("long long", 64, true);
  const CType kind = integer("enum span_kind", 32, false, TypeKind::kEnum);
  const CType fp = function(TypeKind::kFunctionPointer, {i32, kind});
  EXPECT_TRUE(compatible_binding(fp, function(TypeKind::kFunction, {i32, u32})));   // enum ~ unsigned int
  EXPECT_TRUE(compatible_binding(fp, function(TypeKind::kFunction, {i32, kind})));
  EXPECT_FALSE(compatible_binding(fp, function(TypeKind::kFunction, {i32, i32})));  // the enum is unsigned
  EXPECT_FALSE(compatible_binding(fp, function(TypeKind::kFunction, {i64, kind})));  // result
  EXPECT_FALSE(compatible_binding(fp, function(TypeKind::kFunction, {i32, kind, i32})));
  EXPECT_FALSE(compatible_binding(fp, function(TypeKind::kFunction, {i32, kind}, true, true)));
  // `int (*)()`: any parameters, the same result.
  const CType noproto = function(TypeKind::kFunctionPointer, {i32}, false);
  EXPECT_TRUE(compatible_binding(noproto, function(TypeKind::kFunction, {i32, i64, i32})));
  EXPECT_FALSE(compatible_binding(noproto, function(TypeKind::kFunction, {i64, i32})));
  // long and long long: the same width, not the same type.
  EXPECT_FALSE(compatible_binding(function(TypeKind::kFunctionPointer, {i32, i64}),
                                  function(TypeKind::kFunction, {i32, ll})));
  // A pointer parameter's pointee qualifiers count; the parameter's own do not.
  CType cp = pointer_to(u32, true), p = pointer_to(u32, false);
  EXPECT_FALSE(compatible_binding(function(TypeKind::kFunctionPointer, {i32, cp}),
                                  function(TypeKind::kFunction, {i32, p})));
  CType const_param = i32;
  const_param.is_const = true;
  EXPECT_TRUE(compatible_binding(function(TypeKind::kFunctionPointer, {i32, const_param}),
                                 function(TypeKind::kFunction, {i32, i32})));
  // Only a function pointer binds, and only to a function.
  EXPECT_FALSE(compatible_binding(i32, function(TypeKind::kFunction, {i32})));
  EXPECT_FALSE(compatible_binding(fp, fp));
}

TEST(FnCpuList, PrintsRangesAcrossWords) {
  EXPECT_EQ(cpu_list({0xF, 0x1}, 128), "0-3,64");
  EXPECT_EQ(cpu_list({0x0}, 64), "");
  EXPECT_EQ(cpu_list({~0ULL, 0x1}, 65), "0-64");
  EXPECT_EQ(cpu_list({0x5}, 2), "0");  // bits at or past nr_bits are not CPUs
}

TEST(FnGenerate, TheSameSeedGivesTheSameInputs) {
  const Layout l = mask_layout();
  std::mt19937_64 a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 50; ++i) {
    const Input x = generate_input(l, a, 0), y = generate_input(l, b, 0), z = generate_input(l, c, 0);
    EXPECT_EQ(x.nr_cpu_ids, y.nr_cpu_ids);
    EXPECT_EQ(x.values, y.values);
    differs |= x.values != z.values;
  }
  EXPECT_TRUE(differs);
}

TEST(FnGenerate, MasksStayBelowNrCpuIdsDomainsHoldAndNestedMasksNest) {
  const Layout l = mask_layout();
  std::mt19937_64 rng(1);
  for (int i = 0; i < 300; ++i) {
    const Input in = generate_input(l, rng, 0);
    const unsigned n = in.nr_cpu_ids;
    const std::size_t words = (n + 63) / 64;
    std::size_t at = 0;
    auto check_mask = [&](const std::vector<std::uint64_t>& w) {
      if (n % 64 != 0) {
        EXPECT_EQ(w.back() >> (n % 64), 0u) << "a bit at or past nr_cpu_ids " << n;
      }
    };
    check_mask(take(in.values, at, words));
    const auto target = static_cast<std::int64_t>(in.values[at++]);
    EXPECT_GE(target, 0);
    EXPECT_LT(target, n);
    const std::uint64_t count = in.values[at++];
    EXPECT_GE(count, 1u);
    EXPECT_LE(count, 4u);
    std::vector<std::uint64_t> prev;
    for (std::uint64_t h = 0; h < count; ++h) {
      const auto w = take(in.values, at, words);
      check_mask(w);
      for (std::size_t k = 0; k < prev.size(); ++k) EXPECT_EQ(w[k] & prev[k], prev[k]);
      prev = w;
    }
    EXPECT_EQ(at, in.values.size());
  }
}

TEST(FnGenerate, NrCpusFixesNrCpuIds) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(generate_input(mask_layout(), rng, 8192).nr_cpu_ids, 8192u);
}

// sort(struct { int key; int id; } *a, int n): the records of one call.
TEST(FnLevels, ArraysCompareAsMultisetsOrByKey) {
  Layout l;
  l.result_void = true;
  Node elem;
  elem.kind = NodeKind::kStruct;
  elem.c_type = "struct kv";
  elem.kids = {scalar(32, true, "key"), scalar(32, true, "id")};
  Slot a{"a", false, false, -1, {}};
  a.node.kind = NodeKind::kArray;
  a.node.length_param = "n";
  a.node.kids.push_back(elem);
  l.params = {a, {"n", false, true, 0, scalar(32, true)}};
  auto obs = [](json out) {
    Observation o;
    o.run = true;
    o.record = {{"k", 0}, {"out", json::array({out})}, {"glob", json::array()}, {"warn", 0}};
    return o;
  };
  const Observation sorted = obs(json::parse("[[1,10],[1,11],[2,12]]"));
  const Observation ties = obs(json::parse("[[1,11],[1,10],[2,12]]"));
  const Observation unsorted = obs(json::parse("[[2,12],[1,11],[1,10]]"));
  EXPECT_TRUE(equal_at(l, sorted, sorted, FnLevel::kExact));
  EXPECT_FALSE(equal_at(l, sorted, ties, FnLevel::kExact));
  EXPECT_TRUE(equal_at(l, sorted, ties, FnLevel::kSorted));
  EXPECT_TRUE(equal_at(l, sorted, ties, FnLevel::kMultiset));
  EXPECT_FALSE(equal_at(l, sorted, unsorted, FnLevel::kSorted));
  EXPECT_TRUE(equal_at(l, sorted, unsorted, FnLevel::kMultiset));
  const Observation other = obs(json::parse("[[1,10],[1,11],[3,12]]"));
  EXPECT_FALSE(equal_at(l, sorted, other, FnLevel::kMultiset));
  Observation fault;
  fault.run = fault.fault = true;
  EXPECT_FALSE(equal_at(l, fault, fault, FnLevel::kMultiset));  // both faulting is a finding
}

// int f(struct s { int key; int scratch; } *s): the spec's scratch field is
// never compared, its intended rows only when asked, the cost never.
TEST(FnLevels, ScratchIsNeverComparedIntendedRowsOnlyWhenAskedCostNever) {
  Layout l;
  l.result = scalar(32, true);
  Node st;
  st.kind = NodeKind::kStruct;
  st.c_type = "struct s";
  st.kids = {scalar(32, true, "key"), scalar(32, true, "scratch")};
  st.kids[1].spec.scratch = true;
  Node p;
  p.kind = NodeKind::kPointer;
  p.kids.push_back(st);
  l.params = {{"s", false, false, -1, p}};
  l.intended = {"return"};
  EXPECT_EQ(observation_rows(l), (std::vector<std::string>{"return", "*s", "WARN_ON"}));
  auto obs = [](int ret, int key, int scratch, int cost) {
    Observation o;
    o.run = true;
    o.record = {{"k", 0}, {"ret", ret}, {"out", json::array({json::array({key, scratch})})},
                {"cost", cost}, {"glob", json::array()}, {"warn", 0}};
    return o;
  };
  EXPECT_TRUE(equal_at(l, obs(1, 2, 3, 4), obs(1, 2, 99, 400), FnLevel::kExact));   // scratch, cost
  EXPECT_FALSE(equal_at(l, obs(1, 2, 3, 4), obs(1, 5, 3, 4), FnLevel::kExact));     // the key
  EXPECT_FALSE(equal_at(l, obs(1, 2, 3, 4), obs(7, 2, 3, 4), FnLevel::kExact));     // the result...
  EXPECT_TRUE(equal_at(l, obs(1, 2, 3, 4), obs(7, 2, 3, 4), FnLevel::kExact, true)); // ...is intended
  EXPECT_FALSE(equal_at(l, obs(1, 2, 3, 4), obs(7, 5, 3, 4), FnLevel::kExact, true));
}

TEST(FnSpec, IntendedAndScratchParse) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("param s.cpus scratch\nintended return\nintended *s\n", "x.fnspec", &spec, &error))
      << error;
  EXPECT_TRUE(spec.params["s.cpus"].scratch);
  EXPECT_EQ(spec.intended, (std::set<std::string>{"return", "*s"}));
  EXPECT_FALSE(parse_spec("intended\n", "x.fnspec", &spec, &error));
  EXPECT_EQ(error, "x.fnspec:1: the form is `intended ROW` (return, *PARAM, GLOBAL, calls or WARN_ON)");
}

// `stub NAME input` and `stub NAME = VALUE` (docs/fn.md "Stubs").
TEST(FnSpec, StubLinesParse) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("stub peek_level input\nstub level_lookup = 0\nstub hint = -3\n",
                         "x.fnspec", &spec, &error))
      << error;
  EXPECT_FALSE(spec.stubs["peek_level"].constant.has_value());
  EXPECT_EQ(spec.stubs["level_lookup"].constant, 0);
  EXPECT_EQ(spec.stubs["hint"].constant, -3);
  EXPECT_FALSE(parse_spec("stub hint = many\n", "x.fnspec", &spec, &error));
  EXPECT_EQ(error, "x.fnspec:1: the form is `stub NAME input` or `stub NAME = INTEGER` (a pointer: 0, NULL)");
}

TEST(FnSpec, ElementsAndCallbacksParse) {
  Spec spec;
  std::string error;
  ASSERT_TRUE(parse_spec("param base elements unsigned long tagged num=num size=size\n"
                         "param cmp cmp int tagged\nparam swp swap u32\nparam sw swap\n"
                         "param dflt null\nparam h.data elements int size=8\n",
                         "x.fnspec", &spec, &error))
      << error;
  EXPECT_EQ(spec.params["base"].elements, "unsigned long tagged");
  EXPECT_EQ(spec.params["base"].elements_num, "num");
  EXPECT_EQ(spec.params["base"].elements_size, "size");
  EXPECT_EQ(spec.params["cmp"].cmp, "int tagged");
  EXPECT_TRUE(spec.params["swp"].swap);
  EXPECT_EQ(spec.params["swp"].swap_type, "u32");
  EXPECT_EQ(spec.params["sw"].swap_type, "");
  EXPECT_TRUE(spec.params["dflt"].null);
  EXPECT_EQ(spec.params["h.data"].elements_size_value, 8);
  EXPECT_FALSE(parse_spec("param b elements int frob=3\n", "x.fnspec", &spec, &error));
  EXPECT_EQ(error, "x.fnspec:1: the form is `param NAME elements TYPE [num=NAME] [size=NAME|N]`");
}

TEST(FnElements, TypesAndTheirSizes) {
  ElemType e;
  ASSERT_TRUE(parse_elem_type("int", &e));
  EXPECT_EQ(e.size(), 4);
  EXPECT_EQ(e.c_type(), "int");
  ASSERT_TRUE(parse_elem_type("unsigned long tagged", &e));
  EXPECT_EQ(e.size(), 16);  // { unsigned long key; unsigned int tag; }
  EXPECT_EQ(e.c_type(), "struct fnh_tagged_unsigned_long");
  ASSERT_TRUE(parse_elem_type("u8 tagged", &e));
  EXPECT_EQ(e.size(), 8);   // { u8 key; (3 bytes) unsigned int tag; }
  ASSERT_TRUE(parse_elem_type("int tagged", &e));
  EXPECT_EQ(e.size(), 8);
  EXPECT_EQ(elem_key_expr(e, "p"), "((const struct fnh_tagged_int *)(p))->key");
  EXPECT_FALSE(parse_elem_type("struct cpu_load", &e));
  EXPECT_FALSE(parse_elem_type("tagged", &e));
}

TEST(FnHarness, SourceIsKernelCWithNoIncludeButTheShimsAbi) {
  const std::string c = harness_source(mask_layout(), "f");
  EXPECT_NE(c.find("fnh_arg0, fnh_arg1, fnh_arg2, fnh_arg3"), std::string::npos);
  std::size_t includes = 0;
  for (std::size_t at = c.find("#include"); at != std::string::npos; at = c.find("#include", at + 1))
    ++includes;
  EXPECT_EQ(includes, 1u);
  EXPECT_NE(c.find("#include <kcheck_abi.h>"), std::string::npos);
}

}  // namespace
}  // namespace diffsched::fn
