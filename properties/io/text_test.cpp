// The .ops text form: values and programs print and parse back the same,
// and bad input is refused with a line number and a reason.
#include <gtest/gtest.h>

#include "io/load.h"
#include "io/program.h"
#include "io/text.h"

namespace diffsched::io {
namespace {

TEST(OpsText, ValuesPrintReadably) {
  kernel::NrCpuIdsScope scope(256);
  EXPECT_EQ(format_value(kernel::u64{100}), "100");
  EXPECT_EQ(format_value(kernel::u64{1} << 63), "0x8000000000000000");
  EXPECT_EQ(format_value(kernel::Cpumask{}), "none");
  cpudl::Op op = cpudl::Set{3, 7};
  EXPECT_EQ(format_op(op), "set 3 7");
}

TEST(OpsText, ProgramsRoundTrip) {
  constexpr std::string_view kText =
      "subject cpudl\ncpus 70\nlevel exact\nset 3 0xffffffffffffffff\nclear 3\n"
      "clear_online 4 0\nset_freecpu 5\nclear_freecpu 5\nfind 7 0-3,64,69\n"
      "find_nomask 0x100000000 none\n";
  std::string error;
  auto p = parse_program(kText, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(format_program(*p), kText);

  constexpr std::string_view kPick =
      "subject pick\ncpus 130\npick dst=0-3,64 cpus=0-127 allowed=64-70,129\n";
  p = parse_program(kPick, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(format_program(*p), kPick);
}

TEST(OpsText, SubjectIsInferredAndPositionalOrNamedArgsWork) {
  std::string error;
  auto p = parse_program("pick 0-3 1-2 dst=2\n", &error);
  EXPECT_FALSE(p);
  EXPECT_EQ(error, "line 1: 'pick' argument 3 is 'allowed', got 'dst'");
  p = parse_program("pick 0-3 1-2 2\n", &error);
  ASSERT_TRUE(p) << error;
  EXPECT_TRUE(std::holds_alternative<Program<pick::Subject>>(*p));
}

TEST(OpsText, BadInputIsRefusedWithLineAndReason) {
  std::string error;
  EXPECT_FALSE(parse_program("cpus 4\nset 1\n", &error));
  EXPECT_EQ(error, "line 2: 'set' takes 2 arguments, got 1");
  EXPECT_FALSE(parse_program("cpus 4\nset 4 1\n", &error));
  EXPECT_EQ(error, "line 2: 'set' argument 'cpu': CPU 4 is out of range (nr_cpu_ids is 4)");
  EXPECT_FALSE(parse_program("frob 1\n", &error));
  EXPECT_EQ(error, "line 1: unknown op 'frob' and no 'subject' line");
  EXPECT_FALSE(parse_program("subject cpudl\nfrob 1\n", &error));
  EXPECT_EQ(error,
            "line 2: unknown op 'frob' (known: set, clear, clear_online, set_freecpu, "
            "clear_freecpu, find, find_nomask, find_cap, cpu_down, cpu_up)");
  EXPECT_FALSE(parse_program("# nothing\n", &error));
  EXPECT_EQ(error, "no ops and no 'subject' line");
  EXPECT_FALSE(parse_program("cpus 0\n", &error));
  EXPECT_FALSE(parse_program("set 1 2\ncpus 4\n", &error));
  EXPECT_EQ(error, "line 2: 'cpus' must come before the first op");
  EXPECT_FALSE(parse_program("level fuzzy\n", &error));
  EXPECT_FALSE(parse_program("cpus 4\nset 1 99999999999999999999\n", &error));
  EXPECT_EQ(error, "line 2: 'set' argument 'dl': '99999999999999999999' is out of range");
}

// The inputs fuzz target's property (io::check_loading) on hand-made inputs:
// valid text, every error class, binary and raw forms.
TEST(Inputs, LoadingGivesAProgramOrOneLineErrorAndRoundTrips) {
  const std::string long_word(100000, '7');
  const std::vector<std::string> inputs = {
      "cpus 4\nset 0 1\nfind 5 0-3\n",
      "\xEF\xBB\xBFsubject pick\r\ncpus 65\r\npick dst=64 cpus=0-64 allowed=64\r\n",
      "# expect: exact cpudl:divergence:exact:slot.cpu:set\ncpus 2\nset 0 5\nset 1 5\n",
      "cpus 4\ncpus 4\n",
      "subject pick\nlevel deadline\n",
      "cpus 4\nset 0 " + long_word + "\n",
      std::string("cpus 4\nset 0 1\0", 15),
      "DSCH\x01\x01\x02",
      "DSCH\x01\x00\x00\x01\x00\x00\x05",
      "",
      "\x01\x02\x03\xff",
  };
  for (const auto& s : inputs) {
    const auto v = diffsched::io::check_loading(
        {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
    EXPECT_FALSE(v.finding) << v.finding->describe();
  }
}

TEST(Inputs, HeaderErrorsNameTheirLine) {
  std::string error;
  EXPECT_FALSE(parse_program("cpus 4\nsubject cpudl\ncpus 5\nset 0 1\n", &error));
  EXPECT_EQ(error, "line 3: a second 'cpus' line (the first is line 1)");
  EXPECT_FALSE(parse_program("level deadline\nsubject cpumask\n", &error));
  EXPECT_EQ(error,
            "line 1: level deadline means nothing for subject cpumask (its levels: exact)");
  EXPECT_FALSE(parse_program("cpus 4\nset 0 1\n# expect: deadline equivalent\n", &error));
  EXPECT_EQ(error, "line 3: '# expect:' lines must come before the first op");
  EXPECT_FALSE(parse_program("# expect: deadline cpudl:divergence:exact:slot.cpu:frob\nset 0 1\n",
                             &error));
  EXPECT_NE(error.find("line 1: signature"), std::string::npos) << error;
  EXPECT_FALSE(parse_program("cpus 4\nset 0 " + std::string(5000, '9') + "\n", &error));
  EXPECT_LT(error.size(), 120u) << error;
  ASSERT_TRUE(parse_program("\xEF\xBB\xBF" "cpus 4\r\nset 0 1\r\n", &error)) << error;
}

}  // namespace
}  // namespace diffsched::io
