// kernel-check's build cache (src/kcheck/build_cache.h): keys change with
// every input and only with them; a module's cached .ko is refused once a
// file kbuild read outside its directory changed; eviction keeps the newest.
#include <fstream>

#include <gtest/gtest.h>

#include "kcheck/build_cache.h"
#include "util/text.h"

namespace diffsched::tools {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

struct BuildCacheTest : ::testing::Test {
  fs::path root;
  void SetUp() override {
    char tmpl[] = "/tmp/diffsched-build-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root = tmpl;
  }
  void TearDown() override { fs::remove_all(root); }
};

TEST_F(BuildCacheTest, TheKeyIgnoresOnlyTheStagingDirectory) {
  const fs::path cc = "/bin/sh";
  const std::vector<std::string> argv = {"cc", "-iquote", "/w/a/stage", "-DX=1", "-o",
                                         "/w/a/stage/c.so"};
  const std::string k = BuildCache::key(cc, argv, "# 1 \"/w/a/stage/c.c\"\nint x;", "/w/a/stage");
  EXPECT_EQ(k.size(), 40u);
  // Another run's stage: the same key.
  EXPECT_EQ(k, BuildCache::key(cc, {"cc", "-iquote", "/w/b/stage", "-DX=1", "-o", "/w/b/stage/c.so"},
                               "# 1 \"/w/b/stage/c.c\"\nint x;", "/w/b/stage"));
  // A flag, the preprocessed text or the compiler: another key.
  EXPECT_NE(k, BuildCache::key(cc, {"cc", "-iquote", "/w/a/stage", "-DX=2", "-o", "/w/a/stage/c.so"},
                               "# 1 \"/w/a/stage/c.c\"\nint x;", "/w/a/stage"));
  EXPECT_NE(k, BuildCache::key(cc, argv, "# 1 \"/w/a/stage/c.c\"\nint y;", "/w/a/stage"));
  EXPECT_NE(k, BuildCache::key("/bin/true", argv, "# 1 \"/w/a/stage/c.c\"\nint x;", "/w/a/stage"));
  // No two splits of the same bytes give one key.
  EXPECT_NE(BuildCache::key(cc, {"ab", "c"}, "", "/s"), BuildCache::key(cc, {"a", "bc"}, "", "/s"));
}

TEST_F(BuildCacheTest, AHitGivesTheSameBytesAndTheLogInTheNewStage) {
  const BuildCache cache{root / "cache"};
  write(root / "a/c.so", "ELF-ish bytes\n");
  const std::string key(40, 'a');
  std::string log;
  EXPECT_FALSE(cache.fetch(key, root / "b/c.so", "/b", &log));
  cache.store(key, root / "a/c.so", (root / "a").string(), "warning in " + (root / "a").string() + "/c.c\n");
  fs::create_directories(root / "b");
  ASSERT_TRUE(cache.fetch(key, root / "b/c.so", (root / "b").string(), &log));
  EXPECT_EQ(util::read_text(root / "b/c.so"), "ELF-ish bytes\n");
  EXPECT_EQ(log, "warning in " + (root / "b").string() + "/c.c\n");
  EXPECT_FALSE(BuildCache{}.fetch(key, root / "b/c.so", "/b", &log)) << "a cache that is off";
}

TEST_F(BuildCacheTest, AModuleIsRefusedOnceAFileKbuildReadChanged) {
  const BuildCache cache{root / "cache"};
  const fs::path mod = root / "kmod", outside = root / "inc/skew.h";
  write(mod / "candidate.c", "#include \"" + outside.string() + "\"\n");
  write(outside, "#define SKEW 0\n");
  const std::string key = BuildCache::module_key(mod, "/usr/src");
  // What kbuild leaves: the .ko and a .cmd file naming what it read.
  write(mod / ".candidate.o.cmd", "deps_" + (mod / "candidate.o").string() + " := \\\n  " +
                                      outside.string() + " \\\n  " + (mod / "candidate.c").string() +
                                      " \\\n    $(wildcard include/config/X) \\\n\n");
  write(mod / "kcheck.ko", "module bytes");
  cache.store_module(key, mod, mod / "kcheck.ko");
  const fs::path ko = root / "out.ko";
  EXPECT_TRUE(cache.fetch_module(key, ko));
  EXPECT_EQ(util::read_text(ko), "module bytes");
  write(outside, "#define SKEW 1\n");
  EXPECT_FALSE(cache.fetch_module(key, ko)) << "a header read by absolute path changed";
  // A staged file is the key itself; the directory's own path is not.
  fs::remove(mod / ".candidate.o.cmd");
  fs::remove(mod / "kcheck.ko");
  const std::string same = BuildCache::module_key(mod, "/usr/src");
  EXPECT_EQ(same, key);
  write(mod / "glue.c", "int g;\n");
  EXPECT_NE(BuildCache::module_key(mod, "/usr/src"), key);
  EXPECT_NE(BuildCache::module_key(mod, "/usr/src/other"), BuildCache::module_key(mod, "/usr/src"));
}

TEST_F(BuildCacheTest, TheOldestEntriesGoFirst) {
  BuildCache cache{root / "cache"};
  cache.max_entries = 3;
  write(root / "x.so", "x");
  for (int i = 0; i < 5; ++i) {
    cache.store(std::string(40, static_cast<char>('a' + i)), root / "x.so", "/s", "");
    // Distinct times, oldest first.
    fs::last_write_time(cache.dir / (std::string(40, static_cast<char>('a' + i)) + ".so"),
                        fs::file_time_type::clock::now() - std::chrono::hours(10 - i));
  }
  std::string log;
  EXPECT_FALSE(cache.fetch(std::string(40, 'a'), root / "y.so", "/s", &log));
  EXPECT_TRUE(cache.fetch(std::string(40, 'e'), root / "y.so", "/s", &log));
  int so = 0;
  for (const auto& e : fs::directory_iterator(cache.dir)) so += e.path().extension() == ".so";
  EXPECT_LE(so, 4);
}

}  // namespace
}  // namespace diffsched::tools
