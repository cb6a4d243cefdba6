// A content-addressed cache of candidate builds (build_candidate(),
// kcheck/build.cpp), so that checking, replaying or minimising the same file
// again does not compile it again.
//
// The key is what the compile reads, as ccache's preprocessor mode takes it:
// the compiler (its resolved path, size and time), the compile's argv, and
// the preprocessed text of every source on that command line, so a header
// the candidate includes from anywhere is part of the key. The staging
// directory, which differs from run to run, is written as @STAGE@ in both.
// Only builds that succeeded are kept: a failing build runs again and prints
// its own messages.
//
//   const BuildCache cache = BuildCache::resolve();      // DIFFSCHED_BUILD_CACHE
//   if (cache.fetch(key, so_path, &log)) ...              // a hit: the .so copied there
//   cache.store(key, so_path, log);                       // after a good compile
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::tools {

struct BuildCache {
  std::filesystem::path dir;  // empty: no cache
  std::size_t max_entries = 256;

  // DIFFSCHED_BUILD_CACHE: "off" (or "0") turns the cache off, a directory
  // names it; unset, it is the fuzz preset's kcheck-cache/ (FuzzBuild).
  static BuildCache resolve();
  bool enabled() const { return !dir.empty(); }

  // The key (40 hex digits) of a compile: the compiler's identity, its argv
  // and the preprocessed sources, with `stage` written as @STAGE@.
  static std::string key(const std::filesystem::path& compiler,
                         const std::vector<std::string>& argv, std::string_view preprocessed,
                         const std::string& stage);

  // A hit copies the cached shared object to `so` and returns the compile's
  // log (its @STAGE@ put back as `stage`); false on a miss or any error.
  bool fetch(const std::string& key, const std::filesystem::path& so, const std::string& stage,
             std::string* log) const;
  // Keeps a good build (atomically: a concurrent reader never sees half a
  // file) and drops the oldest entries beyond max_entries. Errors are
  // ignored: the cache only ever saves work.
  void store(const std::string& key, const std::filesystem::path& so, const std::string& stage,
             const std::string& log) const;

  // --in-kernel's module (kbuild, in_kernel_module.cpp), in ccache's direct
  // mode: the key is every file of the module's directory (its path written
  // as @MOD@) and the kernel headers' directory; a hit also needs every file
  // kbuild read outside that directory (the deps of its .cmd files: the
  // kernel's headers, a header the candidate includes by absolute path) to
  // be as it was when the module was built.
  // A program built from the source tree's own files only (--in-kernel's
  // shim twin): the key is its argv and every file under `dirs`.
  static std::string tree_key(const std::vector<std::string>& argv,
                              const std::vector<std::filesystem::path>& dirs);
  bool fetch_file(const std::string& key, const std::filesystem::path& to) const;
  void store_file(const std::string& key, const std::filesystem::path& from) const;

  static std::string module_key(const std::filesystem::path& mod,
                                const std::filesystem::path& headers);
  bool fetch_module(const std::string& key, const std::filesystem::path& ko) const;
  void store_module(const std::string& key, const std::filesystem::path& mod,
                    const std::filesystem::path& ko) const;
};

// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, std::string_view from, std::string_view to);

}  // namespace diffsched::tools
