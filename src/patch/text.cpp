// patch::html_to_text and patch::enclosing_functions (patch.h).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "patch/patch.h"

namespace diffsched::patch {

namespace {

void append_utf8(std::string& out, unsigned long cp) {
  if (cp == 0 || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The entity at `s` (after '&', up to ';'), appended; false if not one.
bool entity(std::string_view name, std::string& out) {
  struct Named { std::string_view name; char c; };
  static constexpr Named kNamed[] = {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'},
                                     {"apos", '\''}, {"nbsp", ' '}};
  for (const Named& n : kNamed)
    if (name == n.name) {
      out += n.c;
      return true;
    }
  if (name.size() < 2 || name[0] != '#') return false;
  const bool hex = name[1] == 'x' || name[1] == 'X';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  unsigned long cp = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
  if (ec != std::errc() || p != digits.data() + digits.size()) return false;
  append_utf8(out, cp);
  return true;
}

std::string lower(std::string_view s) {
  std::string l(s);
  std::transform(l.begin(), l.end(), l.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return l;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The name a definition line declares: the identifier before its first
// '(' ("static void cpudl_heapify_down(struct cpudl *cp, int idx)"), or "".
std::string defined_name(std::string_view line) {
  const auto paren = line.find('(');
  if (paren == std::string_view::npos || paren == 0) return {};
  std::size_t end = paren;
  while (end > 0 && line[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 && is_ident(line[begin - 1])) --begin;
  if (begin == end || std::isdigit(static_cast<unsigned char>(line[begin]))) return {};
  const std::string_view name = line.substr(begin, end - begin);
  for (std::string_view kw : {"if", "for", "while", "switch", "return", "sizeof"})
    if (name == kw) return {};
  return std::string(name);
}

}  // namespace

std::string html_to_text(std::string_view html) {
  std::string out;
  out.reserve(html.size());
  for (std::size_t i = 0; i < html.size();) {
    const char c = html[i];
    if (c == '<') {
      const auto close = html.find('>', i);
      if (close == std::string_view::npos) break;
      const std::string tag = lower(html.substr(i + 1, std::min<std::size_t>(close - i - 1, 16)));
      if (tag.starts_with("br") || tag.starts_with("/p") || tag.starts_with("/div") ||
          tag.starts_with("/tr") || tag.starts_with("/h") || tag.starts_with("/pre"))
        out += '\n';
      // Scripts and styles are no text: skip to their end tag.
      std::size_t next = close + 1;
      for (std::string_view skip : {"script", "style"})
        if (tag.starts_with(skip)) {
          const auto end = lower(html.substr(close)).find("</" + std::string(skip));
          next = end == std::string::npos ? html.size() : close + end;
        }
      i = next;
      continue;
    }
    if (c == '&') {
      const auto semi = html.find(';', i);
      if (semi != std::string_view::npos && semi - i <= 10 && entity(html.substr(i + 1, semi - i - 1), out)) {
        i = semi + 1;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

std::vector<std::string> enclosing_functions(std::string_view text,
                                             const std::vector<std::size_t>& lines) {
  // One pass: each definition's [first, last] line. A definition starts at
  // a column-0 line naming `name(` (not ending in ';'), its body opens with
  // '{' in column 0 (or at the end of that line) and closes with '}' in
  // column 0.
  struct Def { std::size_t first, last; std::string name; };
  std::vector<Def> defs;
  std::string pending;
  std::size_t pending_line = 0, n = 0, open_at = 0;
  std::string open_name;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(at, end - at);
    ++n;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const bool col0 = !l.empty() && is_ident(l[0]);
    const bool starts_def = col0 && l.find('(') != std::string_view::npos && !l.ends_with(";");
    if (!open_name.empty() && l.starts_with("}")) {
      defs.push_back({open_at, n, open_name});
      open_name.clear();
    } else if (!open_name.empty() && starts_def) {
      // A body's lines are indented: a new definition line ends the open
      // one (a hunk's context function that closed before the hunk).
      defs.push_back({open_at, n - 1, open_name});
      open_name.clear();
    }
    if (open_name.empty() && !l.starts_with("}")) {
      if (starts_def) {
        pending = defined_name(l);
        pending_line = n;
      } else if (!l.empty() && l[0] != '{' && l[0] != ' ' && l[0] != '\t' && !col0) {
        pending.clear();
      } else if (!l.empty() && l.back() == ';' && (l[0] != ' ' && l[0] != '\t')) {
        pending.clear();
      }
      const bool opens = l.starts_with("{") || (!pending.empty() && pending_line == n && l.ends_with("{"));
      if (opens && !pending.empty()) {
        open_name = pending;
        open_at = pending_line;
        pending.clear();
      }
    }
    if (end == text.size()) break;
    at = end + 1;
  }
  if (!open_name.empty()) defs.push_back({open_at, n, open_name});  // cut off: to the end
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (std::size_t line : lines) {
    const auto it = std::find_if(defs.begin(), defs.end(),
                                 [&](const Def& d) { return d.first <= line && line <= d.last; });
    out.push_back(it == defs.end() ? std::string() : it->name);
  }
  return out;
}

std::vector<std::string> hunk_functions(const Hunk& h) {
  std::vector<std::string> names;
  for (const char side : {'-', '+'}) {
    // The side's text: the context as an open definition, then its lines.
    const bool open = !defined_name(h.context).empty() && !h.context.ends_with(";");
    std::string text = open ? h.context + "\n{\n" : std::string();
    std::size_t n = open ? 2 : 0;
    std::vector<std::size_t> changed;
    for (const std::string& l : h.lines) {
      const char c = l.empty() ? ' ' : l[0];
      if (c == '\\' || (c != ' ' && c != side)) continue;
      text += l.substr(l.empty() ? 0 : 1) + "\n";
      ++n;
      // A blank line changed changes no function.
      if (c == side && l.find_first_not_of(" \t", 1) != std::string::npos) changed.push_back(n);
    }
    for (const std::string& name : enclosing_functions(text, changed))
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

}  // namespace diffsched::patch
