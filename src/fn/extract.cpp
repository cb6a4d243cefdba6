#include "fn/extract.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include <clang-c/Index.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kcheck/c_source.h"
#include "kcheck/libclang.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/json.h"
#include "util/text.h"

#include "fn/extract_internal.h"

namespace diffsched::fn::detail {


std::size_t Extractor::add_item(CXCursor c, PieceKind kind) {
  Item it{c, kind, spelling(c), main_extent(c), line_of(c), FN_LC(clang_isCursorDefinition)(c) != 0,
          false};
  if (!it.range.ok()) return kNowhere;
  const std::size_t index = items_.size();
  by_hash_.emplace(FN_LC(clang_hashCursor)(c), index);
  if (kind == PieceKind::kMacro) macros_[it.name].push_back(index);
  if (kind == PieceKind::kFunction || kind == PieceKind::kData) declared_names_.insert(it.name);
  items_.push_back(std::move(it));
  return index;
}

void Extractor::collect() {
  for (const CXCursor& c : tools::cursor_children(FN_LC(clang_getTranslationUnitCursor)(tu_))) {
    if (!in_main_file(c)) continue;
    switch (kind_of(c)) {
      case CXCursor_FunctionDecl: add_item(c, PieceKind::kFunction); break;
      case CXCursor_VarDecl: add_item(c, PieceKind::kData); break;
      case CXCursor_StructDecl: case CXCursor_UnionDecl: case CXCursor_EnumDecl:
      case CXCursor_TypedefDecl:
        add_item(c, PieceKind::kType);
        break;
      case CXCursor_MacroDefinition: add_item(c, PieceKind::kMacro); break;
      case CXCursor_InclusionDirective: {
        const CXFile included = FN_LC(clang_getIncludedFile)(c);
        const Range r = main_extent(c);
        // `#include <x>` as written: the directive's text from its '<' or '"'.
        std::string written = text_of(r);
        const std::size_t open = written.find_first_of("<\"");
        written = open == std::string::npos ? spelling(c) : written.substr(open);
        if (!included) {
          out_.missing_includes.push_back(written);
        } else if (const std::size_t i = add_item(c, PieceKind::kInclude); i != kNowhere) {
          items_[i].name = written;
          include(i);  // every include the shim resolves
        }
        break;
      }
      default:
        break;
    }
  }
}

std::size_t Extractor::item_of(CXCursor decl) {
  // Climb to the declaration at file scope (a field's struct, an enumerator's enum).
  CXCursor c = decl;
  for (int steps = 0; steps < 256 && !is_null(c); ++steps) {
    const CXCursor parent = FN_LC(clang_getCursorSemanticParent)(c);
    if (is_null(parent) || kind_of(parent) == CXCursor_TranslationUnit) break;
    if (FN_LC(clang_isInvalid)(kind_of(parent))) break;
    c = parent;
  }
  const auto [first, last] = by_hash_.equal_range(FN_LC(clang_hashCursor)(c));
  for (auto it = first; it != last; ++it)
    if (FN_LC(clang_equalCursors)(items_[it->second].cursor, c)) return it->second;
  return kNowhere;
}

void Extractor::include(std::size_t item) {
  if (item == kNowhere || items_[item].included) return;
  items_[item].included = true;
  worklist_.push_back(item);
}

// How a reference is used: read, written (the target of `=`), both (`+=`,
// `++`), or its address taken (`&x`: the callee may read or write it).
enum Access { kRead = 1, kWrite = 2, kAddress = 4 };

// The operator token of a binary or unary operator cursor: the first token
// after its first operand (binary), or its first or last token (unary).
std::string operator_token(const std::vector<Token>& tokens, CXCursor op, const std::vector<CXCursor>& kids,
                           bool binary) {
  const Range at = main_extent(op);
  if (!at.ok() || kids.empty()) return {};
  if (binary) {
    const Range lhs = main_extent(kids[0]);
    if (!lhs.ok() || lhs.end >= at.end) return {};
    const std::size_t i = token_at(tokens, lhs.end);
    // Inside a macro expansion the operands share one location: unknown.
    if (lhs.end == at.begin || i >= tokens.size() || tokens[i].begin >= at.end) return {};
    return tokens[i].text;
  }
  const std::size_t i = token_at(tokens, at.begin);
  if (i >= tokens.size()) return {};
  const std::string& first = tokens[i].text;
  if (first == "++" || first == "--" || first == "&" || first == "*" || first == "-" ||
      first == "!" || first == "~")
    return first;
  // Postfix: the last token of the extent.
  const std::size_t j = token_at(tokens, at.end);
  return j > 0 ? tokens[j - 1].text : std::string();
}

bool annotated(CXCursor c, std::string_view note) {
  for (const CXCursor& k : tools::cursor_children(c))
    if (kind_of(k) == CXCursor_AnnotateAttr && spelling(k) == note) return true;
  return false;
}

// A shim declaration marked KSHIM_ELSEWHERE (annotate "kshim:elsewhere"):
// defined in another kernel file, not by the runtime: a function is a stub
// (with the shim's prototype), a variable a global the spec covers.
bool elsewhere(CXCursor c) { return annotated(c, "kshim:elsewhere"); }

void Extractor::note_external(CXCursor ref, bool is_function) {
  const std::string name = spelling(ref);
  if (name.empty() || name.starts_with("__builtin")) return;
  const CXCursor canonical = FN_LC(clang_getCanonicalCursor)(ref);
  if (file_of(canonical).empty() && file_of(ref).empty()) return;  // a builtin
  auto [it, fresh] = externals_.try_emplace(name);
  if (!fresh) return;
  External& e = it->second;
  e.name = name;
  e.is_function = is_function;
  const bool shim_declared = in_shim(canonical) || in_shim(ref);
  e.in_shim = shim_declared && !elsewhere(canonical) && !elsewhere(ref);
  e.header = in_shim(canonical) ? shim_relative(canonical) : shim_relative(ref);
  e.declared_in_file = declared_names_.count(name) != 0;
  e.implicit = !shim_declared && !e.declared_in_file;
  const CXType type = FN_LC(clang_getCursorType)(ref);
  e.type = type_spelling(type);
  if (!is_function) return;
  e.result = describe(FN_LC(clang_getResultType)(type), 0, field_depth());
  const int n = FN_LC(clang_getNumArgTypes)(type);
  e.prototyped = !e.implicit && type.kind == CXType_FunctionProto;
  for (int i = 0; e.prototyped && i < n; ++i) {
    CType t = describe(FN_LC(clang_getArgType)(type, static_cast<unsigned>(i)), 0, field_depth());
    t.name = fmt::format("a{}", i);
    e.params.push_back(std::move(t));
  }
  e.prototyped = e.prototyped && !FN_LC(clang_isFunctionTypeVariadic)(type);
}

void Extractor::on_reference(CXCursor node, CXCursor ref, const std::string& reader, int access) {
  const CXCursorKind kind = kind_of(ref);
  if (scan_writes_) {  // a function outside the closure: only who writes the closure's globals
    if (kind != CXCursor_VarDecl || !(access & (kWrite | kAddress))) return;
    if (!FN_LC(clang_Cursor_hasVarDeclGlobalStorage)(ref) ||
        kind_of(FN_LC(clang_getCursorSemanticParent)(ref)) != CXCursor_TranslationUnit)
      return;  // a local, or a function's own static, of the same name
    if (const auto it = globals_.find(spelling(ref)); it != globals_.end())
      it->second.written_elsewhere = true;
    return;
  }
  switch (kind) {
    case CXCursor_FunctionDecl: {
      const CXCursor def = FN_LC(clang_getCursorDefinition)(ref);
      const bool defined_here = !is_null(def) && in_main_file(def);
      if (in_main_file(ref)) include(item_of(ref));
      if (defined_here) include(item_of(def));
      // A function of the file the spec makes a stub is an external too:
      // its declaration stays in the unit, the harness defines it.
      if (!defined_here || stubbed_.count(spelling(ref))) note_external(ref, true);
      break;
    }
    case CXCursor_VarDecl: {
      if (!FN_LC(clang_Cursor_hasVarDeclGlobalStorage)(ref)) break;
      const CXCursor parent = FN_LC(clang_getCursorSemanticParent)(ref);
      const bool file_scope = kind_of(parent) == CXCursor_TranslationUnit;
      if (!file_scope && FN_LC(clang_Cursor_getStorageClass)(ref) != CX_SC_Extern) break;  // a local static
      const CXCursor def = FN_LC(clang_getCursorDefinition)(ref);
      const bool ref_here = in_main_file(ref);
      const bool def_here = !is_null(def) && in_main_file(def);
      if (ref_here && file_scope) include(item_of(ref));
      if (def_here) include(item_of(def));
      const bool storage_extern = FN_LC(clang_Cursor_getStorageClass)(ref) == CX_SC_Extern;
      const bool defined_in_file = def_here || (ref_here && file_scope && !storage_extern);
      if (!defined_in_file) note_external(ref, false);
      if (reader.empty()) break;  // referenced by data or a type, not read by a function
      const std::string name = spelling(ref);
      auto [it, fresh] = globals_.try_emplace(name);
      GlobalRead& g = it->second;
      if (fresh) {
        const CXCursor decl = def_here ? def : ref;
        g.name = name;
        g.type = describe(FN_LC(clang_getCursorType)(decl), 0, field_depth());
        g.defined_in_file = defined_in_file;
        g.is_static = FN_LC(clang_Cursor_getStorageClass)(decl) == CX_SC_Static;
        const CXCursor canonical = FN_LC(clang_getCanonicalCursor)(ref);
        g.in_shim = (in_shim(canonical) || in_shim(ref)) && !elsewhere(canonical) && !elsewhere(ref);
        g.has_initializer = def_here && !is_null(FN_LC(clang_Cursor_getVarDeclInitializer)(def));
        // DEFINE_PER_CPU / DECLARE_PER_CPU of kshim/percpu.h (KSHIM_PER_CPU).
        g.per_cpu = annotated(decl, "kshim:per-cpu") || annotated(canonical, "kshim:per-cpu") ||
                    annotated(ref, "kshim:per-cpu");
      }
      if (access & kRead) g.read = true;
      if (access & kWrite) g.written = true;
      if (access & kAddress) g.address_taken = true;
      if (std::find(g.read_by.begin(), g.read_by.end(), reader) == g.read_by.end())
        g.read_by.push_back(reader);
      break;
    }
    case CXCursor_TypedefDecl: case CXCursor_StructDecl: case CXCursor_UnionDecl:
    case CXCursor_EnumDecl: case CXCursor_EnumConstantDecl: case CXCursor_FieldDecl: {
      if (in_main_file(ref)) include(item_of(ref));
      const CXCursor def = FN_LC(clang_getCursorDefinition)(ref);
      if (!is_null(def) && in_main_file(def)) include(item_of(def));
      break;
    }
    default:
      break;
  }
  (void)node;
}

// One declaration of the closure, walked with an explicit stack: every
// reference it makes, with how it is used.
void Extractor::walk(std::size_t index) {
  const Item& item = items_[index];
  const bool reads = item.kind == PieceKind::kFunction && item.is_definition;
  const std::string reader = reads && !stubbed_.count(item.name) ? item.name : std::string();
  struct Frame {
    CXCursor cursor;
    int access;  // how the value of this expression is used (Access bits)
  };
  std::vector<Frame> stack = {{item.cursor, kRead}};
  if (reads && !scan_writes_ && stubbed_.count(item.name)) {
    // A stub's declaration: its parameters' types, not its body.
    stack.clear();
    const std::vector<CXCursor> kids = tools::cursor_children(item.cursor);
    for (std::size_t i = kids.size(); i-- > 0;)
      if (kind_of(kids[i]) != CXCursor_CompoundStmt) stack.push_back({kids[i], kRead});
  }
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    const CXCursor c = f.cursor;
    const CXCursorKind kind = kind_of(c);
    const std::vector<CXCursor> kids = tools::cursor_children(c);
    std::vector<int> kid_access(kids.size(), kRead);
    if (kind == CXCursor_BinaryOperator && kids.size() == 2) {
      const std::string op = operator_token(tokens_, c, kids, true);
      if (op == "=") kid_access[0] = kWrite;
    } else if (kind == CXCursor_CompoundAssignOperator && kids.size() == 2) {
      kid_access[0] = kRead | kWrite;
    } else if (kind == CXCursor_UnaryOperator && kids.size() == 1) {
      const std::string op = operator_token(tokens_, c, kids, false);
      if (op == "++" || op == "--") kid_access[0] = kRead | kWrite;
      if (op == "&") kid_access[0] = kRead | kAddress;
    } else if (kind == CXCursor_ArraySubscriptExpr && kids.size() == 2) {
      kid_access[0] = f.access | kRead;  // `table[i] = v` writes into table
    } else if (kind == CXCursor_MemberRefExpr || kind == CXCursor_ParenExpr ||
               kind == CXCursor_UnexposedExpr) {
      for (auto& a : kid_access) a = f.access | kRead;
    }
    if (kind == CXCursor_CallExpr && !scan_writes_) {
      const CXCursor callee = FN_LC(clang_getCursorReferenced)(c);
      if (is_null(callee) || kind_of(callee) != CXCursor_FunctionDecl) {
        std::string call = tools::collapse_blanks(text_of(main_extent(c)));
        if (call.size() > 120) call = call.substr(0, 117) + "...";
        if (!call.empty() && indirect_seen_.insert(call).second)
          out_.indirect_calls.push_back(call);
      }
    }
    // An implicit conversion of a call's value (`int` of an undeclared
    // callee passed as a `struct cpumask *`): the type the stub returns.
    if (kind == CXCursor_UnexposedExpr && kids.size() == 1 && kind_of(kids[0]) == CXCursor_CallExpr &&
        !scan_writes_) {
      const CXCursor callee = FN_LC(clang_getCursorReferenced)(kids[0]);
      // (an implicit declaration is located at its first call, in the file)
      if (!is_null(callee) && kind_of(callee) == CXCursor_FunctionDecl &&
          is_null(FN_LC(clang_getCursorDefinition)(callee)) && !in_shim(callee))
        used_as_.try_emplace(spelling(callee), describe(FN_LC(clang_getCursorType)(c), 0, 1));
    }
    if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr ||
        kind == CXCursor_TypeRef || kind == CXCursor_CallExpr || kind == CXCursor_MemberRef ||
        kind == CXCursor_VariableRef) {
      const CXCursor ref = FN_LC(clang_getCursorReferenced)(c);
      // A plain `x = v` writes x and does not read it.
      if (!is_null(ref) && !FN_LC(clang_equalCursors)(ref, c)) on_reference(c, ref, reader, f.access);
    }
    for (std::size_t i = kids.size(); i-- > 0;) stack.push_back({kids[i], kid_access[i]});
  }
}

// The piece's text range: a declaration with its `;`, a macro from its `#`.
Range Extractor::piece_range(const Item& item) const {
  Range r = item.range;
  if (item.kind == PieceKind::kMacro) {
    std::size_t i = token_at(tokens_, r.begin);
    // `# define NAME`: back over `define` and `#`.
    if (i >= 2 && tokens_[i - 1].text == "define" && tokens_[i - 2].text == "#")
      r.begin = tokens_[i - 2].begin;
    return r;
  }
  if (item.kind == PieceKind::kInclude) {
    const std::size_t i = token_at(tokens_, r.begin);
    if (i >= 1 && tokens_[i - 1].text == "#") r.begin = tokens_[i - 1].begin;
    // The directive ends with its line (clang's extent may stop before `>`).
    const std::size_t eol = text_.find('\n', r.end);
    r.end = eol == std::string::npos ? text_.size() : eol;
    return r;
  }
  if (item.kind == PieceKind::kFunction && item.is_definition) return r;
  // A declaration ends at its `;`: skip what clang leaves out (`} __packed;`),
  // a few tokens at most, never into a brace.
  for (std::size_t i = token_at(tokens_, r.end), n = 0; i < tokens_.size() && n < 16; ++i, ++n) {
    const std::string& t = tokens_[i].text;
    if (t == ";") {
      r.end = tokens_[i].end;
      break;
    }
    if (t == "{" || t == "}" || t == "#" || tokens_[i].kind == CXToken_Keyword) break;
  }
  return r;
}

Extraction Extractor::run(std::string_view function, const std::vector<std::string>& roots,
                          const std::vector<std::string>& stubbed) {
  const CXFile file = FN_LC(clang_getFile)(tu_, path_.c_str());
  g_main_file = file;
  if (file) tokens_ = main_tokens(tu_, file, text_.size());
  collect();
  // The function: its definition in the file.
  std::size_t target = kNowhere;
  bool declared = false;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (items_[i].kind != PieceKind::kFunction || items_[i].name != function) continue;
    declared = true;
    if (items_[i].is_definition && target == kNowhere) target = i;
  }
  if (target == kNowhere) {
    out_.error = declared ? fmt::format("`{}` is declared in it but not defined", function)
                          : fmt::format("no function `{}` is defined in it", function);
    // The name nowhere in the file (a function of another era: renamed,
    // removed): no other hint would be true.
    bool named = false;
    for (const Token& t : tokens_) named |= t.kind == CXToken_Identifier && t.text == function;
    if (!named) {
      // clang's first error too, if any (the file may not be C), never as
      // the reason the function is missing.
      const std::string first = first_error();
      out_.error += first.empty() ? " (the name does not occur in the file)"
                                  : fmt::format(" (the name does not occur in the file; clang's first error, line {})", first);
    }
    // A definition in a block the preprocessor skipped: an #ifdef of a
    // kernel option the shim leaves off (CONFIG_NUMA_BALANCING).
    else if (const std::string skipped = skipped_definition(function); !skipped.empty())
      out_.error += skipped;
    // clang may have lost the definition to an earlier error (an unknown
    // kernel macro before it): name the first one.
    else if (const std::string first = first_error(); !first.empty())
      out_.error += fmt::format(" (clang's first error, line {})", first);
    return std::move(out_);
  }
  stubbed_.insert(stubbed.begin(), stubbed.end());
  if (stubbed_.count(items_[target].name)) {
    out_.error = fmt::format("`stub {}` names the function checked", function);
    return std::move(out_);
  }
  const CXCursor fn = items_[target].cursor;
  Signature& sig = out_.function;
  sig.name = items_[target].name;
  sig.line = items_[target].line;
  const CXType fn_type = FN_LC(clang_getCursorType)(fn);
  sig.result = describe(FN_LC(clang_getResultType)(fn_type), 0, field_depth());
  const int n = FN_LC(clang_Cursor_getNumArguments)(fn);
  for (int i = 0; i < n; ++i) {
    const CXCursor p = FN_LC(clang_Cursor_getArgument)(fn, static_cast<unsigned>(i));
    CType t = describe(FN_LC(clang_getCursorType)(p), 0, field_depth());
    t.name = spelling(p);
    sig.params.push_back(std::move(t));
  }
  sig.is_static = FN_LC(clang_Cursor_getStorageClass)(fn) == CX_SC_Static;
  sig.is_inline = FN_LC(clang_Cursor_isFunctionInlined)(fn) != 0;
  sig.is_variadic = FN_LC(clang_Cursor_isVariadic)(fn) != 0;

  // Earlier declarations of the function (a prototype) come along.
  include(target);
  // The functions the spec binds to function pointers: roots too.
  for (const std::string& root : roots) {
    if (stubbed_.count(root)) {
      out_.error = fmt::format("`stub {0}` and a spec line binding {0} to a function pointer "
                               "(`fn {0}`): a function is one or the other",
                               root);
      return std::move(out_);
    }
    std::size_t def = kNowhere;
    for (std::size_t i = 0; i < items_.size() && def == kNowhere; ++i)
      if (items_[i].kind == PieceKind::kFunction && items_[i].name == root &&
          items_[i].is_definition)
        def = i;
    if (def == kNowhere) {
      out_.error = fmt::format("no function `{}` is defined in it (a spec line binds it to a "
                               "function pointer: `param PATH fn {}`)",
                               root, root);
      return std::move(out_);
    }
    const CXType type = FN_LC(clang_getCanonicalType)(FN_LC(clang_getCursorType)(items_[def].cursor));
    out_.bound.push_back(BoundFunction{root, type_spelling(type), describe(type, 0, 0)});
    include(def);
  }
  while (!worklist_.empty()) {
    const std::size_t i = worklist_.back();
    worklist_.pop_back();
    walk(i);
  }
  include_macros();
  // The file's other functions, for their writes to the globals the closure
  // reads: data that boot code replaces is not constant.
  scan_writes_ = true;
  for (std::size_t i = 0; i < items_.size(); ++i)
    if ((!items_[i].included || stubbed_.count(items_[i].name)) &&
        items_[i].kind == PieceKind::kFunction && items_[i].is_definition)
      walk(i);
  scan_writes_ = false;

  // Pieces in file order, and the unit's text: each byte once.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].included) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return items_[a].range.begin < items_[b].range.begin;
  });
  for (std::size_t i : order) {
    const Item& item = items_[i];
    Range r = piece_range(item);
    // A stub's definition: its declaration up to the body.
    const bool prototype =
        item.kind == PieceKind::kFunction && item.is_definition && stubbed_.count(item.name);
    for (const CXCursor& k : tools::cursor_children(item.cursor))
      if (prototype && kind_of(k) == CXCursor_CompoundStmt && main_extent(k).ok())
        r.end = main_extent(k).begin;
    out_.pieces.push_back(Piece{item.kind, item.name, item.line, r.begin, r.end, prototype});
    if (item.kind == PieceKind::kFunction && item.is_definition)
      for (const char* own : tools::kShimOverridable)
        if (item.name == own) out_.shim_own.push_back(own);
  }
  for (auto& [name, e] : externals_) {
    // An undeclared callee's result: what its value is converted to where it is used.
    if (const auto it = used_as_.find(name); e.implicit && it != used_as_.end() &&
        it->second.kind == TypeKind::kPointer)
      e.result = it->second;
    out_.externals.push_back(std::move(e));
  }
  for (auto& [name, g] : globals_) {
    g.constant = g.type.is_const ||
                 (g.defined_in_file && g.has_initializer && !g.written && !g.written_elsewhere &&
                  !g.address_taken);
    out_.globals.push_back(std::move(g));
  }
  // clang's errors: how many in the file, and those inside the unit's pieces.
  for (unsigned i = 0, count = FN_LC(clang_getNumDiagnostics)(tu_); i < count; ++i) {
    CXDiagnostic d = FN_LC(clang_getDiagnostic)(tu_, i);
    if (FN_LC(clang_getDiagnosticSeverity)(d) >= CXDiagnostic_Error) {
      ++out_.parse_errors;
      const CXSourceLocation loc = FN_LC(clang_getDiagnosticLocation)(d);
      const std::size_t at = main_offset(loc);
      const bool in_unit =
          at != kNowhere && std::any_of(out_.pieces.begin(), out_.pieces.end(), [&](const Piece& p) {
            return p.begin <= at && at < p.end;
          });
      if (in_unit && out_.diagnostics.size() < 20) {
        unsigned line = 0;
        FN_LC(clang_getExpansionLocation)(loc, nullptr, &line, nullptr, nullptr);
        out_.diagnostics.push_back(
            fmt::format("{}: {}", line, take_string(FN_LC(clang_getDiagnosticSpelling)(d))));
      }
    }
    FN_LC(clang_disposeDiagnostic)(d);
  }
  return std::move(out_);
}

// The overridable shim helpers (tools::kShimOverridable) that `text` defines.
std::vector<std::string> own_helpers(CXTranslationUnit tu) {
  std::vector<std::string> own;
  for (const CXCursor& c : tools::cursor_children(FN_LC(clang_getTranslationUnitCursor)(tu))) {
    if (kind_of(c) != CXCursor_FunctionDecl || !in_main_file(c) ||
        !FN_LC(clang_isCursorDefinition)(c))
      continue;
    const std::string name = spelling(c);
    for (const char* o : tools::kShimOverridable)
      if (name == o && std::find(own.begin(), own.end(), name) == own.end()) own.push_back(name);
  }
  return own;
}

// In the child: parse and extract; the result as JSON (the text stays with
// the parent, which has it: only ranges cross).
std::string extract_in_child(const std::string& text, std::string_view function,
                             const std::string& shim, const ExtractOptions& options) {
  Extraction out;
  set_field_depth(options.field_depth);
  const tools::ShimTree tree{shim};
  const std::string path = tree.unsaved_input("fn-input").string();  // no such directory: no neighbours
  if (const std::string why = tools::libclang_load_error(); !why.empty()) {
    out.error = why;
    return util::dump_json(nlohmann::json(out));
  }
  const std::string force = tree.sched_header().string();
  CXUnsavedFile unsaved{path.c_str(), text.data(), static_cast<unsigned long>(text.size())};
  CXIndex index = FN_LC(clang_createIndex)(0, 0);
  auto parse = [&](const std::vector<std::string>& own, unsigned flags, CXTranslationUnit* tu) {
    std::vector<std::string> strings = tools::shim_parse_args(shim, force, own);
    for (const std::string& d : options.defines) strings.push_back("-D" + d);
    std::vector<const char*> args;
    for (const auto& a : strings) args.push_back(a.c_str());
    return FN_LC(clang_parseTranslationUnit2)(index, path.c_str(), args.data(),
                                           static_cast<int>(args.size()), &unsaved, 1, flags, tu);
  };
  // First which shim helpers the file defines itself (every one left out of
  // the shim), then the file with exactly those left out.
  CXTranslationUnit tu = nullptr;
  std::vector<std::string> own;
  if (parse({std::begin(tools::kShimOverridable), std::end(tools::kShimOverridable)},
            CXTranslationUnit_KeepGoing, &tu) ==
          CXError_Success &&
      tu) {
    own = own_helpers(tu);
  }
  if (tu) FN_LC(clang_disposeTranslationUnit)(tu);
  tu = nullptr;
  const CXErrorCode rc =
      parse(own, CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord, &tu);
  if (rc != CXError_Success || !tu) {
    out.error = rc == CXError_Crashed ? "libclang crashed while parsing it"
                                      : "libclang could not parse it";
  } else {
    // Where clang gave up on the rest of the file, what it read is not the file.
    for (unsigned i = 0, n = FN_LC(clang_getNumDiagnostics)(tu); i < n && out.error.empty(); ++i) {
      CXDiagnostic d = FN_LC(clang_getDiagnostic)(tu, i);
      const std::string msg = take_string(FN_LC(clang_getDiagnosticSpelling)(d));
      if (FN_LC(clang_getDiagnosticSeverity)(d) >= CXDiagnostic_Error &&
          msg.find("nesting level exceeded") != std::string::npos)
        out.error = "clang: " + msg;
      FN_LC(clang_disposeDiagnostic)(d);
    }
    if (out.error.empty()) {
      Extractor x(tu, text, path, shim);
      x.given_defines(options.defines);
      out = x.run(function, options.roots, options.stubbed);
    }
    out.defines = options.defines;
  }
  if (tu) FN_LC(clang_disposeTranslationUnit)(tu);
  FN_LC(clang_disposeIndex)(index);
  return util::dump_json(nlohmann::json(out));
}


}  // namespace diffsched::fn::detail
