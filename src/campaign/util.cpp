#include "campaign/util.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

namespace diffsched::campaign {

std::vector<fs::path> regular_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  // Never throws: an entry that cannot be stat'ed (a symlink loop, a
  // dangling link) is not a regular file, and is skipped.
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code st;
    if (it->is_regular_file(st) && !st && it->path().filename().string()[0] != '.')
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::vector<std::uint8_t>> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string relative_or_absolute(const fs::path& p) {
  std::error_code ec;
  const fs::path rel = fs::relative(p, fs::current_path(), ec);
  if (!ec && !rel.empty() && !rel.string().starts_with("..")) return rel.string();
  const fs::path abs = fs::absolute(p, ec);
  return (ec ? p : abs).string();
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string mmss(double s) {
  const long v = std::max(0L, static_cast<long>(s + 0.5));
  return fmt::format("{}:{:02}", v / 60, v % 60);
}

}  // namespace diffsched::campaign
