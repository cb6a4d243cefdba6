// patch::parse_patch: mbox, format-patch series, plain diff, pages (patch.h).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "patch/patch.h"

namespace diffsched::patch {

namespace {

// A line quoted in an error: at most 60 characters, printable.
std::string quote(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 60)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (line.size() > 60) out += "...";
  return out;
}

bool starts(std::string_view s, std::string_view prefix) { return s.starts_with(prefix); }

// The text split into lines (LF; a CR before it dropped). O(n).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    at = end + 1;
  }
  return lines;
}

bool is_html(std::string_view text) {
  const std::string_view head = text.substr(0, 4096);
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // Tags, not text such as the "[<prev]" of a page's text rendering.
  for (std::string_view tag : {"<html", "<!doctype html", "<body", "<pre>", "<pre ", "</pre>"})
    if (lower.find(tag) != std::string::npos) return true;
  return false;
}

// "a/kernel/x.c" -> "kernel/x.c"; "/dev/null" -> "". A trailing tab and
// timestamp (diff -u) dropped. nullopt for an unsafe path.
std::optional<std::string> strip_path(std::string_view raw, bool strip_one) {
  if (const auto tab = raw.find('\t'); tab != std::string_view::npos) raw = raw.substr(0, tab);
  while (!raw.empty() && raw.back() == ' ') raw.remove_suffix(1);
  if (raw == "/dev/null") return std::string();
  if (strip_one) {
    const auto slash = raw.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    raw = raw.substr(slash + 1);
  }
  if (raw.empty() || raw.front() == '/') return std::nullopt;
  std::string_view rest = raw;
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (part == ".." || part.empty()) return std::nullopt;
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  return std::string(raw);
}

bool parse_number(std::string_view& s, std::size_t* out) {
  std::size_t n = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p == s.data()) return false;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  *out = n;
  return n <= (std::size_t{1} << 40);  // a line number, not an overflow
}

// "-a[,b] +c[,d] @@ ctx": a count absent is 1.
bool parse_range(std::string_view& s, char sign, std::size_t* start, std::size_t* count) {
  if (s.empty() || s.front() != sign) return false;
  s.remove_prefix(1);
  if (!parse_number(s, start)) return false;
  *count = 1;
  if (!s.empty() && s.front() == ',') {
    s.remove_prefix(1);
    if (!parse_number(s, count)) return false;
  }
  return true;
}

std::optional<Hunk> parse_hunk_header(std::string_view line) {
  Hunk h;
  h.header = std::string(line);
  std::string_view s = line.substr(3);  // after "@@ "
  if (!parse_range(s, '-', &h.old_start, &h.old_count)) return std::nullopt;
  if (s.empty() || s.front() != ' ') return std::nullopt;
  s.remove_prefix(1);
  if (!parse_range(s, '+', &h.new_start, &h.new_count)) return std::nullopt;
  if (!starts(s, " @@")) return std::nullopt;
  s.remove_prefix(3);
  if (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  h.context = std::string(s);
  return h;
}

// Reads the diff part of one message, lines [at, end). Appends to p.files.
class DiffReader {
 public:
  DiffReader(const std::vector<std::string_view>& lines, std::size_t end, bool page)
      : lines_(lines), end_(end), page_(page) {}

  // Reads from `at` on; returns "" or the error.
  std::string read(std::size_t at, Patch* p) {
    while (at < end_) {
      const std::string_view l = lines_[at];
      if (starts(l, "diff --git ")) {
        if (std::string e = file_git(&at, p); !e.empty()) return e;
      } else if (starts(l, "--- ") && at + 1 < end_ && starts(lines_[at + 1], "+++ ")) {
        if (std::string e = file_plain(&at, p, {}); !e.empty()) return e;
      } else {
        ++at;
      }
    }
    return {};
  }

 private:
  // `diff --git a/X b/Y`, its extended header lines, then --- / +++ and hunks.
  std::string file_git(std::size_t* at, Patch* p) {
    FileDiff f;
    const std::string_view head = lines_[*at];
    ++*at;
    bool explained = false;  // a header that says why there may be no hunk
    for (; *at < end_; ++*at) {
      const std::string_view l = lines_[*at];
      if (starts(l, "new file mode")) f.is_new = explained = true;
      else if (starts(l, "deleted file mode")) f.is_deleted = explained = true;
      else if (starts(l, "Binary files") || starts(l, "GIT binary patch")) f.binary = explained = true;
      else if (starts(l, "rename from ")) f.is_rename = explained = true;
      else if (starts(l, "copy from ")) f.is_copy = explained = true;
      else if (starts(l, "--- ")) break;
      else if (starts(l, "old mode") || starts(l, "new mode") || starts(l, "similarity") ||
               starts(l, "dissimilarity") || starts(l, "rename ") || starts(l, "copy "))
        explained = true;
      else if (!starts(l, "index "))
        break;
    }
    if (*at < end_ && starts(lines_[*at], "--- ")) return file_plain(at, p, std::move(f));
    // Neither ---/+++ nor a mode change, rename, copy, binary or empty file:
    // its hunks are lost (a damaged mail), not absent.
    if (!explained)
      return fmt::format("'{}' has no '---'/'+++' lines and no mode change, rename or binary note",
                         quote(head));
    // No ---/+++: a mode change, a pure rename or a binary file; the paths from the head.
    const std::string_view rest = head.substr(11);
    const auto b = rest.find(" b/");
    if (b == std::string_view::npos) return fmt::format("cannot read the paths of '{}'", quote(head));
    const auto old_path = strip_path(rest.substr(0, b), true);
    const auto new_path = strip_path(rest.substr(b + 1), true);
    if (!old_path || !new_path) return fmt::format("unsafe path in '{}'", quote(head));
    f.old_path = *old_path;
    f.new_path = *new_path;
    p->files.push_back(std::move(f));
    return {};
  }

  std::string file_plain(std::size_t* at, Patch* p, FileDiff f) {
    const std::string_view minus = lines_[*at].substr(4);
    if (*at + 1 >= end_ || !starts(lines_[*at + 1], "+++ "))
      return fmt::format("'--- {}' is not followed by a '+++' line", quote(minus));
    const std::string_view plus = lines_[*at + 1].substr(4);
    *at += 2;
    // a/ b/ prefixes (git) are stripped; a plain `diff -u x.c.orig x.c` keeps its paths.
    const bool git = (starts(minus, "a/") || minus == "/dev/null") &&
                     (starts(plus, "b/") || plus.substr(0, plus.find('\t')) == "/dev/null");
    const auto old_path = strip_path(minus, git && minus != "/dev/null");
    const auto new_path = strip_path(plus, git && !starts(plus, "/dev/null"));
    if (!old_path || !new_path)
      return fmt::format("unsafe or empty path in '--- {}' / '+++ {}'", quote(minus), quote(plus));
    if (old_path->empty() && new_path->empty()) return "a file diff from /dev/null to /dev/null";
    f.old_path = *old_path;
    f.new_path = *new_path;
    f.is_new = f.is_new || f.old_path.empty();
    f.is_deleted = f.is_deleted || f.new_path.empty();
    while (*at < end_ && starts(lines_[*at], "@@")) {
      if (std::string e = hunk(at, &f); !e.empty()) return e;
    }
    if (f.hunks.empty() && !f.binary)
      return fmt::format("the diff of {} has no hunk", f.path());
    p->files.push_back(std::move(f));
    return {};
  }

  std::string hunk(std::size_t* at, FileDiff* f) {
    std::optional<Hunk> h = parse_hunk_header(lines_[*at]);
    if (!h) return fmt::format("{}: bad hunk header '{}'", f->path(), quote(lines_[*at]));
    if (h->old_count + h->new_count == 0)
      return fmt::format("{}: empty hunk '{}'", f->path(), quote(h->header));
    ++*at;
    std::size_t old_left = h->old_count, new_left = h->new_count;
    while (old_left + new_left > 0) {
      if (*at >= end_) break;
      std::string_view l = lines_[*at];
      // A page or a mail client drops the space of an empty context line.
      if (l.empty() && page_tolerant()) l = " ";
      const char c = l.empty() ? '?' : l.front();
      if (c == ' ' && old_left > 0 && new_left > 0) --old_left, --new_left;
      else if (c == '-' && old_left > 0) --old_left;
      else if (c == '+' && new_left > 0) --new_left;
      else if (c != '\\') break;
      h->lines.emplace_back(l);
      ++*at;
    }
    if (old_left + new_left > 0)
      return fmt::format("{}: hunk '{}' ends {} old and {} new lines short{}", f->path(),
                         quote(h->header), old_left, new_left,
                         *at < end_ ? fmt::format(" at '{}'", quote(lines_[*at])) : "");
    if (*at < end_ && starts(lines_[*at], "\\")) h->lines.emplace_back(lines_[(*at)++]);
    if (!f->hunks.empty() && h->old_start < f->hunks.back().old_start)
      return fmt::format("{}: hunk '{}' is out of order", f->path(), quote(h->header));
    f->hunks.push_back(std::move(*h));
    return {};
  }

  bool page_tolerant() const { return true; }

  const std::vector<std::string_view>& lines_;
  std::size_t end_;
  [[maybe_unused]] bool page_;
};

// A header value with its continuation lines (RFC 5322 folding).
std::string header_value(const std::vector<std::string_view>& lines, std::size_t at,
                         std::size_t name_len, std::size_t end) {
  std::string v(lines[at].substr(name_len));
  for (std::size_t i = at + 1; i < end && !lines[i].empty() && (lines[i][0] == ' ' || lines[i][0] == '\t'); ++i)
    v += " " + std::string(lines[i]);
  // Whitespace runs become one space; trimmed.
  std::string out;
  for (char c : v) {
    if (c == '\t') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool is_mbox_from(std::string_view l) {
  // "From <sha or address> <date>": git format-patch and mbox separators.
  if (!starts(l, "From ")) return false;
  const auto sp = l.find(' ', 5);
  return sp != std::string_view::npos && sp > 5 && l.find(':') != std::string_view::npos;
}

// One message, lines [begin, end): headers (anywhere before its diff, for a
// page), base-commit, files.
std::string read_message(const std::vector<std::string_view>& lines, std::size_t begin,
                         std::size_t end, bool page, Patch* p) {
  std::size_t diff_start = end;
  for (std::size_t i = begin; i < end; ++i)
    if (starts(lines[i], "diff --git ") ||
        (starts(lines[i], "--- ") && i + 1 < end && starts(lines[i + 1], "+++ "))) {
      diff_start = i;
      break;
    }
  for (std::size_t i = begin; i < diff_start; ++i) {
    if (p->subject.empty() && starts(lines[i], "Subject:"))
      p->subject = header_value(lines, i, 8, diff_start);
    else if (p->author.empty() && starts(lines[i], "From:"))
      p->author = header_value(lines, i, 5, diff_start);
  }
  for (std::size_t i = begin; i < end; ++i)
    if (starts(lines[i], "base-commit: ")) {
      std::string_view v = lines[i].substr(13);
      while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
      const bool hex = !v.empty() && v.size() <= 64 &&
                       std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isxdigit(c); });
      if (!hex) return fmt::format("base-commit line '{}' is not a commit hash", quote(lines[i]));
      p->base_commit = std::string(v);
    }
  if (diff_start == end) return {};
  return DiffReader(lines, end, page).read(diff_start, p);
}

}  // namespace

Parsed parse_patch(std::string_view text) {
  Parsed out;
  if (text.empty()) return {{}, "the patch is empty"};
  if (text.find('\0') != std::string_view::npos)
    return {{}, "the patch holds binary data (a NUL byte), not a text diff or mail"};
  std::string page;
  const bool html = is_html(text);
  if (html) {
    page = html_to_text(text);
    text = page;
  }
  const std::vector<std::string_view> lines = split_lines(text);
  // Messages: mbox "From " separators; none: the whole text is one.
  std::vector<std::size_t> starts_at;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (is_mbox_from(lines[i])) starts_at.push_back(i);
  if (starts_at.empty() || starts_at.front() != 0) starts_at.insert(starts_at.begin(), 0);
  starts_at.push_back(lines.size());
  bool mail = false;
  // `git format-patch --cover-letter --base=REV` states the base in the cover
  // letter (a message without a diff) only: it is the series' base.
  std::string cover_base;
  for (std::size_t m = 0; m + 1 < starts_at.size(); ++m) {
    Patch p;
    if (std::string e = read_message(lines, starts_at[m], starts_at[m + 1], html, &p); !e.empty())
      return {{}, e};
    mail = mail || !p.subject.empty();
    if (!p.files.empty()) out.series.patches.push_back(std::move(p));
    else if (cover_base.empty()) cover_base = p.base_commit;
  }
  if (out.series.patches.empty()) return {{}, "no file diff found (no 'diff --git' or '---'/'+++' lines)"};
  if (out.series.patches.front().base_commit.empty()) out.series.patches.front().base_commit = cover_base;
  // mbox: "From " separators (git format-patch, git-am); mail: headers
  // without them (a page's text, a saved message); diff: no headers.
  out.series.form = html ? "html" : starts_at.size() > 2 || is_mbox_from(lines.empty() ? "" : lines[0])
                                        ? "mbox"
                                    : mail ? "mail"
                                           : "diff";
  return out;
}

Parsed read_patch_file(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      return {{}, fmt::format("cannot read the patch {}: not a regular file", path)};
    std::ifstream f(path, std::ios::binary);
    if (!f) return {{}, fmt::format("cannot read the patch {}", path)};
    text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  Parsed p = parse_patch(text);
  if (!p.ok()) p.error = fmt::format("{}: {}", path == "-" ? "standard input" : path, p.error);
  return p;
}

std::string unified_diff(const Patch& p, long only_file, long only_hunk) {
  std::string out;
  for (std::size_t i = 0; i < p.files.size(); ++i) {
    if (only_file >= 0 && static_cast<std::size_t>(only_file) != i) continue;
    const FileDiff& f = p.files[i];
    if (f.hunks.empty()) continue;  // a mode change or rename: no content to apply
    // A rename or copy is staged first (apply.cpp): its hunks apply to the new path.
    const std::string& from = f.is_rename || f.is_copy ? f.new_path : f.old_path;
    out += fmt::format("--- {}\n+++ {}\n", from.empty() ? "/dev/null" : "a/" + from,
                       f.new_path.empty() ? "/dev/null" : "b/" + f.new_path);
    for (std::size_t h = 0; h < f.hunks.size(); ++h) {
      if (only_hunk >= 0 && h > static_cast<std::size_t>(only_hunk)) break;
      out += f.hunks[h].header + "\n";
      for (const std::string& l : f.hunks[h].lines) out += l + "\n";
    }
  }
  return out;
}

}  // namespace diffsched::patch
