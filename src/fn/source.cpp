// diffsched fn: locations and tokens of the main file (extract_internal.h),
// why a function was not found in it, and the file's macros a unit keeps.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "kcheck/c_source.h"

#include "fn/extract_internal.h"

namespace diffsched::fn::detail {

// ---- locations ---------------------------------------------------------------


// The main file of the parse (the child parses one file at a time).
CXFile g_main_file = nullptr;  // extract_internal.h

// Byte offset of `loc` in the main file (its expansion), or kNowhere. A
// location in a macro's body whose expansion is in the main file counts
// (clang starts a function's extent there when a file macro such as
// `__attribute_const__` comes first).
std::size_t main_offset(CXSourceLocation loc) {
  unsigned offset = 0;
  CXFile file = nullptr;
  FN_LC(clang_getExpansionLocation)(loc, &file, nullptr, nullptr, &offset);
  if (FN_LC(clang_Location_isFromMainFile)(loc) ||
      (file && g_main_file && FN_LC(clang_File_isEqual)(file, g_main_file)))
    return offset;
  return kNowhere;
}



Range main_extent(CXCursor c) {
  const CXSourceRange r = FN_LC(clang_getCursorExtent)(c);
  return Range{main_offset(FN_LC(clang_getRangeStart)(r)), main_offset(FN_LC(clang_getRangeEnd)(r))};
}

unsigned line_of(CXCursor c) {
  unsigned line = 0;
  FN_LC(clang_getExpansionLocation)(FN_LC(clang_getCursorLocation)(c), nullptr, &line, nullptr, nullptr);
  return line;
}

// The file a cursor's declaration is written in ("" for none: builtins).
std::string file_of(CXCursor c) {
  CXFile file = nullptr;
  FN_LC(clang_getSpellingLocation)(FN_LC(clang_getCursorLocation)(c), &file, nullptr, nullptr, nullptr);
  if (!file) return {};
  return take_string(FN_LC(clang_getFileName)(file));
}

bool in_main_file(CXCursor c) {
  const CXSourceLocation loc = FN_LC(clang_getCursorLocation)(c);
  if (FN_LC(clang_Location_isFromMainFile)(loc) != 0) return true;
  // A declaration that a header's macro makes in the file (`DEFINE_MUTEX(m);`
  // in topology.c) is the file's: where the macro is expanded decides.
  CXFile expanded = nullptr;
  unsigned line = 0, column = 0;
  FN_LC(clang_getExpansionLocation)(loc, &expanded, &line, &column, nullptr);
  if (!expanded) return false;
  const CXTranslationUnit tu = FN_LC(clang_Cursor_getTranslationUnit)(c);
  const CXSourceLocation at = FN_LC(clang_getLocation)(tu, expanded, line, column);
  return FN_LC(clang_Location_isFromMainFile)(at) != 0;
}

// ---- tokens of the main file ---------------------------------------------------



std::vector<Token> main_tokens(CXTranslationUnit tu, CXFile file, std::size_t size) {
  std::vector<Token> out;
  const CXSourceRange all =
      FN_LC(clang_getRange)(FN_LC(clang_getLocationForOffset)(tu, file, 0),
                         FN_LC(clang_getLocationForOffset)(tu, file, static_cast<unsigned>(size)));
  CXToken* tokens = nullptr;
  unsigned n = 0;
  FN_LC(clang_tokenize)(tu, all, &tokens, &n);
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    const CXTokenKind kind = FN_LC(clang_getTokenKind)(tokens[i]);
    if (kind == CXToken_Comment) continue;
    const CXSourceRange r = FN_LC(clang_getTokenExtent)(tu, tokens[i]);
    unsigned b = 0, e = 0;
    FN_LC(clang_getSpellingLocation)(FN_LC(clang_getRangeStart)(r), nullptr, nullptr, nullptr, &b);
    FN_LC(clang_getSpellingLocation)(FN_LC(clang_getRangeEnd)(r), nullptr, nullptr, nullptr, &e);
    Token t{b, e, kind, {}};
    if (kind == CXToken_Identifier || kind == CXToken_Punctuation || kind == CXToken_Keyword)
      t.text = take_string(FN_LC(clang_getTokenSpelling)(tu, tokens[i]));
    out.push_back(std::move(t));
  }
  FN_LC(clang_disposeTokens)(tu, tokens, n);
  return out;
}

// The index of the first token that begins at or after `offset`.
std::size_t token_at(const std::vector<Token>& tokens, std::size_t offset) {
  return static_cast<std::size_t>(
      std::lower_bound(tokens.begin(), tokens.end(), offset,
                       [](const Token& t, std::size_t o) { return t.begin < o; }) -
      tokens.begin());
}

// ---- why a function is not in the parse ------------------------------------

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A directive line with its continuation lines joined, blanks collapsed and
// none between `#` and the keyword ("# ifdef X" is "#ifdef X").
std::string directive_at(const std::string& text, std::size_t at) {
  std::string d;
  for (std::size_t e = at; e < text.size(); ++e) {
    if (text[e] == '\n' && !(e > at && text[e - 1] == '\\')) break;
    d += text[e] == '\\' && e + 1 < text.size() && text[e + 1] == '\n' ? ' ' : text[e];
  }
  d = tools::collapse_blanks(d);
  if (d.starts_with("# ")) d.erase(1, 1);
  return d;
}

// The #if, #ifdef or #ifndef whose #else or #elif starts at `at`: its
// offset, or npos.
std::size_t opener_of(const std::string& text, std::size_t at) {
  int depth = 0;
  std::size_t end = at;  // the line before `at` ends here
  while (end > 0) {
    const std::size_t start = text.rfind('\n', end - 1) == std::string::npos ? 0 : text.rfind('\n', end - 1) + 1;
    const std::string d = directive_at(text, start);
    if (d.starts_with("#endif")) ++depth;
    if (d.starts_with("#if")) {
      if (depth == 0) return start;
      --depth;
    }
    if (start == 0) break;
    end = start - 1;
  }
  return std::string::npos;
}

// The CONFIG_ names a directive tests, in order, once each.
std::vector<std::string> options_in(const std::string& d) {
  std::vector<std::string> names;
  for (std::size_t at = d.find("CONFIG_"); at != std::string::npos; at = d.find("CONFIG_", at + 1)) {
    if (at > 0 && word_char(d[at - 1])) continue;
    std::size_t e = at;
    while (e < d.size() && word_char(d[e])) ++e;
    if (std::find(names.begin(), names.end(), d.substr(at, e - at)) == names.end())
      names.push_back(d.substr(at, e - at));
  }
  return names;
}

// +1 when the directive holds for one option exactly when it is on
// (`#ifdef X`, `#if defined(X)`, `#if IS_ENABLED(X)`, `#if X`), -1 when
// exactly when it is off (`#ifndef X`, `#if !defined(X)`, ...), 0 otherwise.
int polarity(std::string d) {
  std::erase(d, ' ');
  if (d.starts_with("#ifdef")) return 1;
  if (d.starts_with("#ifndef")) return -1;
  std::string e = d.starts_with("#elif") ? d.substr(5) : d.starts_with("#if") ? d.substr(3) : std::string();
  int sign = 1;
  while (!e.empty() && e[0] == '!') {
    sign = -sign;
    e.erase(0, 1);
  }
  for (const std::string_view f : {"defined(", "IS_ENABLED(", "IS_BUILTIN(", "IS_REACHABLE("})
    if (e.starts_with(f) && e.ends_with(")")) e = e.substr(f.size(), e.size() - f.size() - 1);
  if (e.starts_with("defined")) e.erase(0, 7);
  return std::all_of(e.begin(), e.end(), word_char) && e.starts_with("CONFIG_") ? sign : 0;
}

}  // namespace

std::set<std::string> Extractor::defined_options() const {
  std::set<std::string> on;
  FN_LC(clang_visitChildren)(
      FN_LC(clang_getTranslationUnitCursor)(tu_),
      [](CXCursor c, CXCursor, CXClientData data) {
        if (FN_LC(clang_getCursorKind)(c) == CXCursor_MacroDefinition) {
          std::string name = take_string(FN_LC(clang_getCursorSpelling)(c));
          if (name.starts_with("CONFIG_")) static_cast<std::set<std::string>*>(data)->insert(std::move(name));
        }
        return CXChildVisit_Continue;
      },
      &on);
  return on;
}

// What the block's test says about the kernel options, and the fix if any.
std::string Extractor::skipped_hint(const std::string& directive, std::size_t begin) const {
  std::string test = directive;
  int sign = polarity(directive);
  std::string where;
  if (directive.starts_with("#else") || directive.starts_with("#elif")) {
    const std::size_t opener = opener_of(text_, begin);
    if (opener != std::string::npos) {
      const std::string o = directive_at(text_, opener);
      const auto line = std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(opener), '\n') + 1;
      where = fmt::format(", the {} of line {}: `{}`", directive.starts_with("#else") ? "#else" : "#elif", line, o);
      if (directive.starts_with("#else")) {
        test = o;
        sign = -polarity(o);
      }
    }
  }
  const std::vector<std::string> names = options_in(test);
  if (names.empty()) return where + "; its test names no kernel option";
  const std::set<std::string> on = defined_options();
  auto state = [&](const std::string& n) {
    return !on.count(n) ? "off here" : given_defines_.count(n) ? "on here, by --config or a spec's `config` line"
                                                               : "on here, by the shim";
  };
  if (names.size() == 1 && sign != 0) {
    const std::string& n = names[0];
    if (sign > 0 && !on.count(n))
      return fmt::format("{}; the shim leaves {} off: --config {} (or a spec line `config {}`) defines it", where, n, n, n);
    if (sign < 0 && given_defines_.count(n))
      return fmt::format("{}; the block is built only without {}, which --config or a spec's `config` line "
                         "defines here: leave it out", where, n);
    if (sign < 0 && on.count(n))
      return fmt::format("{}; the block is built only without {}, which the shim defines (it models a kernel "
                         "with {} on): this definition is not the one such a kernel builds", where, n, n);
  }
  std::string list;
  for (const std::string& n : names) list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", n, state(n));
  return fmt::format("{}; its test names {}: --config CONFIG_NAME (or a spec line `config CONFIG_NAME`) "
                     "defines an option the shim leaves off", where, list);
}

std::string Extractor::skipped_definition(std::string_view function) const {
  CXSourceRangeList* skipped = FN_LC(clang_getAllSkippedRanges)(tu_);
  if (!skipped) return {};
  std::string found;
  for (unsigned i = 0; i < skipped->count && found.empty(); ++i) {
    const std::size_t begin = main_offset(FN_LC(clang_getRangeStart)(skipped->ranges[i]));
    const std::size_t end = main_offset(FN_LC(clang_getRangeEnd)(skipped->ranges[i]));
    if (begin == kNowhere || end == kNowhere || begin >= end || end > text_.size()) continue;
    // `NAME (` at a word's start, inside the range: a definition or a call.
    for (std::size_t at = text_.find(function, begin); at != std::string::npos && at < end;
         at = text_.find(function, at + 1)) {
      std::size_t after = at + function.size();
      while (after < end && (text_[after] == ' ' || text_[after] == '\t')) ++after;
      if ((at > 0 && word_char(text_[at - 1])) || after >= end || text_[after] != '(') continue;
      // The directive that opens the block: the range's first line.
      const unsigned line = static_cast<unsigned>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(begin), '\n')) + 1;
      const std::string directive = directive_at(text_, begin);
      found = directive.starts_with("#")
                  ? fmt::format(" (it is in a block the preprocessor skips, line {}: `{}`{})", line,
                                directive, skipped_hint(directive, begin))
                  : fmt::format(" (it is in a block the preprocessor skips, from line {}; if the kernel "
                                "option it tests is one the shim leaves off, --config CONFIG_NAME (or a "
                                "spec line `config CONFIG_NAME`) defines it)", line);
      break;
    }
  }
  FN_LC(clang_disposeSourceRangeList)(skipped);
  return found;
}

std::string Extractor::first_error() const {
  // An #include the shim lacks only when nothing else went wrong: a missing
  // header loses declarations, an unknown macro before a definition loses it.
  std::string missing;
  for (unsigned i = 0, count = FN_LC(clang_getNumDiagnostics)(tu_); i < count; ++i) {
    CXDiagnostic d = FN_LC(clang_getDiagnostic)(tu_, i);
    std::string found;
    const CXSourceLocation loc = FN_LC(clang_getDiagnosticLocation)(d);
    if (FN_LC(clang_getDiagnosticSeverity)(d) >= CXDiagnostic_Error &&
        FN_LC(clang_Location_isFromMainFile)(loc)) {
      unsigned line = 0;
      FN_LC(clang_getExpansionLocation)(loc, nullptr, &line, nullptr, nullptr);
      found = fmt::format("{}: {}", line, take_string(FN_LC(clang_getDiagnosticSpelling)(d)));
    }
    FN_LC(clang_disposeDiagnostic)(d);
    if (found.find("file not found") != std::string::npos) {
      if (missing.empty()) missing = found;
    } else if (!found.empty()) {
      return found;
    }
  }
  return missing;
}

// ---- macros ------------------------------------------------------------------

// The file's macros that the closure's text names, and those their bodies
// name, to a fixed point: a macro counts when its name is an identifier
// token of an included piece (its expansion there, a use in `#if`).
void Extractor::include_macros() {
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].included) pending.push_back(i);
  std::set<std::size_t> scanned;
  while (!pending.empty()) {
    const std::size_t index = pending.back();
    pending.pop_back();
    if (!scanned.insert(index).second) continue;
    const Item& item = items_[index];
    const Range r = piece_range(item);
    auto use = [&](const std::string& name, std::size_t at) {
      const auto it = macros_.find(name);
      if (it == macros_.end()) return;
      // The definition in force there: the last one before the use, else the first.
      std::size_t pick = it->second.front();
      for (std::size_t m : it->second)
        if (items_[m].range.begin <= at) pick = m;
      if (pick == index || items_[pick].included) return;
      items_[pick].included = true;
      pending.push_back(pick);
    };
    std::size_t i = token_at(tokens_, r.begin);
    if (item.kind == PieceKind::kMacro) ++i;  // the `#`... the name itself is not a use
    for (; i < tokens_.size() && tokens_[i].begin < r.end; ++i)
      if (tokens_[i].kind == CXToken_Identifier) use(tokens_[i].text, tokens_[i].begin);
    // An #include inside the piece (an X-macro list: `#define SD_FLAG(...)`,
    // then `#include <linux/sched/sd_flags.h>` in an initialiser) expands
    // the file's macros that the header names, as in force at the #include.
    if (item.kind == PieceKind::kInclude) continue;
    for (const Item& inc : items_) {
      if (inc.kind != PieceKind::kInclude || inc.range.begin < r.begin || inc.range.begin >= r.end) continue;
      for (const std::string& name : header_identifiers(FN_LC(clang_getIncludedFile)(inc.cursor)))
        use(name, inc.range.begin);
    }
  }
}

// The identifiers of an included file's text, each once (header_names_ caches them).
const std::set<std::string>& Extractor::header_identifiers(CXFile file) {
  const std::string name = file ? take_string(FN_LC(clang_getFileName)(file)) : std::string();
  auto [it, fresh] = header_names_.try_emplace(name);
  std::error_code ec;
  const auto size = name.empty() ? 0 : std::filesystem::file_size(name, ec);
  if (!fresh || ec || size == 0) return it->second;
  for (const Token& t : main_tokens(tu_, file, size))
    if (t.kind == CXToken_Identifier) it->second.insert(t.text);
  return it->second;
}

}  // namespace diffsched::fn::detail
