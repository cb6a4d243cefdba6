// `diffsched mutate`: source-level mutants of a kernel C file, made only
// inside the functions under test (cpudl_* of a cpudeadline.c, or the pick
// function), one change each (docs/mutation.md).
//
//   auto src = mutate::tokenize(text);                 // comments, strings, # lines skipped
//   auto fns = mutate::find_functions(src);            // top-level definitions and bodies
//   auto all = mutate::generate(text, kCpudlTool, "", {});
//   auto some = mutate::sample(all, 30, seed);         // --max-mutants N --seed K
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "subject_tools.h"

namespace diffsched::mutate {

enum class TokKind { kIdent, kNumber, kPunct, kString, kChar };

struct Token {
  TokKind kind;
  std::size_t offset;  // byte offset in the text
  std::size_t length;
  int line;            // 1-based
  std::string_view text;
};

// C tokens of `text` in order. Comments, string and character literals are
// recognised (literals are tokens of their own kind, never mutated);
// preprocessor lines (with their backslash continuations) are skipped whole.
std::vector<Token> tokenize(std::string_view text);

struct Function {
  std::string name;
  std::size_t body_begin;  // token index of the body's '{'
  std::size_t body_end;    // token index of its matching '}'
  int line;                // line of the name
};

// The function definitions at file scope: NAME ( ... ) [attributes] { ... },
// braces matched. Struct/union/enum bodies and initialisers are not functions.
std::vector<Function> find_functions(const std::vector<Token>& tokens);

// The operators (--operators takes their names).
enum class Operator {
  kRelational,     // ror:  < <= > >= == !=
  kDlTimeBefore,   // dl_time_before(a, b) -> (b, a) and plain a < b
  kOffByOne,       // an integer literal of an arithmetic/shift/index operand +-1; [i] -> [i+-1]
  kNegate,         // if/while/for conditions negated
  kDelete,         // each store, each cpumask_* call, each break/return deleted
  kSwapArgs,       // adjacent call arguments swapped (the compiler rejects other types)
  kConstant,       // IDX_INVALID, 0, 1, nr_cpu_ids replaced by each other
};
inline constexpr Operator kAllOperators[] = {
    Operator::kRelational, Operator::kDlTimeBefore, Operator::kOffByOne, Operator::kNegate,
    Operator::kDelete,     Operator::kSwapArgs,     Operator::kConstant};
std::string_view operator_name(Operator op);
std::optional<Operator> operator_from_name(std::string_view name);

struct Mutant {
  std::string id;  // M0001, ... in source order (stable for a file)
  Operator op;
  std::string function;
  int line;
  std::string diff;         // "-old line\n+new line\n" of the changed lines
  std::string description;  // "`<` -> `<=`"
  std::string text;         // the whole mutated file
};

// The functions under test: every function named tool.mutate_prefix* (cpudl:
// cpudl_*), or `function` (a subject of shape kFunction: pick). Empty if the
// file has none.
std::vector<Function> functions_under_test(const std::vector<Token>& tokens,
                                           const SubjectTool& tool,
                                           const std::string& function);

// Every mutant of `text` by `ops`, one change each, duplicates (same text)
// and no-ops dropped, ids in source order.
std::vector<Mutant> generate(std::string_view text, const SubjectTool& tool,
                             const std::string& function,
                             const std::vector<Operator>& ops);

// At most `n` of `all`, chosen by `seed` (deterministic), in id order; all
// of them if n == 0 or n >= size.
std::vector<Mutant> sample(std::vector<Mutant> all, std::size_t n, std::uint64_t seed);

}  // namespace diffsched::mutate
