// diffsched fn --exhaustive without a compiler (src/fn/exhaustive.h): the
// count is exact (small domains counted by hand), the inputs are that many,
// in the documented order, each in the domain, and the refusal names the count.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fn/exhaustive.h"
#include "fn/minimize.h"

namespace diffsched::fn {
namespace {

Node int_node(unsigned bits, bool is_signed) {
  Node n;
  n.kind = NodeKind::kScalar;
  n.bits = bits;
  n.is_signed = is_signed;
  n.c_type = is_signed ? "int" : "unsigned int";
  return n;
}

Node mask_ptr() {
  Node m;
  m.kind = NodeKind::kMask;
  m.c_type = "struct cpumask";
  Node p;
  p.kind = NodeKind::kPointer;
  p.c_type = "struct cpumask *";
  p.kids.push_back(m);
  return p;
}

Layout masks(int how_many) {
  Layout l;
  l.function = "f";
  l.result = int_node(32, true);
  for (int k = 0; k < how_many; ++k) l.params.push_back({"m" + std::to_string(k), false, false, -1, mask_ptr()});
  return l;
}

unsigned __int128 total(const Layout& l, const Bounds& b) {
  const Count c = exhaustive_count(l, b);
  EXPECT_FALSE(c.saturated);
  return c.total;
}

TEST(FnExhaustive, ThreeMasksAreCountedAndEnumeratedInOrder) {
  const Layout l = masks(3);
  Bounds b;
  b.max_nr_cpus = 3;
  EXPECT_EQ(total(l, b), 8u + 64u + 512u);  // (2^n)^3 at n = 1, 2, 3
  const std::vector<Input> all = exhaustive_inputs(l, b);
  ASSERT_EQ(all.size(), 584u);
  EXPECT_EQ(all[0].nr_cpu_ids, 1u);
  EXPECT_EQ(all[0].values, (std::vector<std::uint64_t>{0, 0, 0}));
  EXPECT_EQ(all[1].values, (std::vector<std::uint64_t>{0, 0, 1}));  // the last slot fastest
  EXPECT_EQ(all[2].values, (std::vector<std::uint64_t>{0, 1, 0}));
  EXPECT_EQ(all[8].nr_cpu_ids, 2u);
  EXPECT_EQ(all.back().nr_cpu_ids, 3u);
  EXPECT_EQ(all.back().values, (std::vector<std::uint64_t>{7, 7, 7}));
  std::set<std::string> seen;
  for (const Input& in : all) {
    EXPECT_TRUE(in_domain(l, in)) << show_input(l, in);
    seen.insert(show_input(l, in));
  }
  EXPECT_EQ(seen.size(), all.size());  // no input twice
  b.only_nr_cpus = 2;  // --nr-cpus 2
  EXPECT_EQ(total(l, b), 64u);
}

TEST(FnExhaustive, ScalarsAreTheIntRangeWithinTheTypeAndTheSpec) {
  Layout l;
  l.function = "g";
  l.result = int_node(32, true);
  l.params.push_back({"a", false, false, -1, int_node(32, true)});   // -2..3: 6
  l.params.push_back({"u", false, false, -1, int_node(8, false)});   // 0..3: 4
  Node cpu = int_node(32, true);                                     // 0..nr_cpu_ids-1
  cpu.spec.lo = Bound{0};
  cpu.spec.hi = Bound{-1, true};
  l.params.push_back({"cpu", false, false, -1, cpu});
  Node far = int_node(32, true);  // the spec's 100..200 misses -2..3: its nearest end
  far.spec.lo = Bound{100};
  far.spec.hi = Bound{200};
  l.params.push_back({"far", false, false, -1, far});
  Bounds b;
  b.max_nr_cpus = 5;
  EXPECT_EQ(total(l, b), 6u * 4u * (1u + 2u + 3u + 4u + 4u));  // cpu: n values, at most 0..3
  const std::vector<Input> all = exhaustive_inputs(l, b);
  ASSERT_EQ(all.size(), 6u * 4u * 14u);
  EXPECT_EQ(all[0].values, (std::vector<std::uint64_t>{static_cast<std::uint64_t>(-2), 0, 0, 100}));
  for (const Input& in : all) EXPECT_TRUE(in_domain(l, in)) << show_input(l, in);
  ASSERT_TRUE(parse_int_range("0..0", &b, nullptr));
  EXPECT_EQ(total(l, b), 5u);
}

TEST(FnExhaustive, ArraysByLengthAndNestedMasksOnlyNested) {
  Layout l;
  l.function = "h";
  l.result = int_node(32, true);
  Node arr;
  arr.kind = NodeKind::kArray;
  arr.c_type = "unsigned int *";
  arr.length_param = "n";
  arr.kids.push_back(int_node(32, false));
  l.params.push_back({"a", false, false, -1, arr});
  l.params.push_back({"n", false, true, 0, int_node(32, true)});
  Bounds b;
  b.max_nr_cpus = 1;
  ASSERT_TRUE(parse_int_range("0..1", &b, nullptr));
  EXPECT_EQ(total(l, b), 1u + 2u + 4u);  // lengths 0, 1, 2 of elements 0..1
  const std::vector<Input> all = exhaustive_inputs(l, b);
  ASSERT_EQ(all.size(), 7u);
  EXPECT_EQ(all[0].values, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(all[1].values, (std::vector<std::uint64_t>{1, 0}));
  EXPECT_EQ(all[6].values, (std::vector<std::uint64_t>{2, 1, 1}));

  Layout hops = masks(0);
  Node nested;
  nested.kind = NodeKind::kArray;
  nested.count = 2;
  nested.spec.nested = true;
  nested.kids.push_back(mask_ptr().kids[0]);
  hops.params.push_back({"hops", false, false, -1, nested});
  b.max_nr_cpus = 2;
  EXPECT_EQ(total(hops, b), 3u + 9u);  // each CPU enters at level 0, 1 or never: 3^n
  const std::vector<Input> chains = exhaustive_inputs(hops, b);
  ASSERT_EQ(chains.size(), 12u);
  for (const Input& in : chains) EXPECT_EQ(in.values[0] & ~in.values[1], 0u) << show_input(hops, in);
}

TEST(FnExhaustive, TheRefusalNamesTheCountAndAFlag) {
  const Layout l = masks(3);
  Bounds b;
  b.max_nr_cpus = 8;
  b.max_inputs = 1000;
  const Count c = exhaustive_count(l, b);
  EXPECT_EQ(c.text(), "19173960");  // sum of 8^n for n = 1..8
  const std::string line = too_many_line(l, b, c);
  EXPECT_NE(line.find("19173960 inputs"), std::string::npos) << line;
  EXPECT_NE(line.find("--max-nr-cpus 7"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  b.max_nr_cpus = 200;
  EXPECT_TRUE(exhaustive_count(l, b).saturated);
}

TEST(FnExhaustive, BadIntRanges) {
  Bounds b;
  std::string error;
  for (const char* bad : {"", "3", "3..-2", "a..b", "1..", "..1", "1...2", "-2..3x"})
    EXPECT_FALSE(parse_int_range(bad, &b, &error)) << bad;
  EXPECT_NE(error.find("LO..HI"), std::string::npos);
  ASSERT_TRUE(parse_int_range("-5..-1", &b, &error));
  EXPECT_EQ(b.int_lo, -5);
  EXPECT_EQ(b.int_hi, -1);
}

}  // namespace
}  // namespace diffsched::fn
