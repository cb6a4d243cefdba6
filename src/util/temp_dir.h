// Fresh directories under the temporary directory (std::filesystem::
// temp_directory_path(): TMPDIR, else /tmp), made with mkdtemp.
//
//   const fs::path tmp = util::make_temp_dir("diffsched-bench.XXXXXX");  // empty: failed
//   util::TempDir work("diffsched-fn-XXXXXX");  // removed when it goes
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace diffsched::util {

// temp_directory_path() / name: what mkdtemp() fills in (name ends in XXXXXX).
inline std::filesystem::path temp_template(std::string_view name) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  return ec ? std::filesystem::path() : dir / name;
}

// Makes the directory a template names (its XXXXXX filled in): its path,
// or an empty path if it could not.
inline std::filesystem::path make_dir_from_template(const std::filesystem::path& tmpl) {
  std::string t = tmpl.string();
  return ::mkdtemp(t.data()) ? std::filesystem::path(t) : std::filesystem::path();
}

inline std::filesystem::path make_temp_dir(std::string_view name) {
  return make_dir_from_template(temp_template(name));
}

// make_temp_dir(name), removed with all it holds when it goes (path empty:
// it could not be made).
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(std::string_view name) : path(make_temp_dir(name)) {}
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace diffsched::util
