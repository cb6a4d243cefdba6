// Fake programs for the campaign's unit tests: small shell scripts that stand
// in for fuzz binaries and engines, in a fresh temporary directory per test.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace diffsched::campaign::testing {

// A fresh directory under the temp dir, removed when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int n = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("diffsched-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Writes an executable /bin/sh script `body` at `file`.
inline std::filesystem::path write_script(const std::filesystem::path& file,
                                          const std::string& body) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(file, std::filesystem::perms::owner_all);
  return file;
}

inline void write_text(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

inline std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace diffsched::campaign::testing
