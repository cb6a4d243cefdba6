// diffsched fn's front end (issue 24 section 2): one function of a kernel C
// file, cut out with everything it needs from the same file, read by
// libclang as kernel-check builds a candidate (-nostdinc, the shim's include
// directories, kshim/sched/sched.h force-included).
//
//   Extraction x = fn::extract_function_from_file("kernel/sched/topology.c", "topology_span_sane");
//   if (!x.ok()) fail(x.error);                 // one line: "no function `f` is defined in it"
//   compile(x.text, x.compile_args(shim));      // one C unit that builds against kshim/
//   for (const External& e : x.externals) if (!e.in_shim) stub(e);
//   for (const GlobalRead& g : x.globals) if (!g.in_shim && !g.constant) cover_or_report(g);
//
// What it gives:
//  - the function's signature, each type with its canonical clang type and a
//    kind (integer of a width and signedness, bool, enum, pointer, array,
//    struct with its fields, function pointer): what inputs are made from;
//  - the closure of the function in its file, in source order: the functions
//    of the file it calls or takes the address of (transitively), the
//    file-scope types, the file's macros that any of that text expands
//    (and the macros those use), the file-scope data it touches, and the
//    file's #includes that the shim resolves;
//  - `text`: those pieces as verbatim source ranges, in file order;
//  - every function or variable referenced but not defined in the file, and
//    whether the shim declares it (the AST says where the declaration is);
//  - every file-scope or extern variable the function reads, directly or
//    through a function of the closure, with its type and whether it is
//    constant data (a const table, or initialised static data never written).
//
// Not followed: calls through function pointers (`tl->mask(cpu)`): what they
// read is unknown to the AST, so each is listed in `indirect_calls`.
//
// Bounded: the walk over the AST is iterative (an explicit stack) and visits
// each node once; the parse runs in a child process with a deadline
// (kcheck/libclang.h). No regex runs over the text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::fn {

enum class TypeKind {
  kVoid,
  kBool,
  kInteger,   // char, short, int, long, long long, signed or unsigned
  kEnum,      // `bits`/`is_signed` are its underlying integer's
  kFloat,
  kPointer,   // inner[0]: the pointee
  kArray,     // inner[0]: the element; array_size (-1: incomplete `[]`)
  kStruct,    // or union (is_union); inner: its fields, one level deep
  kFunctionPointer,  // inner[0]: the return type, then the parameter types
  kFunction,  // a function type itself (a pointee)
  kOther,     // vectors, complex, an unresolved type
};

std::string_view type_kind_name(TypeKind kind);

// A C type as clang resolves it. Pointers and arrays nest (`inner`), to a
// bounded depth; a struct lists its fields (each with `name`), whose own
// struct types are named but not expanded again.
struct CType {
  TypeKind kind = TypeKind::kOther;
  std::string spelling;   // as written: "cpumask_var_t", "const struct cpumask *"
  std::string canonical;  // clang's canonical type: "struct cpumask *"
  std::int64_t size = -1;  // sizeof in bytes; -1 incomplete or unknown
  unsigned bits = 0;        // integers, enums, bool: width in bits
  bool is_signed = false;   // integers, enums
  bool is_const = false;    // this type is const-qualified
  bool is_union = false;
  std::string tag;          // struct/union/enum tag ("cpumask"), "" if anonymous
  std::int64_t array_size = -1;
  std::string name;         // a struct field's name, a parameter's name
  std::vector<CType> inner;
  // kFunction, kFunctionPointer: inner is the result, then the parameters.
  bool prototyped = true;  // false for `int ()`: no parameter list (any arguments)
  bool variadic = false;   // `...`

  // The pointee or element (kind kPointer/kArray), or nullptr.
  const CType* target() const { return inner.empty() ? nullptr : &inner.front(); }
  // `struct cpumask *` or `const struct cpumask *` (cpumask_var_t included).
  bool is_cpumask_pointer() const;
  // `struct cpumask` itself (a C struct tag, not the cpumask subject).
  bool is_cpumask_struct() const;
};

// A global of this type is a scalar the spec can state (`global NAME = N`):
// an integer, an enum or a bool.
bool is_integer_global(const CType& type);

// One piece of the file in the extracted unit: a source range of the input.
enum class PieceKind { kInclude, kMacro, kType, kData, kFunction };
std::string_view piece_kind_name(PieceKind kind);

struct Piece {
  PieceKind kind = PieceKind::kFunction;
  std::string name;     // the macro, type, variable or function ("" for an include)
  unsigned line = 0;    // 1-based, in the input
  std::size_t begin = 0, end = 0;  // byte range of the input
  // A function of the file the spec makes a stub (`stub NAME`): its range is
  // the declaration before the body, and the unit adds the `;`.
  bool prototype = false;
};

struct Signature {
  std::string name;
  CType result;
  std::vector<CType> params;  // each with `name` ("" when unnamed)
  bool is_static = false;
  bool is_inline = false;
  bool is_variadic = false;
  unsigned line = 0;
};

// A function or variable the unit references and the file does not define.
struct External {
  std::string name;
  bool is_function = false;
  bool in_shim = false;          // some declaration of it is in a kshim/ header
  bool declared_in_file = false; // the file itself declares it (a prototype, `extern`)
  bool implicit = false;         // called without any declaration (C89 implicit int)
  std::string type;              // its declared type, "int (int)" (implicit: clang's guess)
  std::string header;            // the shim header declaring it, relative to kshim/
  // A function's result and parameter types (a stub is made from them,
  // docs/fn.md "Stubs"). An implicit call has no parameters known; its
  // result is what the call's value is converted to where it is used (a
  // `struct cpumask *` argument), else C89's `int`.
  CType result;
  std::vector<CType> params;
  bool prototyped = false;       // its parameters are known (a prototype)
};

// A file-scope or extern variable that the function or its closure reads
// or writes (the list is of every global touched; `read` says which).
struct GlobalRead {
  std::string name;
  CType type;
  bool defined_in_file = false;  // defined (not only declared) in the input
  bool is_static = false;        // file-local
  bool in_shim = false;          // declared by the shim (nr_cpu_ids, cpu_online_mask)
  bool has_initializer = false;
  bool read = false;             // its value is used (not only assigned)
  bool written = false;          // assigned somewhere in the closure (`=`, `+=`, `++`, `x[i] =`)
  bool address_taken = false;    // `&x`: what the callee does with it is not known here
  // Assigned, or its address taken, by a function of the file outside the
  // closure (topology.c's sched_init_numa() replaces sched_domain_topology
  // at boot): its initialiser is not the value the function sees.
  bool written_elsewhere = false;
  // Constant data: a const-qualified object (a const table), or file data
  // with an initialiser that no function of the file writes. Other globals are
  // state the caller must cover (an input, or a stated constant).
  bool constant = false;
  // A per-CPU variable (DEFINE_PER_CPU, DECLARE_PER_CPU: kshim/percpu.h's
  // KSHIM_PER_CPU mark): its KSHIM_NR_PERCPU copies, one per CPU.
  bool per_cpu = false;
  std::vector<std::string> read_by;  // the closure's functions that read it, in file order
};

// A function of the file that a spec binds to a function pointer
// (`param tl.mask fn sd_numa_mask`): an extra root of the closure.
struct BoundFunction {
  std::string name;
  std::string type;  // clang's canonical spelling of its type: "const struct cpumask *(int)"
  CType shape;       // the type itself (kFunction), for compatible_binding()
};

struct Extraction {
  std::string error;  // one line; empty when it worked

  Signature function;
  std::vector<Piece> pieces;   // in file order; may overlap (a typedef and its struct)
  std::string text;            // the unit: the pieces' text, in file order
  std::vector<External> externals;        // by name
  std::vector<GlobalRead> globals;        // by name
  std::vector<std::string> indirect_calls;  // calls through a pointer, as written: "tl->mask(cpu)"
  std::vector<std::string> missing_includes;  // #includes the shim cannot resolve: "<linux/sort.h>"
  std::vector<std::string> shim_own;  // KSHIM_OWN_ helpers the unit defines (compile_args)
  unsigned parse_errors = 0;   // clang's errors in the whole input (recovered from)
  std::vector<std::string> diagnostics;  // the errors inside the unit's pieces: "LINE: message" (20 at most)
  std::vector<BoundFunction> bound;       // ExtractOptions::roots, each with its type
  std::vector<std::string> defines;       // ExtractOptions::defines, for compile_args

  bool ok() const { return error.empty(); }
  // The closure's piece named `name`, or nullptr.
  const Piece* piece(std::string_view name) const;
  const External* external(std::string_view name) const;
  const GlobalRead* global(std::string_view name) const;
  // The compiler arguments that build `text` against the shim at `shim_dir`
  // as kernel-check builds a candidate (docs/kernel-check.md, without the
  // sanitizers and the output): -std=gnu11 -nostdinc, the shim's include
  // directories, sched.h force-included, -DKSHIM_OWN_<name> for each of
  // `shim_own`, -D for each of `defines`, the same -Werror= set. Append the file and -fsyntax-only
  // or -c.
  std::vector<std::string> compile_args(const std::filesystem::path& shim_dir) const;
};

// Struct fields are described two levels below a parameter or a global by
// default; a spec's `depth N` takes 1..kMaxFieldDepth.
constexpr int kDefaultFieldDepth = 2;
constexpr int kMaxFieldDepth = 4;

struct ExtractOptions {
  // The input's name in messages and its (virtual) path in the parse; its
  // directory is never searched for headers.
  std::string file_name = "input.c";
  // The shim (kshim/ of the source tree when empty).
  std::filesystem::path shim_dir;
  unsigned parse_seconds = 120;
  // Functions of the file the closure also starts from (the spec's `fn`
  // bindings): their helpers and the globals they read come along. A name
  // the file does not define is an error naming it.
  std::vector<std::string> roots;
  // Struct fields are described this many levels below a parameter or a
  // global (a struct by pointer: its fields; their structs' fields, ...);
  // deeper, a defined struct is zeroed (the spec's `depth N`).
  int field_depth = kDefaultFieldDepth;
  // Macros defined for the parse and the unit, "NAME=VALUE" (the spec's
  // `config CONFIG_X`: a kernel option the shim leaves off).
  std::vector<std::string> defines;
  // Functions of the file that are stubs instead (the spec's `stub NAME`):
  // the unit keeps their declaration, not their body, so what they call and
  // read stays out; calls to them are recorded and their results drawn as an
  // external's (docs/fn.md "Stubs"). A name the file does not define is left
  // to the externals; the checked function itself is an error.
  std::vector<std::string> stubbed;
};

// Extracts `function` from the C text `text`. On failure error is one line
// naming the reason: libclang missing or crashed, the text does not parse,
// no such function is defined in it. O(size of the text and of the shim).
Extraction extract_function(const std::string& text, std::string_view function,
                            const ExtractOptions& options = {});

// The same for a file (its name in messages); error if it cannot be read.
Extraction extract_function_from_file(const std::filesystem::path& file,
                                      std::string_view function, ExtractOptions options = {});

}  // namespace diffsched::fn
