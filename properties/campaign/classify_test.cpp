// campaign/classify.h and util.h: signatures from in-process replay and from
// (fake) fuzz binaries, re-runs (flaky or real), variant folding, the
// sanitizer SUMMARY and shell quoting helpers.
#include <gtest/gtest.h>

#include "campaign/classify.h"
#include "campaign/fake_programs.h"
#include "campaign/util.h"
#include "subjects/cpudl/lockstep.h"
#include "io/binary.h"

namespace diffsched::campaign {
namespace {

using testing::TempDir;
using testing::write_script;
using testing::write_text;

const FuzzTarget& target(std::string_view name) { return *find_target(name); }

// Two sets with equal deadlines: a divergence at the exact level only.
std::string tie_bytes() {
  io::Program<cpudl::Subject> p;
  p.config = {2};
  p.ops = {cpudl::Set{1, 0}, cpudl::Set{0, 0}};
  const auto body = io::encode_body(io::AnyProgram(p));
  return std::string(body.begin(), body.end());
}

TEST(CampaignUtil, SanitizerSummary) {
  EXPECT_EQ(sanitizer_summary_signature(
                "SUMMARY: AddressSanitizer: heap-buffer-overflow heap.c:12 in cpudl_set"),
            "sanitizer:AddressSanitizer:heap-buffer-overflow:cpudl_set");
  EXPECT_EQ(sanitizer_summary_signature("SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior "
                                        "heap.c:3:9"),
            "sanitizer:UndefinedBehaviorSanitizer:undefined-behavior:heap.c:3:9");
  EXPECT_EQ(sanitizer_summary_signature("summary: no"), std::nullopt);
  EXPECT_EQ(sanitizer_summary_signature("==1==ERROR: AddressSanitizer"), std::nullopt);
}

TEST(CampaignUtil, ShellQuoteAndTrim) {
  EXPECT_EQ(shell_quote("out/findings/cpudl-1.ops"), "out/findings/cpudl-1.ops");
  EXPECT_EQ(shell_quote("a b"), "'a b'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("id:000,sig:06"), "id:000,sig:06");  // "," is safe in sh
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(trim(" \t x y \r\n"), "x y");
  EXPECT_EQ(trim("   "), "");
}

TEST(CampaignClassify, ReplaySignatureInProcess) {
  TempDir dir("classify");
  write_text(dir / "tie", tie_bytes());
  write_text(dir / "empty", "");
  const std::string sig = replay_signature(target("cpudl_exact"), dir / "tie");
  EXPECT_TRUE(sig.starts_with("cpudl:divergence:exact:")) << sig;
  EXPECT_EQ(replay_signature(target("cpudl"), dir / "tie"), "");  // deadline level: a tie passes
  EXPECT_EQ(replay_signature(target("cpudl"), dir / "empty"), "");
  EXPECT_EQ(replay_signature(target("cpudl"), dir / "missing"), "");
}

TEST(CampaignClassify, TheFuzzBinarysVerdict) {
  TempDir dir("classify");
  write_text(dir / "input", "x");
  auto verdict = [&](const std::string& script) {
    return run_binary_on(write_script(dir / "fuzzer", script), dir / "input", dir / "log");
  };
  BinaryVerdict v = verdict("echo '  signature cpudl:divergence:exact:slot.cpu:set'; exit 1");
  EXPECT_TRUE(v.failed);
  EXPECT_EQ(v.signature, "cpudl:divergence:exact:slot.cpu:set");
  v = verdict("echo 'SUMMARY: AddressSanitizer: SEGV heap.c:3 in f' >&2; exit 1");
  EXPECT_EQ(v.signature, "sanitizer:AddressSanitizer:SEGV:f");
  v = verdict("exit 3");
  EXPECT_TRUE(v.failed);
  EXPECT_EQ(v.signature, "crash:exit-3");
  v = verdict("test \"$1\" = -runs=1 && test -f \"$2\"");  // how it is run
  EXPECT_FALSE(v.failed);
  EXPECT_EQ(v.signature, "");
}

TEST(CampaignClassify, GroupsBySignature) {
  TempDir dir("classify");
  write_text(dir / "tie-1", tie_bytes());
  write_text(dir / "tie-2", tie_bytes());
  write_text(dir / "asan", "a");
  write_text(dir / "nothing", "n");
  // The binary only runs on files that replay clean; it "finds" a sanitizer
  // report on one and nothing on the other.
  write_script(dir / "fuzz" / "cpudl_exact",
               "echo \"$2\" >>" + (dir / "ran").string() +
                   "\ncase \"$2\" in *asan) echo 'SUMMARY: AddressSanitizer: SEGV x.c:1 in f'; "
                   "exit 1;; esac\nexit 0");
  const FuzzTarget* t = &target("cpudl_exact");
  const auto groups = classify({{t, dir / "tie-1", 1}, {t, dir / "asan", 1},
                                {t, dir / "tie-2", 1}, {t, dir / "nothing", 1}},
                               dir / "fuzz", dir / "classify.log");
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups.count("cpudl:sanitizer:AddressSanitizer:SEGV:f"), 1u);
  EXPECT_EQ(groups.count("cpudl:no-repro"), 1u);
  std::size_t ties = 0;
  for (const auto& [sig, files] : groups)
    if (sig.starts_with("cpudl:divergence:exact:")) ties = files.size();
  EXPECT_EQ(ties, 2u);
  const std::string ran = testing::read_all(dir / "ran");
  EXPECT_EQ(ran.find("tie-"), std::string::npos) << ran;  // replayed in-process only
}

TEST(CampaignClassify, RerunsCountFailuresWithTheSameSignature) {
  TempDir dir("classify");
  write_text(dir / "crash", "c");
  write_text(dir / "count", "0");
  // Fails with the signature on every other run: flaky.
  const auto fuzzer = write_script(
      dir / "cpudl", "n=$(cat " + (dir / "count").string() + "); echo $((n+1)) >" +
                         (dir / "count").string() +
                         "\nif [ $((n % 2)) = 0 ]; then echo '  signature cpudl:x:y:z:set'; exit 1; fi");
  const Crash rep{&target("cpudl"), dir / "crash", 1};
  UniqueFinding u;
  rerun(fuzzer, rep, "cpudl:x:y:z:set", 4, dir / "log", &u);
  EXPECT_EQ(u.reruns, 4u);
  EXPECT_EQ(u.rerun_failures, 2u);
  // An unqualified signature gets the subject; another signature is no failure.
  write_script(dir / "other", "echo '  signature x:y:z:set'; exit 1");
  UniqueFinding w;
  rerun(dir / "other", rep, "cpudl:x:y:z:set", 3, dir / "log", &w);
  EXPECT_EQ(w.rerun_failures, 3u);
  UniqueFinding d;
  rerun(dir / "other", rep, "cpudl:a:b:c:set", 3, dir / "log", &d);
  EXPECT_EQ(d.rerun_failures, 0u);
}

UniqueFinding finding(std::string sig, std::size_t ops, FindingStatus status = FindingStatus::kNew) {
  UniqueFinding f;
  f.target = "cpudl";
  f.signature = std::move(sig);
  f.minimized_ops = ops;
  f.status = status;
  f.duplicates = 1;
  return f;
}

TEST(CampaignClassify, FoldsOpKindVariantsIntoTheShortest) {
  std::vector<UniqueFinding> fs = {
      finding("cpudl:invariant:idx:slot.idx:set", 5),
      finding("cpudl:invariant:idx:slot.idx:clear", 3),
      finding("cpudl:invariant:heap-order:slot.dl:set", 4),
      finding("cpudl:invariant:idx:slot.idx:clear_online", 3, FindingStatus::kAccepted)};
  fold_variants(&fs);
  ASSERT_EQ(fs.size(), 3u);
  EXPECT_EQ(fs[0].signature, "cpudl:invariant:idx:slot.idx:clear");
  ASSERT_EQ(fs[0].variants.size(), 1u);
  EXPECT_EQ(fs[0].variants[0].signature, "cpudl:invariant:idx:slot.idx:set");
  EXPECT_TRUE(fs[1].variants.empty());
  EXPECT_EQ(fs[2].status, FindingStatus::kAccepted);  // accepted ones never fold into failing
  std::vector<UniqueFinding> none;
  fold_variants(&none);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace diffsched::campaign
