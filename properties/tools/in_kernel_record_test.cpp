// kernel-check --in-kernel's result record (issue 22): a run counts only when
// the driver's D line carries this run's token and counts what the parsed
// trace holds. A D line a candidate printed (no token, or an old one), a
// record that counts more or fewer ops than arrived, or none at all is not a
// completed run.
#include <gtest/gtest.h>

#include "kcheck/in_kernel_internal.h"

namespace diffsched::tools::in_kernel_detail {
namespace {

const char* kTwoOps = "KC P 0 4\nKC S 0 1 r=- n=1\nKC S 0 2 r=- n=0\n";

TEST(InKernelRecord, TheDriversRecordWithTheTokenCompletesTheRun) {
  RunResult r = parse_output(std::string(kTwoOps) + "KC D 1 2 abc123\n", false);
  EXPECT_EQ(check_record(&r, "abc123"), "");
  EXPECT_TRUE(r.done);
}

TEST(InKernelRecord, ARecordWithoutThisRunsTokenIsNotOne) {
  for (const char* forged : {"KC D\n", "KC D 1 2\n", "KC D 1 2 -\n", "KC D 1 2 deadbeef\n"}) {
    RunResult r = parse_output(std::string(kTwoOps) + forged, false);
    EXPECT_NE(check_record(&r, "abc123"), "") << forged;
    EXPECT_FALSE(r.done) << forged;
  }
}

TEST(InKernelRecord, ARecordThatCountsOtherWorkThanArrivedIsRefused) {
  for (const char* wrong : {"KC D 1 3 abc123\n", "KC D 2 2 abc123\n", "KC D 0 0 abc123\n"}) {
    RunResult r = parse_output(std::string(kTwoOps) + wrong, false);
    EXPECT_NE(check_record(&r, "abc123"), "") << wrong;
    EXPECT_FALSE(r.done) << wrong;
  }
}

TEST(InKernelRecord, NoRecordAtAllIsSaid) {
  RunResult r = parse_output(kTwoOps, false);
  EXPECT_EQ(check_record(&r, "abc123"), "no result record (the driver's D line)");
  EXPECT_FALSE(r.done);
}

TEST(InKernelRecord, TheGuestsConsoleTimestampsAreRead) {
  RunResult r = parse_output(
      "[    2.1] KC P 0 4\n[    2.2] KC S 0 1 r=- n=1\n[    2.3] random: crng init done\n"
      "[    2.4] KC S 0 2 r=- n=0\n[    2.5] KC D 1 2 t0k\n", true);
  EXPECT_EQ(check_record(&r, "t0k"), "");
}

TEST(InKernelRecord, TokensDiffer) {
  EXPECT_NE(new_record_token(), new_record_token());
  EXPECT_EQ(with_record_request("P 0 4 0\nE\n", "x"), "P 0 4 0\nE\nQ x\n");
}

}  // namespace
}  // namespace diffsched::tools::in_kernel_detail
