// diffsched fn's extraction, inside (fn/extract.h is the interface): the
// libclang helpers, the main file's locations and tokens, the C type
// description and the Extractor that walks one translation unit. Only the
// parsing child runs this code (kcheck/libclang.h). Split over
//   ctype.cpp   C types -> CType (describe)
//   source.cpp  locations and tokens of the main file
//   extract.cpp the Extractor: the closure, externals, globals
//   unit.cpp    the public entry (the child, its JSON) and compile_args
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <clang-c/Index.h>
#include <nlohmann/json.hpp>

#include "fn/extract.h"
#include "kcheck/libclang.h"

namespace diffsched::fn {

NLOHMANN_JSON_SERIALIZE_ENUM(TypeKind, {{TypeKind::kVoid, "void"},
                                        {TypeKind::kBool, "bool"},
                                        {TypeKind::kInteger, "integer"},
                                        {TypeKind::kEnum, "enum"},
                                        {TypeKind::kFloat, "float"},
                                        {TypeKind::kPointer, "pointer"},
                                        {TypeKind::kArray, "array"},
                                        {TypeKind::kStruct, "struct"},
                                        {TypeKind::kFunctionPointer, "function-pointer"},
                                        {TypeKind::kFunction, "function"},
                                        {TypeKind::kOther, "other"}})
NLOHMANN_JSON_SERIALIZE_ENUM(PieceKind, {{PieceKind::kInclude, "include"},
                                         {PieceKind::kMacro, "macro"},
                                         {PieceKind::kType, "type"},
                                         {PieceKind::kData, "data"},
                                         {PieceKind::kFunction, "function"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CType, kind, spelling, canonical, size, bits, is_signed,
                                   is_const, is_union, tag, array_size, name, inner,
                                   prototyped, variadic)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Piece, kind, name, line, begin, end, prototype)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Signature, name, result, params, is_static, is_inline,
                                   is_variadic, line)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(External, name, is_function, in_shim, declared_in_file,
                                   implicit, type, header, result, params, prototyped)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GlobalRead, name, type, defined_in_file, is_static, in_shim,
                                   has_initializer, read, written, address_taken,
                                   written_elsewhere, constant, per_cpu,
                                   read_by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BoundFunction, name, type, shape)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Extraction, error, function, pieces, externals, globals,
                                   indirect_calls, missing_includes, shim_own, parse_errors,
                                   diagnostics, bound, defines)


namespace detail {

// libclang's clang_f (kcheck/libclang.h: loaded with dlopen, in the child only).
#define FN_LC(f) DIFFSCHED_LC(f)

using tools::take_string;

inline std::string spelling(CXCursor c) { return take_string(FN_LC(clang_getCursorSpelling)(c)); }
inline std::string type_spelling(CXType t) { return take_string(FN_LC(clang_getTypeSpelling)(t)); }
inline CXCursorKind kind_of(CXCursor c) { return FN_LC(clang_getCursorKind)(c); }
inline bool is_null(CXCursor c) { return FN_LC(clang_Cursor_isNull)(c) != 0; }

inline constexpr std::size_t kNowhere = std::string::npos;

// The main file of the parse (the child parses one file at a time; source.cpp).
extern CXFile g_main_file;

struct Range {
  std::size_t begin = kNowhere, end = kNowhere;
  bool ok() const { return begin != kNowhere && end != kNowhere && begin <= end; }
};

std::size_t main_offset(CXSourceLocation loc);
Range main_extent(CXCursor c);
unsigned line_of(CXCursor c);
std::string file_of(CXCursor c);
bool in_main_file(CXCursor c);

struct Token {
  std::size_t begin = 0, end = 0;
  CXTokenKind kind = CXToken_Punctuation;
  std::string text;
};

std::vector<Token> main_tokens(CXTranslationUnit tu, CXFile file, std::size_t size);
std::size_t token_at(const std::vector<Token>& tokens, std::size_t offset);

// A C type as a CType, pointers and arrays at most `depth` deep, struct
// fields `field_depth` levels below (ctype.cpp).
CType describe(CXType type, int depth, int field_depth);
// The field depth describe() is called with for parameters, globals and
// externals (ExtractOptions::field_depth; set once in the child).
void set_field_depth(int levels);
int field_depth();

// ---- the file's top-level declarations -------------------------------------------

struct Item {
  CXCursor cursor;
  PieceKind kind = PieceKind::kFunction;
  std::string name;
  Range range;
  unsigned line = 0;
  bool is_definition = false;
  bool included = false;
};

class Extractor {
 public:
  Extractor(CXTranslationUnit tu, const std::string& text, const std::string& path,
            std::string shim_dir)
      : tu_(tu), text_(text), path_(path), shim_dir_(std::move(shim_dir)) {}

  Extraction run(std::string_view function, const std::vector<std::string>& roots = {},
                 const std::vector<std::string>& stubbed = {});
  // The kernel options --config or the spec's `config` lines define
  // (ExtractOptions::defines, "NAME=VALUE"): a hint tells them from the shim's.
  void given_defines(const std::vector<std::string>& defines) {
    for (const auto& d : defines) given_defines_.insert(d.substr(0, d.find('=')));
  }

 private:
  void collect();
  std::size_t add_item(CXCursor c, PieceKind kind);
  // The top-level item that holds `decl` (a declaration of the main file), or kNowhere.
  std::size_t item_of(CXCursor decl);
  void include(std::size_t item);
  void walk(std::size_t item);
  void on_reference(CXCursor node, CXCursor ref, const std::string& reader, int access);
  void note_external(CXCursor ref, bool is_function);
  void include_macros();
  const std::set<std::string>& header_identifiers(CXFile file);
  // clang's first error in the main file, "LINE: message", or "".
  std::string first_error() const;
  // Where `function` is defined in a block the preprocessor skipped: " (it
  // is in a block ..., line N: `#ifdef CONFIG_X`; ...)", else "".
  std::string skipped_definition(std::string_view function) const;
  // The hint for a skipped block opened by `directive` (at `begin`): the
  // options its test names, on or off here, and the fix when there is one.
  std::string skipped_hint(const std::string& directive, std::size_t begin) const;
  // The CONFIG_ macros the parse defines (the shim's and the given ones).
  std::set<std::string> defined_options() const;
  Range piece_range(const Item& item) const;
  std::string text_of(Range r) const {
    return r.ok() && r.end <= text_.size() ? text_.substr(r.begin, r.end - r.begin) : std::string();
  }
  bool in_shim(CXCursor c) const {
    if (in_main_file(c)) return false;
    const std::string f = file_of(c);
    return !f.empty() && f.size() > shim_dir_.size() && f.compare(0, shim_dir_.size(), shim_dir_) == 0 &&
           f[shim_dir_.size()] == '/';
  }
  std::string shim_relative(CXCursor c) const {
    const std::string f = file_of(c);
    return in_shim(c) ? f.substr(shim_dir_.size() + 1) : std::string();
  }

  CXTranslationUnit tu_;
  const std::string& text_;
  const std::string& path_;
  std::string shim_dir_;
  std::vector<Token> tokens_;
  std::vector<Item> items_;
  std::unordered_multimap<unsigned, std::size_t> by_hash_;
  std::map<std::string, std::vector<std::size_t>> macros_;  // name -> macro items, in file order
  std::set<std::string> declared_names_;                    // functions and variables the file declares
  std::vector<std::size_t> worklist_;
  Extraction out_;
  std::map<std::string, External> externals_;
  std::map<std::string, GlobalRead> globals_;
  std::set<std::string> indirect_seen_;
  std::map<std::string, CType> used_as_;  // an undeclared callee -> the type its value is converted to
  bool scan_writes_ = false;  // walking the file's other functions: only writes to known globals
  std::set<std::string> stubbed_;  // the file's functions made stubs (ExtractOptions::stubbed)
  std::set<std::string> given_defines_;  // given_defines()
  std::map<std::string, std::set<std::string>> header_names_;  // header_identifiers()
};

// The parse and walk in the child: the Extraction as JSON (extract.cpp).
std::string extract_in_child(const std::string& text, std::string_view function,
                             const std::string& shim_dir, const ExtractOptions& options);

}  // namespace detail
}  // namespace diffsched::fn
