// diffsched fn's minimiser and one-call text form, without a compiler
// (src/fn/minimize.h): the text form reads back what it printed, every
// shrink candidate is smaller and in the domain, the domain check catches
// each way an input leaves it, and a finding's signature names its kind.
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fn/minimize.h"
#include "fn/sides.h"
#include "test_nodes.h"

namespace diffsched::fn {
namespace {

using nlohmann::json;

using namespace test_nodes;

// f(struct env { struct cpumask *m; int cpu; bool on; } *env, int target,
//   const struct cpumask *const *hops, int nr_hops, struct rec { int key; int id; } *a, int n)
// with target in 0..nr_cpu_ids-1, hops nested (1..4), a a heap.
Layout layout() {
  Layout l;
  l.function = "f";
  l.result = scalar(32, true);
  Node env;
  env.kind = NodeKind::kStruct;
  env.c_type = "struct env";
  env.kids.push_back(pointer_to(mask()));
  env.kids.back().field = "m";
  env.kids.push_back(scalar(32, true, "cpu"));
  Node on = scalar(8, false, "on");
  on.is_bool = true;
  on.c_type = "bool";
  env.kids.push_back(on);
  l.params.push_back({"env", false, false, -1, pointer_to(env)});
  Slot target{"target", false, false, -1, scalar(32, true)};
  target.node.spec.lo = Bound{0, false};
  target.node.spec.hi = Bound{-1, true};
  l.params.push_back(target);
  Slot hops{"hops", false, false, -1, {}};
  hops.node.kind = NodeKind::kArray;
  hops.node.length_param = "nr_hops";
  hops.node.kids.push_back(pointer_to(mask()));
  hops.node.spec.nested = true;
  hops.node.spec.lo = Bound{1, false};
  hops.node.spec.hi = Bound{4, false};
  l.params.push_back(hops);
  l.params.push_back({"nr_hops", false, true, 2, scalar(32, true)});
  Node rec;
  rec.kind = NodeKind::kStruct;
  rec.c_type = "struct rec";
  rec.kids = {scalar(32, true, "key"), scalar(32, true, "id")};
  Slot a{"a", false, false, -1, {}};
  a.node.kind = NodeKind::kArray;
  a.node.length_param = "n";
  a.node.kids.push_back(rec);
  a.node.spec.heap = true;
  l.params.push_back(a);
  l.params.push_back({"n", false, true, 4, scalar(32, true)});
  return l;
}

TEST(FnInputText, ReadsBackWhatItPrints) {
  const Layout l = layout();
  std::mt19937_64 rng(11);
  for (int i = 0; i < 400; ++i) {
    const Input in = generate_input(l, rng, i % 5 == 0 ? 8192 : 0);
    ASSERT_TRUE(in_domain(l, in)) << show_input(l, in);
    Input back;
    std::string error;
    ASSERT_TRUE(parse_input(l, show_input(l, in), &back, &error)) << error << "\n" << show_input(l, in);
    EXPECT_EQ(back.nr_cpu_ids, in.nr_cpu_ids);
    EXPECT_EQ(back.values, in.values) << show_input(l, in);
  }
}

// fn --fuzz's decoder (decode_input): every byte string, the empty one and
// all-ones included, is an input within the domain that the text form reads
// back, the same bytes always the same input, and the bytes steer it.
TEST(FnDecode, EveryByteStringIsAnInputInTheDomain) {
  const Layout l = layout();
  std::mt19937_64 rng(5);
  std::vector<std::vector<std::uint8_t>> cases = {{}, std::vector<std::uint8_t>(64, 0xff),
                                                  std::vector<std::uint8_t>(9000, 0xff), {0x07}};
  for (int i = 0; i < 400; ++i) {
    std::vector<std::uint8_t> b(rng() % (i % 10 == 0 ? 20000 : 300));
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    cases.push_back(std::move(b));
  }
  std::set<std::string> seen;
  for (const auto& bytes : cases) {
    for (unsigned nr : {0u, 8192u}) {
      const Input in = decode_input(l, bytes, nr);
      ASSERT_TRUE(in_domain(l, in)) << show_input(l, in);
      if (nr) {
        EXPECT_EQ(in.nr_cpu_ids, nr);
      }
      Input back;
      std::string error;
      ASSERT_TRUE(parse_input(l, show_input(l, in), &back, &error)) << error << "\n" << show_input(l, in);
      EXPECT_EQ(back.values, in.values);
      const Input again = decode_input(l, bytes, nr);
      EXPECT_EQ(again.nr_cpu_ids, in.nr_cpu_ids);
      EXPECT_EQ(again.values, in.values);
      seen.insert(show_input(l, in));
    }
  }
  EXPECT_GT(seen.size(), cases.size());  // not a few inputs whatever the bytes
}

TEST(FnInputText, NamesTheInputThatIsWrong) {
  const Layout l = layout();
  const std::string good =
      "nr_cpu_ids=4 env=&{m=&{0,2-3} cpu=-7 on=true} target=3 hops=[&{1}, &{1-2}] (nr_hops = its length) "
      "a=[{key=5 id=0}, {key=1 id=1}, {key=2 id=9}] (n = its length)";
  Input in;
  std::string error;
  ASSERT_TRUE(parse_input(l, good, &in, &error)) << error;
  EXPECT_EQ(show_input(l, in), good);
  struct Bad {
    std::string text, says;
    bool outside;  // parses, but outside the domain: exit 3 (else 2)
  };
  const Bad bad[] = {
      {"env=&{m=&{} cpu=0 on=true}", "nr_cpu_ids=N", false},
      {"nr_cpu_ids=0 env=&{m=&{} cpu=0 on=true}", "nr_cpu_ids=N", false},
      {"nr_cpu_ids=4 env=&{m=&{4} cpu=0 on=true} target=0 hops=[&{}] a=[]",
       "input `env`: column 25: expected CPUs below nr_cpu_ids=4", true},
      {"nr_cpu_ids=4 env=&{m=&{3-1} cpu=0 on=true} target=0 hops=[&{}] a=[]", "`env`", false},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=maybe} target=0 hops=[&{}] a=[]", "`env`", false},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=true} target=4 hops=[&{}] a=[]", "`target` is outside", true},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=true} target=0 hops=[] a=[]", "`hops` is outside", true},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=true} target=0 hops=[&{1}, &{2}] a=[]", "`hops` is outside", true},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=true} target=0 hops=[&{}] a=[{key=0 id=0}, {key=3 id=0}, "
       "{key=2 id=0}]", "`a` is outside", true},  // not a heap below the first
      {"nr_cpu_ids=4 env=&{m=&{} cpu=0 on=true} target=0 hops=[&{}] a=[] extra", "unexpected text", false},
      {"nr_cpu_ids=4 env=&{m=&{} cpu=99999999999999999999 on=true} target=0 hops=[&{}] a=[]", "`env`", false},
  };
  for (const Bad& b : bad) {
    error.clear();
    bool outside = !b.outside;
    EXPECT_FALSE(parse_input(l, b.text, &in, &error, &outside)) << b.text;
    EXPECT_EQ(outside, b.outside) << b.text;
    EXPECT_NE(error.find(b.says), std::string::npos) << b.text << "\n  said: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
}

std::size_t size_of(const Input& in) {
  std::size_t bits = in.nr_cpu_ids;
  for (std::uint64_t v : in.values) bits += static_cast<std::size_t>(std::popcount(v)) + (v != 0);
  return bits + in.values.size();
}

TEST(FnShrink, EveryCandidateIsInTheDomainAndDiffersFromTheInput) {
  const Layout l = layout();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) {
    const Input in = generate_input(l, rng, 0);
    const auto candidates = shrink_candidates(l, in);
    EXPECT_LE(candidates.size(), kMaxShrinkCandidates);
    for (const Input& c : candidates) {
      EXPECT_TRUE(in_domain(l, c)) << show_input(l, c);
      EXPECT_FALSE(c.nr_cpu_ids == in.nr_cpu_ids && c.values == in.values);
      EXPECT_LE(c.nr_cpu_ids, in.nr_cpu_ids);
    }
  }
}

// Following the first candidate that keeps a property ends at the smallest
// input with it, here "some hop mask holds CPU 1": one hop, {1}, at 2 CPUs.
TEST(FnShrink, GreedyShrinkingReachesASmallInput) {
  const Layout l = layout();
  Input in;
  std::string error;
  ASSERT_TRUE(parse_input(l,
                          "nr_cpu_ids=128 env=&{m=&{0-100} cpu=-123456 on=true} target=77 "
                          "hops=[&{1,5}, &{1,5,9-20}, &{0-127}] a=[{key=9 id=4}, {key=1 id=-3}, {key=8 id=7}]",
                          &in, &error))
      << error;
  auto holds = [&](const Input& x) {
    const std::string s = show_input(l, x);
    return s.find("hops=[&{1}") != std::string::npos || s.find("hops=[&{1,") != std::string::npos ||
           s.find("hops=[&{1-") != std::string::npos;
  };
  ASSERT_TRUE(holds(in));
  for (int round = 0; round < 200; ++round) {
    bool smaller = false;
    for (const Input& c : shrink_candidates(l, in))
      if (holds(c)) {
        EXPECT_LT(size_of(c), size_of(in)) << show_input(l, c);
        in = c;
        smaller = true;
        break;
      }
    if (!smaller) break;
  }
  EXPECT_EQ(show_input(l, in),
            "nr_cpu_ids=2 env=&{m=&{} cpu=0 on=false} target=0 hops=[&{1}] (nr_hops = its length) a=[] (n = its length)");
}

// A scalar whose finding holds only beyond a boundary between 0 and it
// (here env.cpu <= -1000, from -123456) reaches the boundary exactly, in
// about log2 of the distance rounds: the steps halve, where halfway-or-one
// crawled one a round (about 900 rounds from -1929).
TEST(FnShrink, AScalarReachesItsBoundaryInLogarithmicRounds) {
  const Layout l = layout();
  Input in;
  std::string error;
  ASSERT_TRUE(parse_input(l, "nr_cpu_ids=2 env=&{m=&{} cpu=-123456 on=false} target=0 hops=[&{1}] a=[]", &in, &error))
      << error;
  auto cpu = [&](const Input& x) {
    const std::string s = show_input(l, x);
    const auto at = s.find("cpu=");
    return std::stoll(s.substr(at + 4));
  };
  int rounds = 0;
  for (bool smaller = true; smaller && rounds < 100;) {
    smaller = false;
    for (const Input& c : shrink_candidates(l, in))
      if (cpu(c) <= -1000) {
        in = c;
        smaller = true;
        ++rounds;
        break;
      }
  }
  EXPECT_EQ(cpu(in), -1000);
  EXPECT_LE(rounds, 2 * 17);  // log2(123456) is 16.9
}

// --search-worst's neighbours: in the domain, none the input itself, at
// most `max`, nr_cpu_ids kept; among them, over many inputs, a longer array
// (the heap `a` grows), and an array whose keys are all equal.
TEST(FnGrow, EveryCandidateIsInTheDomainAndSomeGrowOrTie) {
  const Layout l = layout();
  std::mt19937_64 rng(7);
  bool longer = false, tied = false;
  for (int i = 0; i < 200; ++i) {
    const Input in = generate_input(l, rng, 0);
    const auto candidates = grow_candidates(l, in, rng, 64);
    EXPECT_LE(candidates.size(), 64u);
    const std::string before = show_input(l, in);
    const std::size_t a_at = before.find(" a=[");
    for (const Input& c : candidates) {
      EXPECT_TRUE(in_domain(l, c)) << show_input(l, c);
      EXPECT_NE(c.values, in.values);
      EXPECT_EQ(c.nr_cpu_ids, in.nr_cpu_ids);
      const std::string after = show_input(l, c);
      const auto count = [](const std::string& s, std::size_t from) {
        return std::count(s.begin() + static_cast<std::ptrdiff_t>(from), s.end(), '{');
      };
      longer |= count(after, after.find(" a=[")) > count(before, a_at);
      const std::size_t k = after.find(" a=[{key=");
      if (k != std::string::npos && count(after, k) >= 2) {
        const std::string first = after.substr(k + 9, after.find(' ', k + 9) - (k + 9));
        std::size_t keys = 0, same = 0;
        for (std::size_t at = after.find("{key=", k); at != std::string::npos; at = after.find("{key=", at + 1)) {
          ++keys;
          same += after.compare(at + 5, first.size() + 1, first + " ") == 0;
        }
        tied |= keys >= 2 && keys == same;
      }
    }
  }
  EXPECT_TRUE(longer);
  EXPECT_TRUE(tied);
}

TEST(FnShrink, TheSignatureNamesTheKindOfFinding) {
  Layout l;
  l.result = scalar(32, true);
  Observation a{true, false, "", json{{"ret", 1}, {"warn", 0}}};
  Observation b{true, false, "", json{{"ret", 2}, {"warn", 0}}};
  EXPECT_EQ(finding_signature(l, a, a, FnLevel::kExact), "");
  EXPECT_EQ(finding_signature(l, a, b, FnLevel::kExact), "differs:return");
  Observation w = a;
  w.record["warn"] = 1;
  EXPECT_EQ(finding_signature(l, a, w, FnLevel::kExact), "differs:WARN_ON");
  Observation f{true, true, "AddressSanitizer: heap-buffer-overflow", json()};
  EXPECT_EQ(finding_signature(l, a, f, FnLevel::kExact), "fault:new:AddressSanitizer: heap-buffer-overflow");
  EXPECT_EQ(finding_signature(l, f, a, FnLevel::kExact), "fault:old:AddressSanitizer: heap-buffer-overflow");
  EXPECT_EQ(finding_signature(l, f, f, FnLevel::kExact), "fault:both");
  // A fault's numbers may change while the input shrinks; its kind stays.
  Observation i4{true, true, "UndefinedBehaviorSanitizer: index 4 out of bounds for type 'int [4]'", json()};
  Observation i17 = i4;
  i17.fault_what = "UndefinedBehaviorSanitizer: index 17 out of bounds for type 'int [4]'";
  EXPECT_EQ(finding_signature(l, i4, a, FnLevel::kExact), finding_signature(l, i17, a, FnLevel::kExact));
  EXPECT_EQ(finding_signature(l, i4, a, FnLevel::kExact),
            "fault:old:UndefinedBehaviorSanitizer: index # out of bounds for type 'int [#]'");
  Observation shift = i4;
  shift.fault_what = "UndefinedBehaviorSanitizer: shift exponent 70 is too large for 64-bit type 'unsigned long'";
  EXPECT_NE(finding_signature(l, i4, a, FnLevel::kExact), finding_signature(l, shift, a, FnLevel::kExact));
}

// What a verdict shows of a sanitizer report: the same text for the same
// fault on every run (no addresses, pc or registers), so a finding's
// signature holds while its input shrinks and a replay prints what the run did.
TEST(FnFault, TheSummaryLeavesOutWhatChangesFromRunToRun) {
  auto segv = [](const std::string& address, bool zero_page) {
    return "==123==ERROR: AddressSanitizer: SEGV on unknown address " + address + " (pc 0x55d5c0a1b2c3 bp "
           "0x7ffd1 sp 0x7ffd2 T0)\n==123==The signal is caused by a READ memory access.\n" +
           (zero_page ? "==123==Hint: address points to the zero page.\n" : "") + "    #0 0x55d5 in f old.c:3\n";
  };
  EXPECT_EQ(sanitizer_summary(segv("0x000000000000", true)), "AddressSanitizer: SEGV on a null pointer");
  EXPECT_EQ(sanitizer_summary(segv("0x7f12aa000000", false)), "AddressSanitizer: SEGV");
  EXPECT_EQ(sanitizer_summary(segv("0x7f12aa000000", false)), sanitizer_summary(segv("0x7f99bb000010", false)));
  EXPECT_EQ(sanitizer_summary("==9==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc "
                              "0x4f3 bp 0x7ff sp 0x7fe\nREAD of size 4"),
            "AddressSanitizer: heap-buffer-overflow");
  EXPECT_EQ(sanitizer_summary("==9==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:"),
            "AddressSanitizer: attempting double-free");
  EXPECT_EQ(sanitizer_summary("==9==ERROR: AddressSanitizer: memcpy-param-overlap: memory ranges [0x1,0x9) and "
                              "[0x4, 0xc) overlap"),
            "AddressSanitizer: memcpy-param-overlap");
  EXPECT_EQ(sanitizer_summary("old.c:7:10: runtime error: load of misaligned address 0x55d5c0a1b2c3 for type "
                              "'int', which requires 4 byte alignment"),
            "UndefinedBehaviorSanitizer: load of misaligned address 0x... for type 'int', which requires 4 "
            "byte alignment");
  EXPECT_EQ(sanitizer_summary("old.c:7:10: runtime error: index 4 out of bounds for type 'int [4]'"),
            "UndefinedBehaviorSanitizer: index 4 out of bounds for type 'int [4]'");
  EXPECT_EQ(sanitizer_summary("no report here\n"), "");
}

}  // namespace
}  // namespace diffsched::fn
