#include "util/owned_dir.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "util/text.h"

namespace diffsched::util {

namespace {

constexpr std::string_view kHeader = "# diffsched-owned v1 ";

std::string escape(const std::string& rel) {
  std::string out;
  for (char c : rel) {
    if (c == '%') out += "%25";
    else if (c == '\n') out += "%0A";
    else if (c == '\r') out += "%0D";
    else out += c;
  }
  return out;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::string_view code = s.substr(i, 3);
    if (code == "%25" || code == "%0A" || code == "%0D") {
      out += code == "%25" ? '%' : code == "%0A" ? '\n' : '\r';
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// A relative path that stays inside the directory.
bool inside(const fs::path& rel) {
  if (rel.empty() || rel.is_absolute() || rel.has_root_name()) return false;
  return std::none_of(rel.begin(), rel.end(), [](const fs::path& c) { return c == ".." || c == "."; });
}

fs::path lexical(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return (ec ? p : a).lexically_normal();
}

bool is_prefix(const fs::path& dir, const fs::path& p) {  // p is dir or under it
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end() && !d->empty(); ++d, ++q)
    if (q == p.end() || *d != *q) return false;
  return true;
}

}  // namespace

std::string manifest_line(const OwnedEntry& e) {
  return fmt::format("{} {}\n", e.kind == OwnedEntry::kTree ? "tree" : "file", escape(e.rel.string()));
}

std::vector<OwnedEntry> parse_manifest(const std::string& text, std::string* mode) {
  std::vector<OwnedEntry> out;
  mode->clear();
  const auto lines = split(text, '\n');
  if (lines.empty() || !lines[0].starts_with(kHeader)) return out;
  *mode = lines[0].substr(kHeader.size());
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const bool tree = line.starts_with("tree "), file = line.starts_with("file ");
    if (!tree && !file) continue;
    const fs::path rel = unescape(line.substr(5));
    if (inside(rel)) out.push_back({tree ? OwnedEntry::kTree : OwnedEntry::kFile, rel});
  }
  return out;
}

bool OwnedDir::open(const fs::path& dir, OwnedDirOptions options, std::string* error) {
  dir_ = dir;
  o_ = std::move(options);
  last_.clear();
  now_.clear();
  set_inputs(o_.inputs);
  const std::string name = fmt::format("{} {}", o_.option, dir.string());
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    *error = fmt::format("{}: {}", name, ec.message());  // a symlink loop says so
    return false;
  }
  if (!fs::exists(st)) {
    fs::create_directories(dir, ec);
    if (ec) *error = fmt::format("{}: cannot create the directory: {}", name, ec.message());
    return !ec;
  }
  if (!fs::is_directory(st)) {
    *error = fmt::format("{}: exists and is not a directory", name);
    return false;
  }
  std::string mode;
  const fs::path manifest = dir / o_.manifest;
  if (fs::is_regular_file(manifest, ec)) last_ = parse_manifest(read_text(manifest), &mode);
  if (mode == o_.mode) return true;  // this mode's directory: last_ is what it wrote
  last_.clear();
  std::vector<std::string> foreign;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) foreign.push_back(it->path().filename().string());
  if (ec) {
    *error = fmt::format("{}: cannot list the directory: {}", name, ec.message());
    return false;
  }
  if (foreign.empty()) return true;
  if (o_.force) {
    last_ = o_.claim;
    return true;
  }
  std::sort(foreign.begin(), foreign.end());
  std::string claimed;
  for (const auto& c : o_.claim) claimed += (claimed.empty() ? "" : ", ") + c.rel.string();
  *error = fmt::format(
      "{}: not empty and not {} (it holds '{}'); give a new or empty directory{}", name,
      o_.what.empty() ? "written by diffsched " + o_.mode : o_.what, foreign.front(),
      claimed.empty() ? "" : fmt::format(", or --force to replace only {} in it (never an input)", claimed));
  return false;
}

void OwnedDir::set_inputs(const std::vector<fs::path>& inputs) {
  protected_.clear();
  inodes_.clear();
  for (const auto& in : inputs) {
    if (in.empty() || in == "-") continue;
    std::error_code ec;
    protected_.push_back(lexical(in));
    const fs::path canon = fs::weakly_canonical(lexical(in), ec);
    if (!ec) protected_.push_back(canon);
    struct stat st {};
    if (::stat(in.c_str(), &st) == 0) inodes_.emplace_back(st.st_dev, st.st_ino);
  }
}

bool OwnedDir::protects(const fs::path& p) const {
  const fs::path lex = lexical(p);
  std::error_code ec;
  const fs::path canon = fs::weakly_canonical(lex, ec);
  // p is an input, holds one, or lies inside an input directory that is
  // itself inside the directory (a corpus in work/). An input directory
  // around it (--fuzz-dir .) protects nothing: what is recorded here is ours.
  const fs::path root = lexical(dir_);
  std::error_code rec;
  const fs::path root_canon = fs::weakly_canonical(root, rec);
  for (const auto& in : protected_) {
    const bool inside = is_prefix(root, in) || (!rec && is_prefix(root_canon, in));
    if (is_prefix(lex, in) || (!ec && is_prefix(canon, in))) return true;
    if (inside && (is_prefix(in, lex) || (!ec && is_prefix(in, canon)))) return true;
  }
  struct stat st {};
  if (::lstat(p.c_str(), &st) == 0)
    for (const auto& [dev, ino] : inodes_)
      if (st.st_dev == dev && st.st_ino == ino) return true;
  return false;
}

bool OwnedDir::remove_unprotected(const fs::path& p, std::string* error) const {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec || !fs::exists(st)) return false;
  if (protects(p) && !fs::is_directory(st)) return true;
  bool kept = false;
  if (fs::is_directory(st)) {
    std::vector<fs::path> children;
    fs::directory_iterator it(p, ec), end;
    for (; !ec && it != end; it.increment(ec)) children.push_back(it->path());
    for (const auto& c : children) kept = remove_unprotected(c, error) || kept;
    if (ec) {
      if (error->empty()) *error = fmt::format("cannot list {}: {}", p.string(), ec.message());
      return true;
    }
  }
  if (kept) return true;
  fs::remove(p, ec);
  if (ec && error->empty()) *error = fmt::format("cannot remove {}: {}", p.string(), ec.message());
  return static_cast<bool>(ec);
}

bool OwnedDir::clean(std::string* error) {
  std::string why;
  for (auto e = last_.rbegin(); e != last_.rend(); ++e) {
    const fs::path p = dir_ / e->rel;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(p, ec);
    if (ec || !fs::exists(st)) continue;
    if (e->kind == OwnedEntry::kTree || !fs::is_directory(st)) remove_unprotected(p, &why);
    // The directories file() made for it, if nothing else is in them now.
    for (fs::path d = e->rel.parent_path(); !d.empty(); d = d.parent_path())
      if (!fs::is_empty(dir_ / d, ec) || ec || !fs::remove(dir_ / d, ec)) break;
  }
  last_.clear();
  now_.clear();
  std::ofstream out(dir_ / o_.manifest, std::ios::binary | std::ios::trunc);
  out << kHeader << o_.mode << "\n";
  out.flush();
  if (!out && why.empty()) why = fmt::format("cannot write {}", (dir_ / o_.manifest).string());
  if (!why.empty()) *error = fmt::format("{} {}: {}", o_.option, dir_.string(), why);
  error_ = why;
  return why.empty();
}

bool OwnedDir::record(OwnedEntry::Kind kind, const fs::path& rel) {
  if (!inside(rel)) {
    error_ = fmt::format("{} is not a path inside {}", rel.string(), dir_.string());
    return false;
  }
  const bool known = std::any_of(now_.begin(), now_.end(), [&](const OwnedEntry& e) {
    return e.kind == kind && e.rel == rel;
  });
  if (!known) now_.push_back({kind, rel});
  std::ofstream out(dir_ / o_.manifest, std::ios::binary | std::ios::app);
  if (!known) out << manifest_line({kind, rel});
  out.flush();
  if (!out && error_.empty()) error_ = fmt::format("cannot write {}", (dir_ / o_.manifest).string());
  std::error_code ec;
  const fs::path parent = (dir_ / rel).parent_path();
  fs::create_directories(kind == OwnedEntry::kTree ? dir_ / rel : parent, ec);
  if (ec && error_.empty()) error_ = fmt::format("cannot create {}: {}", parent.string(), ec.message());
  return error_.empty();
}

fs::path OwnedDir::file(const fs::path& rel) {
  record(OwnedEntry::kFile, rel);
  return dir_ / rel;
}

fs::path OwnedDir::tree(const fs::path& rel) {
  record(OwnedEntry::kTree, rel);
  return dir_ / rel;
}

std::vector<fs::path> OwnedDir::entries() const {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(dir_, ec), end;
  for (; !ec && it != end; it.increment(ec))
    if (it->path().filename() != o_.manifest) out.push_back(it->path().filename());
  return out;
}

void OwnedDir::adopt_new(const std::vector<fs::path>& before) {
  for (const auto& name : entries()) {
    if (std::find(before.begin(), before.end(), name) != before.end()) continue;
    const bool recorded = std::any_of(now_.begin(), now_.end(), [&](const OwnedEntry& e) {
      return *e.rel.begin() == name;
    });
    if (recorded) continue;
    std::error_code ec;
    const bool dir = fs::is_directory(fs::symlink_status(dir_ / name, ec));
    record(dir ? OwnedEntry::kTree : OwnedEntry::kFile, name);
  }
}

bool remove_except(const fs::path& p, const std::vector<fs::path>& inputs, std::string* error) {
  OwnedDir scratch;
  scratch.dir_ = p;  // the root: an input directory inside p keeps its content
  scratch.set_inputs(inputs);
  std::string why;
  scratch.remove_unprotected(p, &why);
  if (!why.empty()) *error = why;
  return why.empty();
}

bool written_by_last_run(const fs::path& dir, const std::string& manifest,
                         const std::string& mode, const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / manifest, ec)) return false;
  std::string found;
  const auto entries = parse_manifest(read_text(dir / manifest), &found);
  if (found != mode) return false;
  const fs::path root = lexical(dir), lex = lexical(p);
  return std::any_of(entries.begin(), entries.end(), [&](const OwnedEntry& e) {
    const fs::path at = (root / e.rel).lexically_normal();
    return e.kind == OwnedEntry::kTree ? is_prefix(at, lex) : at == lex;
  });
}

bool OwnedDir::ok(std::string* error) const {
  if (!error_.empty()) *error = error_;
  return error_.empty();
}

}  // namespace diffsched::util
