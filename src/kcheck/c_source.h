// The C front end of kernel-check's form detection: a kernel C file read by
// libclang (clang-14's C API), not by regexes over its text.
//
//   const CSource& src = parse_c_source(text);
//   if (const CFunction* f = src.definition("cpudl_set")) use(f->params, f->param_text);
//   for (const CReturn& r : src.definition("cpudl_find")->returns) ...;
//
// The text is parsed as kernel-check builds it (kshim/README: -nostdinc, the
// shim's include directories, kshim/sched/sched.h force-included), as an
// unsaved file in kshim/detect/, whose empty cpudeadline.h stands for the
// header staged later (which header that is depends on the form being
// detected). Each shim helper a file may define itself is left out
// (-DKSHIM_OWN_<name>), so a file's own definition never conflicts with the
// shim's. Parse errors are expected (an unknown kernel API, the header's
// struct left incomplete) and do not matter here: clang recovers and the
// declarations are in the AST.
//
// Bounded: clang's own limits (bracket depth 256, libclang's crash
// recovery), and the walk over the AST is iterative (an explicit stack), so
// no input nests it deeper than the heap allows. Every step is linear in the
// text (tokens, AST nodes); no regex runs over the text.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace diffsched::tools {

// A `return EXPR;` or `VAR = EXPR` / `T VAR = EXPR` in a function body, in
// source order: the expression's text (comments blanked, as written).
struct CReturn {
  std::string expr;  // "" for a bare `return;`
};
struct CAssignment {
  std::string variable;
  std::string value;
};

// One function declaration of the main file, in the order of the file.
struct CFunction {
  std::string name;
  int params = 0;           // clang's count: `(void)` and `()` are 0
  std::string param_text;   // between the parentheses, comments blanked, blanks collapsed
  bool is_definition = false;
  bool is_static = false;
  std::vector<CReturn> returns;          // definitions only
  std::vector<CAssignment> assignments;  // definitions only
};

struct CSource {
  bool parsed = false;
  std::string error;  // when !parsed: why libclang gave no translation unit
  std::vector<CFunction> functions;
  std::unordered_set<std::string> identifiers;  // every identifier token of the text
  // Struct fields defined in the text: "struct_name.field".
  std::unordered_set<std::string> fields;

  // The first definition of `name` in the text, or nullptr.
  const CFunction* definition(std::string_view name) const;
  // Whether the text declares (or defines) `name` static.
  bool declares_static(std::string_view name) const;
};

// The parse of `text` (the last few texts are cached: detection asks
// several questions of one file). O(size of the text and of the shim).
const CSource& parse_c_source(const std::string& text);

// `text` with its comments replaced by blanks (newlines kept), so that
// offsets are unchanged. Linear.
std::string blank_comments(const std::string& text);

// `s` with every run of blanks (space, tab, newline) made one space and the
// ends trimmed. Linear.
std::string collapse_blanks(std::string_view s);

}  // namespace diffsched::tools
