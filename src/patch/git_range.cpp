// patch::git_range_diff: a commit range of a git tree as one plain diff (apply.h).
#include <system_error>

#include <fmt/format.h>

#include "patch/apply.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::patch {

namespace {

std::string git_first_line(const std::string& text) {
  std::string t = text.substr(0, text.find('\n'));
  return t.size() > 160 ? t.substr(0, 160) + "..." : t;
}

// git ARGS in `dir`, its output (stdout and stderr) in `log`; the exit status.
int git(const fs::path& dir, std::vector<std::string> args, const fs::path& log, double deadline) {
  args.insert(args.begin(), {"git", "-C", dir.string()});
  return tools::run({.argv = args, .log = log, .deadline = deadline, .stdin_null = true});
}

std::string git_trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::string git_range_diff(const fs::path& dir, const std::string& range, const fs::path& out,
                           fs::path* top, std::string* base, double deadline) {
  const std::size_t dots = range.find("..");
  if (dots == std::string::npos || dots == 0 || range.find("...") != std::string::npos)
    return fmt::format("--git {}: give a range A..B (B may be left out for HEAD)", range);
  const std::string from = range.substr(0, dots);
  const std::string to = range.size() == dots + 2 ? "HEAD" : range.substr(dots + 2);
  const fs::path log = out.string() + ".git.log";
  if (git(dir, {"rev-parse", "--show-toplevel"}, log, deadline) != 0)
    return fmt::format("--git {}: {} is not in a git work tree ({})", range, dir.string(),
                       git_first_line(util::read_text(log)));
  *top = git_trimmed(util::read_text(log));
  std::string commits[2];
  for (int i = 0; i < 2; ++i) {
    const std::string& rev = i == 0 ? from : to;
    if (git(*top, {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}, log,
            deadline) != 0)
      return fmt::format("--git {}: `{}` is not a commit of the git tree {}", range, rev, top->string());
    commits[i] = git_trimmed(util::read_text(log));
  }
  *base = commits[0];
  if (git(*top, {"-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames",
                 "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--output=" + out.string(),
                 commits[0], commits[1], "--"},
          log, deadline) != 0)
    return fmt::format("--git {}: git diff failed: {}", range, git_first_line(util::read_text(log)));
  std::error_code ec;
  if (fs::file_size(out, ec) == 0 || ec)
    return fmt::format("--git {}: the range changes nothing ({} and {} have the same files)", range,
                       from, to);
  return {};
}

}  // namespace diffsched::patch
