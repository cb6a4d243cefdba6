#include "kcheck/c_source.h"

#include <algorithm>
#include <cerrno>
#include <deque>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include <clang-c/Index.h>
#include <fmt/format.h>

#include "kcheck/libclang.h"
#include "kcheck/work.h"
#include "tools/process.h"

namespace diffsched::tools {

namespace {

// libclang's clang_f (kcheck/libclang.h: loaded with dlopen, in the parsing
// child only).
#define LC(f) DIFFSCHED_LC(f)

std::string take(CXString s) { return take_string(s); }

// Byte offset of `loc` in the main file (its expansion), or npos.
std::size_t main_offset(CXSourceLocation loc) {
  if (!LC(clang_Location_isFromMainFile)(loc)) return std::string::npos;
  unsigned offset = 0;
  LC(clang_getExpansionLocation)(loc, nullptr, nullptr, nullptr, &offset);
  return offset;
}

struct Extent {
  std::size_t begin = std::string::npos, end = std::string::npos;
  bool ok() const { return begin != std::string::npos && end != std::string::npos && begin <= end; }
};
Extent main_extent(CXCursor c) {
  const CXSourceRange r = LC(clang_getCursorExtent)(c);
  return Extent{main_offset(LC(clang_getRangeStart)(r)), main_offset(LC(clang_getRangeEnd)(r))};
}

// The parameter list of the function whose name ends at `from` in `code`
// (comments blanked): from its '(' to the matching ')', stopping at ';', '{'
// or '}' as a definition's parameters never hold one. Linear.
std::string param_text_at(const std::string& code, std::size_t from) {
  const std::size_t open = code.find('(', from);
  if (open == std::string::npos) return {};
  int depth = 1;
  std::size_t i = open + 1;
  for (; i < code.size() && depth > 0; ++i) {
    if (code[i] == '(') ++depth;
    if (code[i] == ')') --depth;
    if (code[i] == ';' || code[i] == '{' || code[i] == '}') break;
  }
  if (depth != 0) return {};
  return collapse_blanks(std::string_view(code).substr(open + 1, i - 1 - (open + 1)));
}

// Whether the operator of the binary expression `c` (`lhs OP rhs`) is a
// plain `=`: the first character after the left operand, past blanks.
bool is_plain_assignment(const std::string& code, CXCursor c, const std::vector<CXCursor>& kids) {
  if (kids.size() != 2) return false;
  const Extent lhs = main_extent(kids[0]);
  if (!lhs.ok()) return false;
  std::size_t i = lhs.end;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t' || code[i] == '\n' || code[i] == '\r'))
    ++i;
  (void)c;
  return i + 1 < code.size() && code[i] == '=' && code[i + 1] != '=';
}

std::string text_of(const std::string& code, Extent e) {
  if (!e.ok() || e.end > code.size()) return {};
  return code.substr(e.begin, e.end - e.begin);
}

// The returns and assignments of one body, by an iterative walk (an
// explicit stack: no recursion, whatever the nesting), then in source order.
void read_body(const std::string& code, CXCursor body, CFunction& f) {
  std::vector<std::pair<std::size_t, CReturn>> returns;
  std::vector<std::pair<std::size_t, CAssignment>> assigns;
  std::vector<CXCursor> stack = {body};
  while (!stack.empty()) {
    const CXCursor c = stack.back();
    stack.pop_back();
    const std::vector<CXCursor> kids = cursor_children(c);
    const CXCursorKind kind = LC(clang_getCursorKind)(c);
    const Extent at = main_extent(c);
    if (kind == CXCursor_ReturnStmt && at.ok()) {
      std::string e = text_of(code, at);
      e = e.size() >= 6 && e.starts_with("return") ? e.substr(6) : std::string();
      returns.emplace_back(at.begin, CReturn{e});
    } else if (kind == CXCursor_BinaryOperator && at.ok() && is_plain_assignment(code, c, kids) &&
               LC(clang_getCursorKind)(kids[0]) == CXCursor_DeclRefExpr) {
      assigns.emplace_back(at.begin, CAssignment{take(LC(clang_getCursorSpelling)(kids[0])),
                                                 text_of(code, main_extent(kids[1]))});
    } else if (kind == CXCursor_VarDecl && at.ok() && !kids.empty() &&
               LC(clang_isExpression)(LC(clang_getCursorKind)(kids.back()))) {
      assigns.emplace_back(at.begin, CAssignment{take(LC(clang_getCursorSpelling)(c)),
                                                 text_of(code, main_extent(kids.back()))});
    }
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  auto by_offset = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::stable_sort(returns.begin(), returns.end(), by_offset);
  std::stable_sort(assigns.begin(), assigns.end(), by_offset);
  for (auto& r : returns) f.returns.push_back(std::move(r.second));
  for (auto& a : assigns) f.assignments.push_back(std::move(a.second));
}

void read_function(const std::string& code, CXCursor c, CSource& out) {
  CFunction f;
  f.name = take(LC(clang_getCursorSpelling)(c));
  f.params = std::max(0, LC(clang_Cursor_getNumArguments)(c));
  f.is_definition = LC(clang_isCursorDefinition)(c) != 0;
  f.is_static = LC(clang_Cursor_getStorageClass)(c) == CX_SC_Static;
  const std::size_t name_at = main_offset(LC(clang_getCursorLocation)(c));
  if (name_at != std::string::npos) f.param_text = param_text_at(code, name_at + f.name.size());
  if (f.is_definition)
    for (const CXCursor& k : cursor_children(c))
      if (LC(clang_getCursorKind)(k) == CXCursor_CompoundStmt) read_body(code, k, f);
  out.functions.push_back(std::move(f));
}

void read_struct(CXCursor c, CSource& out) {
  const std::string name = take(LC(clang_getCursorSpelling)(c));
  for (const CXCursor& k : cursor_children(c))
    if (LC(clang_getCursorKind)(k) == CXCursor_FieldDecl)
      out.fields.insert(name + "." + take(LC(clang_getCursorSpelling)(k)));
}

void read_tokens(CXTranslationUnit tu, CXFile file, std::size_t size, CSource& out) {
  const CXSourceRange all = LC(clang_getRange)(LC(clang_getLocationForOffset)(tu, file, 0),
                                           LC(clang_getLocationForOffset)(tu, file, static_cast<unsigned>(size)));
  CXToken* tokens = nullptr;
  unsigned n = 0;
  LC(clang_tokenize)(tu, all, &tokens, &n);
  for (unsigned i = 0; i < n; ++i)
    if (LC(clang_getTokenKind)(tokens[i]) == CXToken_Identifier)
      out.identifiers.insert(take(LC(clang_getTokenSpelling)(tu, tokens[i])));
  LC(clang_disposeTokens)(tu, tokens, n);
}

CSource parse_uncached(const std::string& text) {
  if (!libclang()) {
    CSource failed;
    failed.error = libclang_load_error();
    return failed;
  }
  CSource out;
  const ShimTree tree = ShimTree::of(source_dir());
  const std::string shim = tree.dir.string();
  const std::string path = tree.unsaved_input("detect").string();
  const std::string sched = tree.sched().string(), include = tree.include().string(),
                    abi = tree.abi().string();
  const std::string force = tree.sched_header().string();
  if (const std::string bad = special_include(text, {tree.unsaved_dir("detect").string(), sched, include, abi});
      !bad.empty()) {
    out.error = fmt::format("it #includes {}, which is not a regular file", bad);
    return out;
  }
  // Each shim helper a file may define itself is left out, so that a
  // file's own definition never conflicts with the shim's.
  const std::vector<std::string> arg_strings = shim_parse_args(
      shim, force, std::vector<std::string>(std::begin(kShimOverridable), std::end(kShimOverridable)));
  std::vector<const char*> args;
  for (const auto& a : arg_strings) args.push_back(a.c_str());
  CXUnsavedFile unsaved{path.c_str(), text.data(), static_cast<unsigned long>(text.size())};
  CXIndex index = LC(clang_createIndex)(0, 0);
  CXTranslationUnit tu = nullptr;
  const CXErrorCode rc = LC(clang_parseTranslationUnit2)(
      index, path.c_str(), args.data(), static_cast<int>(args.size()), &unsaved, 1,
      CXTranslationUnit_KeepGoing, &tu);
  if (rc != CXError_Success || !tu) {
    out.error = rc == CXError_Crashed ? "libclang crashed while parsing it"
                                      : "libclang could not parse it";
    if (tu) LC(clang_disposeTranslationUnit)(tu);
    LC(clang_disposeIndex)(index);
    return out;
  }
  // Where clang gives up on the rest of the file (it cuts the parse off when
  // brackets nest deeper than -fbracket-depth), what it read is not the file:
  // say so, rather than report the functions after that point as missing.
  for (unsigned i = 0, n = LC(clang_getNumDiagnostics)(tu); i < n; ++i) {
    CXDiagnostic d = LC(clang_getDiagnostic)(tu, i);
    const std::string msg = take(LC(clang_getDiagnosticSpelling)(d));
    // (A fatal error, reported as an error under CXTranslationUnit_KeepGoing.)
    const bool cut = LC(clang_getDiagnosticSeverity)(d) >= CXDiagnostic_Error &&
                     msg.find("nesting level exceeded") != std::string::npos;
    LC(clang_disposeDiagnostic)(d);
    if (cut) {
      out.error = "clang: " + msg;
      LC(clang_disposeTranslationUnit)(tu);
      LC(clang_disposeIndex)(index);
      return out;
    }
  }
  out.parsed = true;
  const std::string code = blank_comments(text);
  for (const CXCursor& c : cursor_children(LC(clang_getTranslationUnitCursor)(tu))) {
    if (!LC(clang_Location_isFromMainFile)(LC(clang_getCursorLocation)(c))) continue;
    const CXCursorKind kind = LC(clang_getCursorKind)(c);
    if (kind == CXCursor_FunctionDecl) read_function(code, c, out);
    if (kind == CXCursor_StructDecl && LC(clang_isCursorDefinition)(c)) read_struct(c, out);
  }
  if (CXFile file = LC(clang_getFile)(tu, path.c_str())) read_tokens(tu, file, text.size(), out);
  LC(clang_disposeTranslationUnit)(tu);
  LC(clang_disposeIndex)(index);
  return out;
}

// The parse crosses from a child process as length-prefixed strings.
class Writer {
 public:
  void num(std::uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    num(s.size());
    out_ += s;
  }
  const std::string& data() const { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  bool num(std::uint64_t* v) {
    if (in_.size() - at_ < sizeof *v) return false;
    std::memcpy(v, in_.data() + at_, sizeof *v);
    at_ += sizeof *v;
    return true;
  }
  bool str(std::string* s) {
    std::uint64_t n = 0;
    if (!num(&n) || in_.size() - at_ < n) return false;
    *s = in_.substr(at_, n);
    at_ += n;
    return true;
  }

 private:
  const std::string& in_;
  std::size_t at_ = 0;
};

std::string serialize(const CSource& s) {
  Writer w;
  w.num(s.parsed);
  w.str(s.error);
  w.num(s.functions.size());
  for (const auto& f : s.functions) {
    w.str(f.name);
    w.num(static_cast<std::uint64_t>(f.params));
    w.str(f.param_text);
    w.num(f.is_definition);
    w.num(f.is_static);
    w.num(f.returns.size());
    for (const auto& r : f.returns) w.str(r.expr);
    w.num(f.assignments.size());
    for (const auto& a : f.assignments) {
      w.str(a.variable);
      w.str(a.value);
    }
  }
  for (const auto* set : {&s.identifiers, &s.fields}) {
    w.num(set->size());
    for (const auto& id : *set) w.str(id);
  }
  return w.data();
}

bool deserialize(const std::string& in, CSource* s) {
  Reader r(in);
  std::uint64_t n = 0, v = 0;
  if (!r.num(&v) || !r.str(&s->error) || !r.num(&n)) return false;
  s->parsed = v != 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    CFunction f;
    std::uint64_t params = 0, def = 0, st = 0, k = 0;
    if (!r.str(&f.name) || !r.num(&params) || !r.str(&f.param_text) || !r.num(&def) ||
        !r.num(&st) || !r.num(&k))
      return false;
    f.params = static_cast<int>(params);
    f.is_definition = def != 0;
    f.is_static = st != 0;
    f.returns.resize(k);
    for (auto& ret : f.returns)
      if (!r.str(&ret.expr)) return false;
    if (!r.num(&k)) return false;
    f.assignments.resize(k);
    for (auto& a : f.assignments)
      if (!r.str(&a.variable) || !r.str(&a.value)) return false;
    s->functions.push_back(std::move(f));
  }
  for (auto* set : {&s->identifiers, &s->fields}) {
    if (!r.num(&n)) return false;
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string id;
      if (!r.str(&id)) return false;
      set->insert(std::move(id));
    }
  }
  return true;
}

constexpr unsigned kParseSeconds = 120;

// The parse runs in a child process with a deadline (kcheck/libclang.h):
// whatever the text, this returns, with a reason when the child did not
// finish.
CSource parse_in_child(const std::string& text) {
  CSource out;
  ChildOutput child = run_in_child([&] { return serialize(parse_uncached(text)); }, kParseSeconds);
  if (!child.error.empty()) {
    out.error = std::move(child.error);
    return out;
  }
  if (!deserialize(child.data, &out)) {
    CSource failed;
    failed.error = "libclang's parse did not complete";
    return failed;
  }
  return out;
}

#undef LC

}  // namespace

const CFunction* CSource::definition(std::string_view name) const {
  for (const auto& f : functions)
    if (f.is_definition && f.name == name) return &f;
  return nullptr;
}

bool CSource::declares_static(std::string_view name) const {
  return std::any_of(functions.begin(), functions.end(),
                     [&](const CFunction& f) { return f.is_static && f.name == name; });
}

const CSource& parse_c_source(const std::string& text) {
  // A few entries: detection asks several questions of one file (and of the
  // file with its header appended).
  static std::mutex mutex;
  static std::deque<std::pair<std::string, CSource>> cache;
  const std::lock_guard lock(mutex);
  for (const auto& [t, s] : cache)
    if (t == text) return s;
  if (cache.size() >= 4) cache.pop_front();
  cache.emplace_back(text, parse_in_child(text));
  return cache.back().second;
}

std::string blank_comments(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      const std::size_t end = out.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (std::size_t k = i; k < stop; ++k)
        if (out[k] != '\n') out[k] = ' ';
      i = stop - 1;
    } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    }
  }
  return out;
}

std::string collapse_blanks(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace diffsched::tools
