// `diffsched mutate` classifies a mutant from kernel-check's verdict as data
// (its --verdict-json file, src/mutate/run.cpp classify()), never from the
// log, which holds the mutant's own output (issue 22).
#include <gtest/gtest.h>

#include "engine/exit_status.h"
#include "mutate/run.h"
#include "tools/process.h"

namespace diffsched::mutate {
namespace {

TEST(MutateClassify, AFindingIsKilledByTheCheckTheVerdictNames) {
  const Outcome o = classify(
      kExitFinding,
      R"({"exit": 1, "verdict": "finding", "kind": "invariant", "check_seconds": 0.5,
          "signature": "cpudl:invariant:heap-order:slot.dl:set"})");
  EXPECT_EQ(o.status, Status::kKilled);
  EXPECT_EQ(o.check, "invariant");
  EXPECT_EQ(o.signature, "cpudl:invariant:heap-order:slot.dl:set");
  EXPECT_DOUBLE_EQ(o.seconds, 0.5);
}

TEST(MutateClassify, TheMutantsOwnLinesAreNeverRead) {
  // What a mutant printed before it ended the harness process, given where
  // the verdict file would be: not JSON, so no verdict, never "init" killed.
  const std::string log =
      "kcheck: candidate: cpudl_init() returned -12\n"
      "minimised: 3 ops -> 1 ops, signature cpudl:invariant:heap-order:slot.dl:set\n"
      "verdict: EQUIVALENT at level exact (properties, model oracle; 0.1 s in all)\n"
      "diffsched: error: x.c does not build against the kernel shim: y\n";
  for (int rc : {kExitOk, kExitFinding, kExitBadInput}) {
    const Outcome o = classify(rc, log);
    EXPECT_EQ(o.status, Status::kError) << rc;
    EXPECT_NE(o.check, "init");
    EXPECT_EQ(o.signature, "");
  }
  // The process ended inside an input: a finding of kind "exit", as kernel-check says.
  const Outcome ended = classify(
      kExitFinding, R"({"exit": 1, "verdict": "finding", "kind": "exit", "signature": "",
                        "detail": "the candidate ended the harness process (status 2) ..."})");
  EXPECT_EQ(ended.status, Status::kKilled);
  EXPECT_EQ(ended.check, "exit");
  EXPECT_EQ(ended.signature, "");
}

TEST(MutateClassify, AVerdictThatDisagreesWithTheExitStatusIsAnError) {
  EXPECT_EQ(classify(kExitOk, R"({"exit": 1, "verdict": "finding", "kind": "invariant"})").status,
            Status::kError);
  EXPECT_EQ(classify(kExitFinding, R"({"exit": 1, "verdict": "equivalent"})").status,
            Status::kError);
  EXPECT_EQ(classify(kExitOk, R"({"exit": 0, "verdict": "equivalent", "seconds": 3})").status,
            Status::kSurvived);
}

TEST(MutateClassify, ErrorsByKind) {
  EXPECT_EQ(classify(kExitBadInput, R"({"exit": 2, "verdict": "error", "kind": "build"})").status,
            Status::kCompileError);
  const Outcome init = classify(
      kExitBadInput,
      R"({"exit": 2, "verdict": "error", "kind": "init", "detail": "candidate: cpudl_init() returned -12"})");
  EXPECT_EQ(init.status, Status::kKilled);
  EXPECT_EQ(init.check, "init");
  EXPECT_EQ(classify(kExitBadInput, R"({"exit": 2, "verdict": "error", "kind": "timeout"})").status,
            Status::kTimeout);
  EXPECT_EQ(classify(kExitBadInput, R"({"exit": 2, "verdict": "error", "kind": "error"})").status,
            Status::kError);
  // The watchdog's timeout is tools::run()'s one sentinel; a run that
  // could not start (no verdict file) is an error, never a timeout.
  EXPECT_EQ(classify(tools::kExitTimedOut, "").status, Status::kTimeout);
  EXPECT_EQ(classify(kExitBadInput, "").status, Status::kError);
  EXPECT_EQ(detected_find_returns(R"({"find_returns": "0/1"})"), "0/1");
  EXPECT_EQ(detected_find_returns(R"({"find_returns": "cpu"})"), "cpu");
  EXPECT_EQ(detected_find_returns(R"({"find_returns": ""})"), "");
  EXPECT_EQ(detected_find_returns(R"({"find_returns": "maybe"})"), "");
  EXPECT_EQ(detected_find_returns(R"({"find_returns": 1})"), "");
  // The prose is never read: a form line naming a convention says nothing.
  EXPECT_EQ(detected_find_returns(R"j({"forms": "form of x.c: ..., cpudl_find() returns 0/1 (y)"})j"),
            "");
  EXPECT_EQ(detected_find_returns("cpudl_find() returns 0/1"), "");
}

}  // namespace
}  // namespace diffsched::mutate
