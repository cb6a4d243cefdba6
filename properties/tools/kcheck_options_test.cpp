// kernel-check's options, defined once (src/kcheck/options.h): the
// harness's checked parsing of its arguments (a misspelt or malformed one is
// an error, never a default), and the round trips harness_args ->
// parse_harness_args and replay_command -> the CLI (CLI11) for every option.
#include <gtest/gtest.h>

#include <map>

#include "cli/commands.h"
#include "kcheck/session.h"
#include "kcheck/options.h"

namespace diffsched::tools {
namespace {

// Every option's text form, by name, for those with any of `uses`.
std::map<std::string, std::string> texts(const KernelCheckOptions& o, unsigned uses) {
  std::map<std::string, std::string> out;
  for_each_option(o, [&](const OptionSpec& spec, const auto& field) {
    if ((spec.uses & uses) && applies_to(spec, *o.tool))
      out[std::string(spec.name)] = option_text(field);
  });
  return out;
}

// A value for each field that differs from its default and passes its checks.
// A value its check accepts (every option with a check is named here).
void set_non_default(const OptionSpec& spec, std::string& f) {
  if (!spec.choices.empty()) {
    for (auto c : spec.choices)
      if (c != f && !c.empty()) f = std::string(c);
  } else if (spec.name == "capacity") {
    f = "1024,512,256";
  } else if (spec.name == "kernel-version") {
    f = "6.14";
  } else {
    f = std::string("/tmp/kcheck-test-") + std::string(spec.name);
  }
}
void set_non_default(const OptionSpec&, bool& f) { f = !f; }
void set_non_default(const OptionSpec&, const SubjectTool*&) {}  // all_set() chooses it
void set_non_default(const OptionSpec& spec, unsigned& f) {
  f = std::isinf(spec.max) ? f + 7 : static_cast<unsigned>(spec.max) - 1;
}
void set_non_default(const OptionSpec&, std::size_t& f) { f += 11; }
void set_non_default(const OptionSpec&, double& f) { f += 2.5; }
void set_non_default(const OptionSpec& spec, std::vector<unsigned>& f) {
  f = {3, 5, std::isinf(spec.max) ? 130u : static_cast<unsigned>(spec.max) - 1};
}

KernelCheckOptions all_set(const std::string& subject, unsigned uses) {
  KernelCheckOptions o;
  o.tool = find_subject_tool(subject);
  for_each_option(o, [&](const OptionSpec& spec, auto& field) {
    if ((spec.uses & uses) && spec.name != "subject") set_non_default(spec, field);
  });
  return o;
}

std::string parse_error(std::vector<std::string> args) {
  KernelCheckOptions o;
  std::vector<std::string> rest;
  std::string error;
  EXPECT_FALSE(parse_harness_args(args, &o, &rest, &error)) << args.front();
  return error;
}

TEST(KcheckHarnessArgs, MisspeltOrMalformedArgumentsAreErrorsNotDefaults) {
  EXPECT_EQ(parse_error({"--candiate=x.so"}), "unknown argument '--candiate=x.so'");
  EXPECT_EQ(parse_error({"--runs=12x"}), "--runs '12x': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--runs=-1"}), "--runs '-1': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--runs="}), "--runs '': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--runs"}), "--runs needs a value (--runs=VALUE)");
  EXPECT_EQ(parse_error({"--runs= 5"}), "--runs ' 5': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--runs=99999999999"}), "--runs '99999999999': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--hang-seconds=0"}), "--hang-seconds '0': not in 1..3600");
  EXPECT_EQ(parse_error({"--task-util=1025"}), "--task-util '1025': not in 0..1024");
  EXPECT_EQ(parse_error({"--minimize-seconds=nan"}), "--minimize-seconds 'nan': not a number");
  EXPECT_EQ(parse_error({"--minimize-seconds=-1"}), "--minimize-seconds '-1': must be at least 0");
  EXPECT_EQ(parse_error({"--level=exactly"}), "--level 'exactly': one of exact, deadline");
  EXPECT_EQ(parse_error({"--mode=fuzzz"}),
            "--mode 'fuzzz': one of fuzz, load, replay, minimize, check, alloc, race");
  EXPECT_EQ(parse_error({"--subject=cpumask"}), "--subject 'cpumask': one of cpudl, pick");
  EXPECT_NE(parse_error({"--capacity=1024,0"}).find("'0' is not a capacity"), std::string::npos);
  EXPECT_NE(parse_error({"--capacity=1024,,512"}).find("'' is not a capacity"), std::string::npos);
  EXPECT_EQ(parse_error({"--nr-cpus=3,,5"}), "--nr-cpus '': not a whole number >= 0");
  EXPECT_EQ(parse_error({"--nr-cpus=0"}), "--nr-cpus '0': not in 1..8192");
  EXPECT_EQ(parse_error({"--raw=yes"}), "--raw 'yes': a flag: 1 or 0");
  // Options of the CLI alone are not the harness's.
  EXPECT_EQ(parse_error({"--work-dir=/tmp"}), "unknown argument '--work-dir=/tmp'");
  EXPECT_EQ(parse_error({"--time=5"}), "unknown argument '--time=5'");
  // An error after good arguments is still an error.
  EXPECT_EQ(parse_error({"--runs=5", "--sed=3"}), "unknown argument '--sed=3'");
}

// --changes (how a kernel file's side learns what an op changed): hook or
// copy, passed to the harness only when not the default (copy).
TEST(KcheckHarnessArgs, ChangesIsHookOrCopyAndReachesTheHarness) {
  EXPECT_EQ(parse_error({"--changes=both"}), "--changes 'both': one of copy, hook");
  KernelCheckOptions o;
  o.changes = "hook";
  EXPECT_EQ(harness_args(o), std::vector<std::string>{"--changes=hook"});
  KernelCheckOptions back;
  std::vector<std::string> rest;
  std::string error;
  ASSERT_TRUE(parse_harness_args(harness_args(o), &back, &rest, &error)) << error;
  EXPECT_EQ(back.changes, "hook");
}

TEST(KcheckHarnessArgs, LibFuzzerFlagsAndCorpusDirectoriesPassThrough) {
  KernelCheckOptions o;
  std::vector<std::string> rest;
  std::string error;
  ASSERT_TRUE(parse_harness_args({"--candidate=c.so", "-max_total_time=5", "corpus", "--raw"}, &o,
                                 &rest, &error))
      << error;
  EXPECT_EQ(o.candidate, "c.so");
  EXPECT_TRUE(o.raw);
  EXPECT_EQ(rest, (std::vector<std::string>{"-max_total_time=5", "corpus"}));
}

TEST(KcheckHarnessArgs, EveryHarnessOptionRoundTrips) {
  for (const char* subject : {"cpudl", "pick"}) {
    const KernelCheckOptions o = all_set(subject, kHarness);
    const std::vector<std::string> args = harness_args(o);
    KernelCheckOptions back;
    std::vector<std::string> rest;
    std::string error;
    ASSERT_TRUE(parse_harness_args(args, &back, &rest, &error)) << error;
    EXPECT_TRUE(rest.empty());
    EXPECT_EQ(texts(back, kHarness), texts(o, kHarness)) << subject;
  }
  // Defaults are left out, and still arrive.
  EXPECT_TRUE(harness_args(KernelCheckOptions{}).empty());
}

// Parses the replay command's words with the CLI's own options.
KernelCheckOptions parse_replay(const std::vector<std::string>& words) {
  CLI::App app;
  auto* kc = app.add_subcommand("kernel-check");
  KernelCheckOptions back;
  back.tool = find_subject_tool(words.at(1));
  cli::add_kernel_check_options(kc->add_subcommand(words.at(1)), back);
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  app.parse(reversed);  // CLI11 takes the arguments last first
  return back;
}

TEST(KcheckReplayCommand, EveryReplayedOptionRoundTripsThroughTheCli) {
  for (const char* subject : {"cpudl", "pick"}) {
    for (bool raw : {false, true}) {
      KernelCheckOptions o = all_set(subject, kReplay | kReplayRawOnly);
      o.candidate = "/tmp/kcheck-test-candidate.c";
      const std::vector<std::string> words = replay_args(o, "/tmp/min 1.ops", raw);
      ASSERT_EQ(words.front(), "kernel-check");
      const KernelCheckOptions back = parse_replay(words);
      const unsigned uses = kReplay | (raw ? kReplayRawOnly : 0u);
      EXPECT_EQ(texts(back, uses), texts(o, uses)) << subject << " raw " << raw;
      EXPECT_EQ(back.replay, "/tmp/min 1.ops");
      EXPECT_EQ(back.raw, raw);
      // Every replayed option was set away from its default, so each is in
      // the command (a new kReplay option is covered without a new test).
      for (const auto& [name, text] : texts(o, uses))
        EXPECT_NE(std::find(words.begin(), words.end(), "--" + name), words.end()) << name;
    }
  }
}

// Another mode's kernel-check command line (mutate's) comes from the table:
// it parses back through the CLI's own options to the same values, leaves
// out what is at its default, and never passes a subject an option it does
// not have.
TEST(KcheckCliArgs, AnotherModesCommandRoundTripsThroughTheCli) {
  for (const char* subject : {"cpudl", "pick"}) {
    KernelCheckOptions o;
    o.tool = find_subject_tool(subject);
    o.candidate = "/tmp/mutant 1.c";
    o.time = 2.5;
    o.runs = 300;
    o.seed = 7;
    o.hang_seconds = 3;
    o.minimize_seconds = 1;
    o.minimize_tries = 1;
    o.work_dir = "/tmp/m/work";
    o.verdict_json = "/tmp/m/work.verdict.json";
    o.no_build = true;
    if (o.tool->shape == CandidateShape::kHeapApi) {
      o.fail_alloc = true;
      o.find_returns = "0/1";
      o.capacity = "1024,512";
      o.baseline = "/tmp/original.c";
      o.exhaustive = {3, 2, 2};
    } else {
      o.function = "pick_it";
      o.api = "v4.9";  // a heap-only option: never passed to pick
      o.exhaustive = {4};
    }
    const std::vector<std::string> words = cli_args(o);
    ASSERT_GE(words.size(), 2u);
    EXPECT_EQ(words[0], "kernel-check");
    EXPECT_EQ(words[1], subject);
    const KernelCheckOptions back = parse_replay(words);
    EXPECT_EQ(texts(back, kCli), texts(o, kCli)) << subject;
    EXPECT_EQ(std::find(words.begin(), words.end(), "--level"), words.end()) << "a default";
    if (o.tool->shape == CandidateShape::kFunction) {
      EXPECT_EQ(std::find(words.begin(), words.end(), "--api"), words.end());
    }
  }
  KernelCheckOptions d;
  d.candidate = "/tmp/x.c";
  EXPECT_EQ(cli_args(d), (std::vector<std::string>{"kernel-check", "cpudl", "--candidate", "/tmp/x.c"}));
}

TEST(KcheckReplayCommand, QuotesWordsTheShellWouldSplit) {
  KernelCheckOptions o;
  o.candidate = "/tmp/my file's.c";
  const std::string cmd = kcheck::replay_command(o, "/tmp/min.ops");
  EXPECT_NE(cmd.find(" kernel-check cpudl --candidate '/tmp/my file'\\''s.c' --replay /tmp/min.ops"),
            std::string::npos)
      << cmd;
}

}  // namespace
}  // namespace diffsched::tools
