// campaign/afl_stats.h on fuzzer_stats texts as AFL++ 4.04c and 3.x write them.
#include <gtest/gtest.h>

#include "campaign/afl_stats.h"

namespace diffsched::campaign {
namespace {

constexpr const char* kAfl404 =
    "start_time        : 1764481200\n"
    "last_update       : 1764481210\n"
    "run_time          : 10\n"
    "fuzzer_pid        : 4242\n"
    "execs_done        : 123456\n"
    "execs_per_sec     : 12345.67\n"
    "corpus_count      : 57\n"
    "stability         : 100.00%\n"
    "bitmap_cvg        : 0.42%\n"
    "saved_crashes     : 3\n"
    "saved_hangs       : 0\n"
    "edges_found       : 275\n"
    "total_edges       : 65536\n"
    "command_line      : afl-fuzz -i in -o out -- ./cpudl_exact\n";

TEST(AflStats, ReadsTheFieldsAflPlusPlus4Writes) {
  std::string error;
  auto s = parse_afl_stats(kAfl404, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->execs_done, 123456u);
  EXPECT_DOUBLE_EQ(s->execs_per_sec, 12345.67);
  EXPECT_EQ(s->corpus_count, 57u);
  EXPECT_EQ(s->saved_crashes, 3u);
  EXPECT_EQ(s->edges_found, 275u);
  EXPECT_EQ(s->total_edges, 65536u);
  EXPECT_EQ(s->run_time, 10u);
  EXPECT_EQ(s->fuzzer_pid, 4242u);
}

TEST(AflStats, AcceptsTheOlderNames) {
  std::string error;
  auto s = parse_afl_stats(
      "execs_done : 5\nexecs_per_sec : 1.5\npaths_total : 2\nunique_crashes : 1\n"
      "edges_found : 9\n",
      &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->corpus_count, 2u);
  EXPECT_EQ(s->saved_crashes, 1u);
}

TEST(AflStats, NamesAMissingOrBrokenField) {
  std::string error;
  EXPECT_FALSE(parse_afl_stats("execs_done : 5\n", &error));
  EXPECT_NE(error.find("no execs_per_sec"), std::string::npos);
  EXPECT_FALSE(parse_afl_stats("execs_done : lots\n", &error));
  EXPECT_NE(error.find("execs_done is not a number"), std::string::npos);
  EXPECT_FALSE(read_afl_stats("/nonexistent/fuzzer_stats", &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace diffsched::campaign
