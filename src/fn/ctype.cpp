// diffsched fn: C types as CTypes (extract_internal.h), and the names of
// the kinds.
#include <fmt/format.h>

#include "fn/extract_internal.h"

namespace diffsched::fn {

std::string_view type_kind_name(TypeKind kind) {
  switch (kind) {
    case TypeKind::kVoid: return "void";
    case TypeKind::kBool: return "bool";
    case TypeKind::kInteger: return "integer";
    case TypeKind::kEnum: return "enum";
    case TypeKind::kFloat: return "float";
    case TypeKind::kPointer: return "pointer";
    case TypeKind::kArray: return "array";
    case TypeKind::kStruct: return "struct";
    case TypeKind::kFunctionPointer: return "function-pointer";
    case TypeKind::kFunction: return "function";
    case TypeKind::kOther: return "other";
  }
  return "other";
}

std::string_view piece_kind_name(PieceKind kind) {
  switch (kind) {
    case PieceKind::kInclude: return "include";
    case PieceKind::kMacro: return "macro";
    case PieceKind::kType: return "type";
    case PieceKind::kData: return "data";
    case PieceKind::kFunction: return "function";
  }
  return "function";
}

// The kernel's `struct cpumask` (a C struct tag, not the cpumask subject).
constexpr std::string_view kCpumaskStructTag = "cpumask";

bool CType::is_cpumask_struct() const {
  return kind == TypeKind::kStruct && !is_union && tag == kCpumaskStructTag;
}

bool CType::is_cpumask_pointer() const {
  const CType* t = target();
  return kind == TypeKind::kPointer && t && t->is_cpumask_struct();
}

bool is_integer_global(const CType& type) {
  return type.kind == TypeKind::kInteger || type.kind == TypeKind::kEnum ||
         type.kind == TypeKind::kBool;
}


namespace detail {

// ---- types -----------------------------------------------------------------

// Pointers and arrays nest at most this deep; struct fields are listed at
// most this many levels below a parameter (a struct by pointer: its fields).
constexpr int kMaxTypeDepth = 6;
int field_depth_ = kDefaultFieldDepth;  // per child process: set_field_depth()

bool integer_kind(CXTypeKind k, bool* is_signed) {
  switch (k) {
    case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt:
    case CXType_ULong: case CXType_ULongLong: case CXType_UInt128: case CXType_Char16:
    case CXType_Char32:
      *is_signed = false;
      return true;
    case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
    case CXType_Long: case CXType_LongLong: case CXType_Int128: case CXType_WChar:
      *is_signed = true;
      return true;
    default:
      return false;
  }
}

CType describe(CXType type, int depth, int field_depth);

void describe_function(CXType fn, int depth, CType* out) {
  out->prototyped = fn.kind == CXType_FunctionProto;
  out->variadic = FN_LC(clang_isFunctionTypeVariadic)(fn) != 0;
  out->inner.push_back(describe(FN_LC(clang_getResultType)(fn), depth + 1, field_depth_));
  const int n = FN_LC(clang_getNumArgTypes)(fn);
  for (int i = 0; i < n; ++i)
    out->inner.push_back(
        describe(FN_LC(clang_getArgType)(fn, static_cast<unsigned>(i)), depth + 1, field_depth_));
}

void set_field_depth(int levels) { field_depth_ = levels; }
int field_depth() { return field_depth_; }

CType describe(CXType type, int depth, int field_depth) {
  CType out;
  const CXType canon = FN_LC(clang_getCanonicalType)(type);
  out.spelling = type_spelling(type);
  out.canonical = type_spelling(canon);
  out.is_const = FN_LC(clang_isConstQualifiedType)(type) || FN_LC(clang_isConstQualifiedType)(canon);
  const long long size = FN_LC(clang_Type_getSizeOf)(canon);
  out.size = size >= 0 ? size : -1;
  // Deeper, kOther, named; but a struct keeps its tag and size (no fields),
  // which the layout zeroes.
  const bool deep = depth > kMaxTypeDepth;
  if (deep && canon.kind != CXType_Record) return out;
  bool is_signed = false;
  switch (canon.kind) {
    case CXType_Void:
      out.kind = TypeKind::kVoid;
      break;
    case CXType_Bool:
      out.kind = TypeKind::kBool;
      out.bits = 1;
      break;
    case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Float128:
    case CXType_Half: case CXType_Float16:
      out.kind = TypeKind::kFloat;
      break;
    case CXType_Enum: {
      out.kind = TypeKind::kEnum;
      const CXCursor decl = FN_LC(clang_getTypeDeclaration)(canon);
      if (!FN_LC(clang_Cursor_isAnonymous)(decl)) out.tag = spelling(decl);
      const CXType base = FN_LC(clang_getCanonicalType)(FN_LC(clang_getEnumDeclIntegerType)(decl));
      integer_kind(base.kind, &out.is_signed);
      out.bits = out.size > 0 ? static_cast<unsigned>(out.size * 8) : 0;
      break;
    }
    case CXType_Pointer: {
      const CXType pointee = FN_LC(clang_getPointeeType)(canon);
      const CXType pcanon = FN_LC(clang_getCanonicalType)(pointee);
      if (pcanon.kind == CXType_FunctionProto || pcanon.kind == CXType_FunctionNoProto) {
        out.kind = TypeKind::kFunctionPointer;
        describe_function(pcanon, depth, &out);
      } else {
        out.kind = TypeKind::kPointer;
        out.inner.push_back(describe(pointee, depth + 1, field_depth));
      }
      break;
    }
    case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
    case CXType_DependentSizedArray:
      out.kind = TypeKind::kArray;
      out.array_size = canon.kind == CXType_ConstantArray ? FN_LC(clang_getArraySize)(canon) : -1;
      out.inner.push_back(describe(FN_LC(clang_getArrayElementType)(canon), depth + 1, field_depth));
      // `const int[4]`: the elements are const, so the array is.
      out.is_const = out.is_const || out.inner.back().is_const;
      break;
    case CXType_Record: {
      out.kind = TypeKind::kStruct;
      const CXCursor decl = FN_LC(clang_getTypeDeclaration)(canon);
      out.is_union = kind_of(decl) == CXCursor_UnionDecl;
      if (!FN_LC(clang_Cursor_isAnonymous)(decl)) out.tag = spelling(decl);
      if (field_depth > 0 && !deep) {
        struct Ctx {
          std::vector<CType>* fields;
          int depth, field_depth;
        } ctx{&out.inner, depth, field_depth};
        FN_LC(clang_Type_visitFields)(
            canon,
            [](CXCursor field, CXClientData data) {
              auto* c = static_cast<Ctx*>(data);
              CType f = describe(FN_LC(clang_getCursorType)(field), c->depth + 1, c->field_depth - 1);
              f.name = spelling(field);
              c->fields->push_back(std::move(f));
              return CXVisit_Continue;
            },
            &ctx);
      }
      break;
    }
    case CXType_FunctionProto: case CXType_FunctionNoProto:
      out.kind = TypeKind::kFunction;
      describe_function(canon, depth, &out);
      break;
    default:
      if (integer_kind(canon.kind, &is_signed)) {
        out.kind = TypeKind::kInteger;
        out.is_signed = is_signed;
        out.bits = out.size > 0 ? static_cast<unsigned>(out.size * 8) : 0;
      }
      break;
  }
  return out;
}

}  // namespace detail
}  // namespace diffsched::fn
