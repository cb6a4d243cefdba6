// diffsched fn: locations and tokens of the main file (extract_internal.h),
// and why a function was not found in it.
#include <algorithm>
#include <cctype>

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
      const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      std::size_t after = at + function.size();
      while (after < end && (text_[after] == ' ' || text_[after] == '\t')) ++after;
      if ((at > 0 && word(text_[at - 1])) || after >= end || text_[after] != '(') continue;
      // The directive that opens the block: the range's first line.
      const unsigned line = static_cast<unsigned>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(begin), '\n')) + 1;
      std::string directive = text_.substr(begin, text_.find('\n', begin) - begin);
      directive = tools::collapse_blanks(directive);
      const std::size_t option = directive.find("CONFIG_");
      std::string hint = "; if the kernel option it tests is one the shim leaves off, "
                         "--config CONFIG_NAME (or a spec line `config CONFIG_NAME`) defines it";
      if (option != std::string::npos) {
        std::size_t e = option;
        while (e < directive.size() && word(directive[e])) ++e;
        hint = fmt::format("; the shim leaves {0} off: --config {0} (or a spec line `config {0}`) "
                           "defines it",
                           directive.substr(option, e - option));
      }
      found = directive.starts_with("#")
                  ? fmt::format(" (it is in a block the preprocessor skips, line {}: `{}`{})", line,
                                directive, hint)
                  : fmt::format(" (it is in a block the preprocessor skips, from line {}{})", line,
                                hint);
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

}  // namespace diffsched::fn::detail
