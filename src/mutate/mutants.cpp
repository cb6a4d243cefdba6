// Mutant generation (mutate/mutants.h): a C tokenizer that skips comments,
// literals and preprocessor lines, function bodies found by matched braces,
// and the operators of issue 16, each applied to one place of one function.
#include "mutate/mutants.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <numeric>
#include <random>
#include <set>
#include <span>

#include <fmt/format.h>

namespace diffsched::mutate {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr std::array<std::string_view, 3> kPunct3 = {"<<=", ">>=", "..."};
constexpr std::array<std::string_view, 20> kPunct2 = {"->", "++", "--", "<<", ">>", "<=", ">=",
                                                      "==", "!=", "&&", "||", "+=", "-=", "*=",
                                                      "/=", "%=", "&=", "|=", "^=", "##"};

}  // namespace

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  int line = 1;
  bool line_start = true;  // only blanks so far on this line
  auto push = [&](TokKind k, std::size_t b, std::size_t e, int l) {
    out.push_back(Token{k, b, e - b, l, s.substr(b, e - b)});
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
      line += static_cast<int>(std::count(s.begin() + i, s.begin() + stop, '\n'));
      i = stop;
      continue;
    }
    if (line_start && c == '#') {  // a preprocessor line, with continuations and comments
      while (i < s.size() && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
          ++line;
          i += 2;
        } else if (s.compare(i, 2, "/*") == 0) {
          const std::size_t end = s.find("*/", i + 2);
          const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
          line += static_cast<int>(std::count(s.begin() + i, s.begin() + stop, '\n'));
          i = stop;
        } else {
          ++i;
        }
      }
      continue;
    }
    line_start = false;
    const std::size_t b = i;
    if (c == '"' || c == '\'') {
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, s.size());
      push(c == '"' ? TokKind::kString : TokKind::kChar, b, i, line);
      continue;
    }
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      push(TokKind::kIdent, b, i, line);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.' ||
                              ((s[i] == '+' || s[i] == '-') && std::strchr("eEpP", s[i - 1]))))
        ++i;
      push(TokKind::kNumber, b, i, line);
      continue;
    }
    std::size_t len = 1;
    for (auto p : kPunct3)
      if (s.compare(i, 3, p) == 0) len = 3;
    if (len == 1)
      for (auto p : kPunct2)
        if (s.compare(i, 2, p) == 0) len = 2;
    i += len;
    push(TokKind::kPunct, b, i, line);
  }
  return out;
}

namespace {

bool is(const Token& t, std::string_view text) { return t.text == text; }

// match[i]: the index of the bracket matching tokens[i] ((), [], {}), or npos.
std::vector<std::size_t> match_brackets(const std::vector<Token>& t) {
  std::vector<std::size_t> m(t.size(), std::string_view::npos), stack;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != TokKind::kPunct) continue;
    const char c = t[i].text[0];
    if (t[i].length != 1) continue;
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back(i);
    } else if (c == ')' || c == ']' || c == '}') {
      const char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      // Unbalanced text (macro tricks): pop to the nearest opener of this kind.
      auto it = std::find_if(stack.rbegin(), stack.rend(),
                             [&](std::size_t k) { return t[k].text[0] == open; });
      if (it == stack.rend()) continue;
      const std::size_t k = *it;
      stack.erase(std::next(it).base(), stack.end());
      m[k] = i;
      m[i] = k;
    }
  }
  return m;
}

const std::set<std::string_view> kKeywords = {
    "if",     "while",  "for",      "switch", "return", "sizeof", "do",       "else",
    "case",   "default", "break",   "continue", "goto", "struct", "union",    "enum",
    "typeof", "__typeof__", "_Alignof", "alignof"};

}  // namespace

std::vector<Function> find_functions(const std::vector<Token>& t) {
  const auto m = match_brackets(t);
  std::vector<Function> out;
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != TokKind::kPunct) continue;
    if (is(t[i], "}")) {
      depth = std::max(0, depth - 1);
      continue;
    }
    if (!is(t[i], "{")) continue;
    if (depth > 0 || m[i] == std::string_view::npos) {
      ++depth;
      continue;
    }
    // File scope '{': a function body when NAME ( ... ) [ATTR ( ... )]* precedes it.
    std::size_t j = i;
    std::optional<std::size_t> name;
    while (j > 0 && is(t[j - 1], ")") && m[j - 1] != std::string_view::npos) {
      const std::size_t open = m[j - 1];
      if (open == 0 || t[open - 1].kind != TokKind::kIdent) break;
      name = open - 1;
      j = open - 1;
    }
    // A lone attribute without parentheses between ')' and '{' (e.g. __init):
    // not supported; such a definition is skipped like an initialiser.
    if (name && !kKeywords.contains(t[*name].text)) {
      // The outermost NAME(...) is the declarator: the first in the chain.
      out.push_back(Function{std::string(t[*name].text), i, m[i], t[*name].line});
      i = m[i];
      continue;
    }
    i = m[i];  // a struct, union, enum or initialiser at file scope
  }
  return out;
}

std::string_view operator_name(Operator op) {
  switch (op) {
    case Operator::kRelational: return "relational";
    case Operator::kDlTimeBefore: return "dl_time_before";
    case Operator::kOffByOne: return "off_by_one";
    case Operator::kNegate: return "negate";
    case Operator::kDelete: return "delete";
    case Operator::kSwapArgs: return "swap_args";
    case Operator::kConstant: return "constant";
  }
  return "?";
}

std::optional<Operator> operator_from_name(std::string_view name) {
  for (Operator op : kAllOperators)
    if (operator_name(op) == name) return op;
  return std::nullopt;
}

std::vector<Function> functions_under_test(const std::vector<Token>& tokens,
                                           const SubjectTool& tool,
                                           const std::string& function) {
  std::vector<Function> out;
  for (auto& f : find_functions(tokens))
    if (mutates_function(tool, f.name, function)) out.push_back(f);
  return out;
}

namespace {

struct Edit {
  std::size_t offset, length;
  std::string text;
};

struct Candidate {
  Operator op;
  std::string function;
  int line;
  std::string description;
  std::vector<Edit> edits;  // sorted, disjoint
};

std::string apply_edits(std::string_view s, const std::vector<Edit>& edits, std::size_t base = 0) {
  std::string out;
  std::size_t at = base;
  for (const auto& e : edits) {
    out.append(s.substr(at - base, e.offset - at));
    out += e.text;
    at = e.offset + e.length;
  }
  out.append(s.substr(at - base));
  return out;
}

std::string make_diff(std::string_view s, const std::vector<Edit>& edits) {
  const std::size_t first = edits.front().offset;
  const std::size_t last = edits.back().offset + edits.back().length;
  std::size_t b = s.rfind('\n', first == 0 ? 0 : first - 1);
  b = (b == std::string_view::npos || first == 0) ? 0 : b + 1;
  if (first > 0 && s[first - 1] == '\n') b = first;
  std::size_t e = s.find('\n', last == 0 ? 0 : last - (last > first ? 1 : 0));
  if (e == std::string_view::npos) e = s.size();
  const std::string_view old_region = s.substr(b, e - b);
  const std::string new_region = apply_edits(old_region, edits, b);
  std::string diff;
  auto lines = [&](std::string_view region, char sign) {
    std::size_t p = 0;
    while (p <= region.size()) {
      std::size_t q = region.find('\n', p);
      if (q == std::string_view::npos) q = region.size();
      diff += sign;
      diff.append(region.substr(p, q - p));
      diff += '\n';
      p = q + 1;
    }
  };
  lines(old_region, '-');
  lines(new_region, '+');
  return diff;
}

class Generator {
 public:
  Generator(std::string_view text, const std::vector<Token>& t, const Function& f,
            const SubjectTool& tool)
      : s_(text), t_(t), m_(match_brackets(t)), f_(f), tool_(tool), assert_(t.size()) {
    // Assertions are not mutated: a WARN_ON() condition that is never true
    // stays never true under most changes (an equivalent mutant), and one
    // that becomes true tests WARN_ON() itself, not the checks.
    static const std::set<std::string_view> kAsserts = {
        "WARN_ON", "WARN_ON_ONCE", "WARN", "WARN_ONCE", "BUG_ON", "BUILD_BUG_ON",
        "lockdep_assert_held", "SCHED_WARN_ON"};
    for (std::size_t i = f.body_begin; i + 1 < f.body_end; ++i)
      if (kAsserts.contains(t[i].text) && is(t[i + 1], "(") && m_[i + 1] != std::string_view::npos)
        for (std::size_t k = i; k <= m_[i + 1]; ++k) assert_[k] = true;
  }

  std::vector<Candidate> out;

  void relational() {
    static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> kRor = {
        {"<", {"<=", ">", ">="}}, {"<=", {"<", ">", ">="}}, {">", {">=", "<", "<="}},
        {">=", {">", "<", "<="}}, {"==", {"!="}},           {"!=", {"=="}}};
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      if (t_[i].kind != TokKind::kPunct) continue;
      for (const auto& [from, tos] : kRor)
        if (t_[i].text == from)
          for (auto to : tos)
            add(Operator::kRelational, i, fmt::format("`{}` -> `{}`", from, to),
                {replace(i, std::string(to))});
    }
  }

  void dl_time_before() {
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      if (!is(t_[i], "dl_time_before") || !is(t_[i + 1], "(")) continue;
      const auto args = split_args(i + 1);
      if (args.size() != 2) continue;
      const std::string a = span_text(args[0]), b = span_text(args[1]);
      const std::size_t close = m_[i + 1];
      add(Operator::kDlTimeBefore, i, "dl_time_before(a, b) -> dl_time_before(b, a)",
          {Edit{t_[args[0].first].offset, end_of(args[1].second - 1) - t_[args[0].first].offset,
                fmt::format("{}, {}", b, a)}});
      add(Operator::kDlTimeBefore, i, "dl_time_before(a, b) -> a < b (unsigned, no wrap)",
          {Edit{t_[i].offset, end_of(close) - t_[i].offset, fmt::format("(({}) < ({}))", a, b)}});
    }
  }

  void off_by_one() {
    static const std::set<std::string_view> kArith = {"+", "-", "<<", ">>", "*", "[", "]"};
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      if (t_[i].kind == TokKind::kNumber) {
        const auto v = integer(t_[i].text);
        if (!v) continue;
        if (!kArith.contains(t_[i - 1].text) && !kArith.contains(t_[i + 1].text)) continue;
        add(Operator::kOffByOne, i, fmt::format("`{}` -> `{}`", t_[i].text, *v + 1),
            {replace(i, std::to_string(*v + 1))});
        if (*v > 0)
          add(Operator::kOffByOne, i, fmt::format("`{}` -> `{}`", t_[i].text, *v - 1),
              {replace(i, std::to_string(*v - 1))});
      } else if (is(t_[i], "[") && m_[i] != std::string_view::npos && m_[i] > i + 1) {
        // An index: [e] -> [e + 1], [e - 1].
        const std::string e = span_text({i + 1, m_[i]});
        for (const char* d : {" + 1", " - 1"})
          add(Operator::kOffByOne, i, fmt::format("index `[{}]` -> `[{}{}]`", e, e, d),
              {Edit{t_[i + 1].offset, end_of(m_[i] - 1) - t_[i + 1].offset,
                    fmt::format("({}){}", e, d)}});
      }
    }
  }

  void negate() {
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      if (t_[i].kind != TokKind::kIdent || !is(t_[i + 1], "(")) continue;
      const std::size_t open = i + 1, close = m_[open];
      if (close == std::string_view::npos) continue;
      std::pair<std::size_t, std::size_t> cond{open + 1, close};
      if (is(t_[i], "for")) {
        std::vector<std::size_t> semis;
        for (std::size_t k = open + 1; k < close; ++k) {
          if (is(t_[k], ";")) semis.push_back(k);
          if ((is(t_[k], "(") || is(t_[k], "[")) && m_[k] != std::string_view::npos) k = m_[k];
        }
        if (semis.size() != 2) continue;
        cond = {semis[0] + 1, semis[1]};
      } else if (!is(t_[i], "if") && !is(t_[i], "while")) {
        continue;
      }
      if (cond.first >= cond.second) continue;
      const std::string c = span_text(cond);
      add(Operator::kNegate, i, fmt::format("{} condition negated", t_[i].text),
          {Edit{t_[cond.first].offset, end_of(cond.second - 1) - t_[cond.first].offset,
                fmt::format("!({})", c)}});
    }
  }

  void delete_statements() {
    static const std::set<std::string_view> kAssign = {"=",  "+=", "-=", "*=",  "/=",  "%=", "&=",
                                                       "|=", "^=", "<<=", ">>=", "++", "--"};
    static const std::set<std::string_view> kTypes = {
        "int",  "unsigned", "long",  "short",  "char",   "bool",   "u64",      "s64",
        "u32",  "s32",      "u16",   "u8",     "const",  "struct", "union",    "enum",
        "static", "volatile", "signed", "void", "size_t", "cpumask_var_t", "register"};
    std::size_t k = f_.body_begin + 1, start = k;
    while (k < f_.body_end) {
      const Token& tk = t_[k];
      if (is(tk, "{") || is(tk, "}") || is(tk, ";")) {
        if (is(tk, ";") && start < k) statement(start, k, kAssign, kTypes);
        start = ++k;
        continue;
      }
      if (k == start && (is(tk, "if") || is(tk, "while") || is(tk, "for") || is(tk, "switch")) &&
          is(t_[k + 1], "(") && m_[k + 1] != std::string_view::npos) {
        k = start = m_[k + 1] + 1;
        continue;
      }
      if (k == start && (is(tk, "else") || is(tk, "do"))) {
        start = ++k;
        continue;
      }
      if (k == start && tk.kind == TokKind::kIdent && is(t_[k + 1], ":")) {  // a label
        k = start = k + 2;
        continue;
      }
      if ((is(tk, "(") || is(tk, "[")) && m_[k] != std::string_view::npos) {
        k = m_[k] + 1;
        continue;
      }
      ++k;
    }
  }

  void swap_args() {
    // Calls whose arguments commute (or whose swap is the same operation):
    // swapping them gives an equivalent mutant, not a test of the checks.
    static const std::set<std::string_view> kSymmetric = {
        "cpumask_and",      "cpumask_or",       "cpumask_intersects", "cpumask_equal",
        "for_each_cpu_and", "cpumask_first_and", "cpumask_any_and",   "cpumask_next_and",
        "cpumask_any_and_distribute", "max", "min", "dl_time_before",
        "bitmap_and", "bitmap_or", "bitmap_intersects", "bitmap_equal", "cpumask_first_and_and",
        "find_next_and_bit", "find_first_and_bit",
        // n * size: the same allocation either way.
        "kcalloc", "kmalloc_array", "kvcalloc", "kvmalloc_array"};
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      if (t_[i].kind != TokKind::kIdent || !is(t_[i + 1], "(") || kKeywords.contains(t_[i].text))
        continue;
      if (kSymmetric.contains(t_[i].text) || t_[i].text.find("exchange") != std::string_view::npos ||
          t_[i].text.find("swap") != std::string_view::npos)
        continue;
      const auto args = split_args(i + 1);
      for (std::size_t a = 0; a + 1 < args.size(); ++a) {
        const std::string x = span_text(args[a]), y = span_text(args[a + 1]);
        if (x == y) continue;
        add(Operator::kSwapArgs, i,
            fmt::format("{}(): arguments {} and {} swapped", t_[i].text, a + 1, a + 2),
            {Edit{t_[args[a].first].offset, end_of(args[a].second - 1) - t_[args[a].first].offset,
                  y},
             Edit{t_[args[a + 1].first].offset,
                  end_of(args[a + 1].second - 1) - t_[args[a + 1].first].offset, x}});
      }
    }
  }

  void constants() {
    // The subject's own constants (a pick file has no IDX_INVALID).
    const std::span<const std::string_view> kConst = tool_.mutate_constants;
    static const std::set<std::string_view> kUnaryBefore = {
        "(", ",", "=", "return", "==", "!=", "<", ">", "<=", ">=", "?", ":", "[", "&&", "||"};
    for (std::size_t i = f_.body_begin + 1; i < f_.body_end; ++i) {
      std::string_view from;
      std::size_t first = i, last = i;
      if (is(t_[i], "IDX_INVALID") || is(t_[i], "nr_cpu_ids") ||
          (t_[i].kind == TokKind::kNumber && (is(t_[i], "0") || is(t_[i], "1")))) {
        from = t_[i].text;
        if (is(t_[i], "1") && is(t_[i - 1], "-") && kUnaryBefore.contains(t_[i - 2].text)) {
          first = i - 1;
          from = "-1";
        }
      } else {
        continue;
      }
      // Not an array size or a bit-field width in a declaration.
      if (is(t_[first - 1], "[") && is(t_[last + 1], "]") && t_[first - 2].kind == TokKind::kIdent &&
          first >= 3 && t_[first - 3].kind == TokKind::kIdent)
        continue;
      for (auto to : kConst) {
        if (to == from || (from == "-1" && to == "IDX_INVALID") ||
            (from == "IDX_INVALID" && to == "-1"))
          continue;
        add(Operator::kConstant, first, fmt::format("`{}` -> `{}`", from, to),
            {Edit{t_[first].offset, end_of(last) - t_[first].offset, std::string(to)}});
      }
    }
  }

 private:
  std::string_view s_;
  const std::vector<Token>& t_;
  std::vector<std::size_t> m_;
  const Function& f_;
  const SubjectTool& tool_;
  std::vector<bool> assert_;  // tokens of an assertion's call

  std::size_t end_of(std::size_t i) const { return t_[i].offset + t_[i].length; }
  Edit replace(std::size_t i, std::string text) const {
    return Edit{t_[i].offset, t_[i].length, std::move(text)};
  }
  // The source text of tokens [first, second).
  std::string span_text(std::pair<std::size_t, std::size_t> r) const {
    if (r.first >= r.second) return "";
    return std::string(s_.substr(t_[r.first].offset, end_of(r.second - 1) - t_[r.first].offset));
  }
  // The top-level arguments of the call whose '(' is at `open`, as token ranges.
  std::vector<std::pair<std::size_t, std::size_t>> split_args(std::size_t open) const {
    std::vector<std::pair<std::size_t, std::size_t>> args;
    const std::size_t close = m_[open];
    if (close == std::string_view::npos || close == open + 1) return args;
    std::size_t b = open + 1;
    for (std::size_t k = open + 1; k < close; ++k) {
      if ((is(t_[k], "(") || is(t_[k], "[") || is(t_[k], "{")) && m_[k] != std::string_view::npos) {
        k = m_[k];
      } else if (is(t_[k], ",")) {
        args.emplace_back(b, k);
        b = k + 1;
      }
    }
    args.emplace_back(b, close);
    for (auto& r : args)
      if (r.first >= r.second) return {};
    return args;
  }
  static std::optional<long long> integer(std::string_view text) {
    std::string v(text);
    while (!v.empty() && std::strchr("uUlL", v.back())) v.pop_back();
    if (v.empty()) return std::nullopt;
    try {
      std::size_t used = 0;
      const long long n = std::stoll(v, &used, 0);
      if (used != v.size()) return std::nullopt;
      return n;
    } catch (...) {
      return std::nullopt;
    }
  }

  void statement(std::size_t b, std::size_t semi, const std::set<std::string_view>& assign,
                 const std::set<std::string_view>& types) {
    const Token& first = t_[b];
    std::string what;
    if (is(first, "return") || is(first, "break") || is(first, "continue")) {
      what = fmt::format("`{}` deleted", span_text({b, semi + 1}));
    } else if (types.contains(first.text) ||
               (first.kind == TokKind::kIdent && t_[b + 1].kind == TokKind::kIdent)) {
      return;  // a declaration
    } else if (first.text.starts_with("cpumask_") || first.text.starts_with("__cpumask_")) {
      what = fmt::format("`{}()` call deleted", first.text);
    } else {
      bool store = false;
      for (std::size_t k = b; k < semi; ++k) {
        if ((is(t_[k], "(") || is(t_[k], "[")) && m_[k] != std::string_view::npos) {
          k = m_[k];
          continue;
        }
        if (t_[k].kind == TokKind::kPunct && assign.contains(t_[k].text)) store = true;
      }
      if (!store) return;
      what = "store deleted";
    }
    add(Operator::kDelete, b, what, {Edit{first.offset, end_of(semi) - first.offset, ";"}});
  }

  void add(Operator op, std::size_t tok, std::string description, std::vector<Edit> edits) {
    if (assert_[tok]) return;
    out.push_back(Candidate{op, f_.name, t_[tok].line, std::move(description), std::move(edits)});
  }
};

}  // namespace

std::vector<Mutant> generate(std::string_view text, const SubjectTool& tool,
                             const std::string& function,
                             const std::vector<Operator>& ops) {
  const auto tokens = tokenize(text);
  std::vector<Candidate> all;
  for (const auto& f : functions_under_test(tokens, tool, function)) {
    Generator g(text, tokens, f, tool);
    for (Operator op : ops) {
      switch (op) {
        case Operator::kRelational: g.relational(); break;
        case Operator::kDlTimeBefore: g.dl_time_before(); break;
        case Operator::kOffByOne: g.off_by_one(); break;
        case Operator::kNegate: g.negate(); break;
        case Operator::kDelete: g.delete_statements(); break;
        case Operator::kSwapArgs: g.swap_args(); break;
        case Operator::kConstant: g.constants(); break;
      }
    }
    for (auto& c : g.out) all.push_back(std::move(c));
  }
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    return a.edits.front().offset < b.edits.front().offset;
  });
  std::vector<Mutant> out;
  std::set<std::string> seen{std::string(text)};
  for (auto& c : all) {
    std::string mutated = apply_edits(text, c.edits);
    if (!seen.insert(mutated).second) continue;  // a no-op or a duplicate
    out.push_back(Mutant{fmt::format("M{:04}", out.size() + 1), c.op, c.function, c.line,
                         make_diff(text, c.edits), std::move(c.description), std::move(mutated)});
  }
  return out;
}

std::vector<Mutant> sample(std::vector<Mutant> all, std::size_t n, std::uint64_t seed) {
  if (n == 0 || n >= all.size()) return all;
  std::vector<std::size_t> idx(all.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(idx.begin(), idx.end(), rng);
  idx.resize(n);
  std::sort(idx.begin(), idx.end());
  std::vector<Mutant> out;
  out.reserve(n);
  for (std::size_t i : idx) out.push_back(std::move(all[i]));
  return out;
}

}  // namespace diffsched::mutate
