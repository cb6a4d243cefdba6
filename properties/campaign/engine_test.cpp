// campaign/engine.h: both engines' command lines, progress, crash files and
// queues, on fake logs, fake fuzzer_stats and fake output trees; the reasons
// an engine run counts as failed; a fake engine through the interface.
#include <algorithm>

#include <gtest/gtest.h>

#include "campaign/engine.h"
#include "campaign/fake_programs.h"

namespace diffsched::campaign {
namespace {

using testing::TempDir;
using testing::write_text;

bool has(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

struct Fixture {
  TempDir dir{"engine"};
  Layout layout{.out = dir / "out", .corpus = dir / "corpus"};
  TargetLayout t = layout.target("cpudl");
  EngineSettings settings{.fuzz_dir = dir / "fuzz", .afl_dir = dir / "afl-bin",
                          .afl_fuzz = "/usr/bin/afl-fuzz", .jobs = 1};
  Fixture() {
    write_text(dir / "fuzz" / "cpudl.options", "[libfuzzer]\nmax_len = 4096\ndict = cpudl.dict\n");
    prepare_target(t, dir / "no-seeds");
  }
};

TEST(CampaignEngine, MakeEngineKnowsBothNames) {
  EXPECT_EQ(make_engine("libfuzzer", {})->name(), "libfuzzer");
  EXPECT_EQ(make_engine("afl", {})->name(), "afl");
  EXPECT_EQ(make_engine("honggfuzz", {}), nullptr);
}

TEST(CampaignEngine, LibFuzzerArgvForksIgnoresCrashesAndReadsTheOptionsFile) {
  Fixture f;
  f.settings.jobs = 2;
  f.settings.seed = 7;
  const auto commands = make_libfuzzer_engine(f.settings)->commands(f.t, 42);
  ASSERT_EQ(commands.size(), 1u);
  const auto& argv = commands[0].argv;
  EXPECT_EQ(argv.front(), (f.dir / "fuzz" / "cpudl").string());
  for (const char* a : {"-fork=2", "-ignore_crashes=1", "-max_total_time=42", "-seed=7",
                        "-max_len=4096", "-print_final_stats=1"})
    EXPECT_TRUE(has(argv, a)) << a;
  EXPECT_TRUE(has(argv, "-dict=" + (f.dir / "fuzz" / "cpudl.dict").string()));
  EXPECT_TRUE(has(argv, "-artifact_prefix=" + f.t.crashes.string() + "/"));
  // New inputs land in the first directory, found/; the corpus is read.
  EXPECT_EQ(argv[argv.size() - 2], f.t.found.string());
  EXPECT_EQ(argv.back(), f.t.corpus.string());
  EXPECT_EQ(commands[0].log, f.t.log);
  // A self-check target records its accepted class and keeps fuzzing (targets.h).
  const auto env = make_libfuzzer_engine(f.settings)->environment();
  ASSERT_EQ(env.size(), 1u);
  EXPECT_EQ(env[0].first, "DIFFSCHED_RECORD_ACCEPTED");
  EXPECT_EQ(env[0].second, "1");
}

TEST(CampaignEngine, AflArgvOneInstancePerJob) {
  Fixture f;
  f.settings.jobs = 3;
  f.settings.seed = 10;
  const auto commands = make_afl_engine(f.settings)->commands(f.t, 30);
  ASSERT_EQ(commands.size(), 3u);
  const std::vector<std::string> names = {"main", "s1", "s2"};
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& argv = commands[k].argv;
    EXPECT_EQ(argv.front(), "/usr/bin/afl-fuzz");
    EXPECT_TRUE(has(argv, k == 0 ? "-M" : "-S"));
    EXPECT_TRUE(has(argv, names[k]));
    EXPECT_TRUE(has(argv, std::to_string(10 + k)));  // -s seed+k
    EXPECT_TRUE(has(argv, f.t.afl_out.string()));
    EXPECT_TRUE(has(argv, f.t.corpus.string()));
    EXPECT_TRUE(has(argv, (f.dir / "fuzz" / "cpudl.dict").string()));  // -x
    EXPECT_EQ(argv.back(), (f.dir / "afl-bin" / "cpudl").string());
    EXPECT_EQ(argv[argv.size() - 2], "--");
    EXPECT_EQ(commands[k].log, f.t.engine_log(k));
  }
  f.settings.jobs = 1;
  EXPECT_FALSE(has(make_afl_engine(f.settings)->commands(f.t, 30)[0].argv, "-M"));
  const auto env = make_afl_engine(f.settings)->environment();
  EXPECT_NE(std::find(env.begin(), env.end(), std::pair<std::string, std::string>("AFL_NO_UI", "1")),
            env.end());
}

TEST(CampaignEngine, OptionsFileOnlyTheLibFuzzerSection) {
  TempDir dir("engine");
  write_text(dir / "x.options",
             "# comment\n[afl]\ndict = no.dict\n[libfuzzer]\n  max_len = 100  \n\nbad line\n");
  EXPECT_EQ(options_file_args(dir / "x.options", dir.path()),
            std::vector<std::string>{"-max_len=100"});
  EXPECT_TRUE(options_file_args(dir / "missing.options", dir.path()).empty());
}

TEST(CampaignEngine, LibFuzzerLogForkMode) {
  TempDir dir("engine");
  write_text(dir / "log",
             "INFO: Seed: 1234\n"
             "INFO: -fork=2: 52 seed inputs, starting to fuzz in /tmp/x\n"
             "#1000: cov: 300 ft: 500 corp: 52 exec/s 100 oom/timeout/crash: 0/0/1 time: 1s\n"
             "#2500: cov: 310 ft: 520 corp: 53 exec/s 150 oom/timeout/crash: 0/0/2 time: 2s\n"
             "INFO: exiting: 77 time: 3s\n");
  const EngineStatus st = parse_libfuzzer_log(dir / "log");
  EXPECT_TRUE(st.started);
  EXPECT_TRUE(st.finished);
  EXPECT_EQ(st.execs, 2500u);
  EXPECT_EQ(st.coverage, 310u);
  EXPECT_EQ(st.features, 520u);
}

TEST(CampaignEngine, LibFuzzerLogSeedsOnlyAndFinalStats) {
  TempDir dir("engine");
  write_text(dir / "a", "INFO: Seed: 1\nINFO: -fork=2: 52 seed inputs, starting to fuzz in /x\n");
  EXPECT_EQ(parse_libfuzzer_log(dir / "a").execs, 52u);
  EXPECT_FALSE(parse_libfuzzer_log(dir / "a").finished);
  write_text(dir / "b", "INFO: Seed: 1\n#2\tINITED cov: 5 ft: 6\n#9\tDONE cov: 7 ft: 8\n"
                        "stat::number_of_executed_units: 12\n");
  const EngineStatus b = parse_libfuzzer_log(dir / "b");
  EXPECT_EQ(b.execs, 12u);
  EXPECT_EQ(b.coverage, 7u);
  EXPECT_TRUE(b.finished);
  write_text(dir / "c", "Done 10 runs\n");  // "done" without having started is not finished
  EXPECT_FALSE(parse_libfuzzer_log(dir / "c").started);
  EXPECT_FALSE(parse_libfuzzer_log(dir / "c").finished);
  EXPECT_FALSE(parse_libfuzzer_log(dir / "missing").started);
}

std::string stats(unsigned execs, unsigned edges) {
  return "execs_done : " + std::to_string(execs) + "\nexecs_per_sec : 10.5\nedges_found : " +
         std::to_string(edges) + "\ncorpus_count : 3\nsaved_crashes : 0\n";
}

TEST(CampaignEngine, AflStatusAddsUpTheInstances) {
  Fixture f;
  auto afl = make_afl_engine(f.settings);
  EXPECT_FALSE(afl->status(f.t).started);  // no fuzzer_stats yet
  write_text(f.t.afl_out / "main" / "fuzzer_stats", stats(100, 40));
  write_text(f.t.afl_out / "s1" / "fuzzer_stats", stats(50, 45));
  write_text(f.t.afl_out / "s2" / "fuzzer_stats", "garbage\n");  // skipped
  const EngineStatus st = afl->status(f.t);
  EXPECT_TRUE(st.started);
  EXPECT_EQ(st.execs, 150u);
  EXPECT_EQ(st.coverage, 45u);
}

TEST(CampaignEngine, AflCrashesAndQueueAreCollected) {
  Fixture f;
  auto afl = make_afl_engine(f.settings);
  write_text(f.t.afl_out / "main" / "queue" / "id:000000,orig:a", "q0");
  write_text(f.t.afl_out / "s1" / "queue" / "id:000001,src:000", "q1");
  write_text(f.t.afl_out / "main" / "crashes" / "id:000000,sig:06", "c0");
  write_text(f.t.afl_out / "main" / "crashes" / "README.txt", "not a crash");
  EXPECT_EQ(afl->crash_files(f.t).size(), 1u);
  const fs::path queue = afl->collect(f.t);
  EXPECT_EQ(queue, f.t.afl_queue);
  EXPECT_TRUE(fs::exists(queue / "main-id:000000,orig:a"));
  EXPECT_TRUE(fs::exists(queue / "s1-id:000001,src:000"));
  const auto crashes = collected_crash_files(f.t);
  ASSERT_EQ(crashes.size(), 1u);
  EXPECT_EQ(crashes[0].filename(), "afl-main-id:000000,sig:06");
}

TEST(CampaignEngine, LibFuzzerCrashesStayWhereItWritesThem) {
  Fixture f;
  auto lf = make_libfuzzer_engine(f.settings);
  write_text(f.t.crashes / "crash-abc", "x");
  write_text(f.t.crashes / "timeout-def", "x");
  write_text(f.t.crashes / "notes.txt", "x");
  write_text(f.t.found / "new-input", "x");
  EXPECT_EQ(lf->crash_files(f.t).size(), 2u);
  EXPECT_EQ(lf->collect(f.t), f.t.found);
  EXPECT_EQ(collected_crash_files(f.t).size(), 2u);
}

TEST(CampaignEngine, CrashFileNames) {
  for (const char* name : {"crash-1", "timeout-1", "oom-1", "leak-1", "id:000", "afl-main-id:0"})
    EXPECT_TRUE(is_crash_file(name)) << name;
  for (const char* name : {"README.txt", ".state", "slow-unit-1", "corpus-file"})
    EXPECT_FALSE(is_crash_file(name)) << name;
}

TEST(CampaignEngine, FailureReasons) {
  const EngineStatus ran{.execs = 10, .started = true};
  EXPECT_EQ(engine_failure({.rc = 0}, ran), "");
  EXPECT_EQ(engine_failure({.rc = 130, .stopped = true}, ran), "");  // we stopped it
  EXPECT_EQ(engine_failure({.rc = 127, .failed_early = true}, ran), "could not start (exit 127)");
  EXPECT_EQ(engine_failure({.rc = -1}, ran), "could not start (exit -1)");
  EXPECT_EQ(engine_failure({.rc = 1, .failed_early = true}, ran), "exited with status 1");
  // libFuzzer -fork exits with the last ignored crash's status once it is done.
  EXPECT_EQ(engine_failure({.rc = 77, .failed_early = true},
                           {.execs = 52, .started = true, .finished = true}),
            "");
  EXPECT_EQ(engine_failure({.rc = 0}, {}), "did not start (exit 0)");
  EXPECT_EQ(engine_failure({.rc = 0}, {.started = true}), "ran 0 inputs (exit 0)");
}

TEST(CampaignEngine, ErrorLineIsTheFirstThatReadsLikeAnError) {
  TempDir dir("engine");
  write_text(dir / "a", "starting\n\033[1;91m[-] PROGRAM ABORT : \033[0mno input files\r\nlater\n");
  EXPECT_EQ(engine_error_line(dir / "a"), "[-] PROGRAM ABORT : no input files");
  write_text(dir / "b", "one\ntwo\n\n");
  EXPECT_EQ(engine_error_line(dir / "b"), "two");
  write_text(dir / "c", "");
  EXPECT_EQ(engine_error_line(dir / "c"), "the log is empty");
  write_text(dir / "d", "ERROR: " + std::string(1000, 'x') + "\n");
  EXPECT_EQ(engine_error_line(dir / "d").size(), 300u);
}

// Anything that implements Engine drives the same steps: a fake one that
// "finds" an input and a crash, started and supervised like a real one.
class FakeEngine final : public Engine {
 public:
  std::string_view name() const override { return "fake"; }
  std::vector<Command> commands(const TargetLayout& t, long) const override {
    return {{{"/bin/sh", "-c",
              "echo fuzzed >" + (t.dir / "status").string() + "; echo in >" +
                  (t.dir / "fake-queue" / "input-1").string() + "; echo c >" +
                  (t.crashes / "crash-1").string()},
             t.log}};
  }
  std::vector<std::pair<std::string, std::string>> environment() const override { return {}; }
  EngineStatus status(const TargetLayout& t) const override {
    const bool ran = fs::exists(t.dir / "status");
    return {.execs = ran ? 1u : 0u, .started = ran};
  }
  std::vector<fs::path> crash_files(const TargetLayout& t) const override {
    return collected_crash_files(t);
  }
  fs::path collect(const TargetLayout& t) const override { return t.dir / "fake-queue"; }
};

TEST(CampaignEngine, AFakeEngineThroughTheInterface) {
  Fixture f;
  FakeEngine fake;
  const Engine& engine = fake;
  fs::create_directories(f.t.dir / "fake-queue");
  EXPECT_EQ(engine_failure({}, engine.status(f.t)), "did not start (exit 0)");
  const Supervised s =
      supervise(start_processes(engine.commands(f.t, 1), engine.environment()), 1000, {});
  EXPECT_EQ(engine_failure(s, engine.status(f.t)), "");
  EXPECT_EQ(engine.crash_files(f.t).size(), 1u);
  EXPECT_TRUE(fs::exists(engine.collect(f.t) / "input-1"));
}

}  // namespace
}  // namespace diffsched::campaign
