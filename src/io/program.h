// A .ops file: a subject, its configuration, an optional level, and ops.
//
//   # comment
//   subject cpudl        # cpudl, pick or cpumask; inferred from the first op if absent
//   cpus 4               # nr_cpu_ids (default: the subject's kDefaultCpus)
//   capacity 1024,512    # cpudl: CPU capacities for find_cap, repeated over the CPUs
//   level exact          # optional: the level this input is meant for
//   # expect: exact cpudl:divergence:exact:slot.cpu:set   (regressions, see below)
//   set 0 5
//   set 1 5
//
//   std::string error;
//   auto program = parse_program(text, &error);   // std::nullopt + error
//   std::string text2 = format_program(*program); // parses back to the same
//
// Streaming (memory does not grow with the number of ops):
//
//   LineSource lines(file, head);              // or LineSource(text)
//   TextReader reader(lines);
//   if (!reader.read_header(&error)) ...;      // directives and '# expect:' lines
//   cpudl::Op op;
//   while (reader.next<cpudl::Subject>(&op, &error)) run.feed(op);
//   if (!error.empty()) ...;                   // "line 7: ..."
//
// The header (directives, '# expect:' lines) ends at the first op; each
// directive appears at most once; a level must mean something for the
// subject (Subject::kLevels). A UTF-8 byte order mark at the start is
// skipped, a "\r" before "\n" is dropped, and a NUL or other control byte
// (besides tab) is an error. Errors name the line and quote at most
// kExcerptBytes of it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "engine/verdict.h"
#include "io/text.h"
#include "subjects.h"

namespace diffsched::io {

// The longest .ops line read (a pick op over 8192 CPUs in named form is
// well under this); longer lines are an error, so a line never holds more.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// "# expect: exact cpudl:divergence:exact:slot.cpu:set" or
// "# expect: deadline equivalent": the verdict a regression input must keep.
struct Expectation {
  Level level;
  std::string verdict;  // "equivalent" or a finding signature
};

// Checks a verdict as `replay --expect` and '# expect:' lines take it:
// "equivalent" (or "ok"), or a signature subject:kind:check:field:op
// (Finding::signature) with a known subject, a known kind, a non-empty check
// and field, and an op of that subject. With `reader` (a race target judges:
// replay --target), also subject:reader:class:op, a class of the subject's
// reader_classes(); without it such a signature is refused, since the
// lockstep never shows one. False with a one-line reason.
bool validate_verdict(std::string_view verdict, std::string* error, bool reader = false);

// Whether `level` means something for the subject named `subject`, and the
// levels that do ("exact, deadline").
bool subject_has_level(std::string_view subject, Level level);
std::string subject_levels(std::string_view subject);

template <class S>
struct Program {
  using Subject = S;
  typename S::Config config;
  std::optional<Level> level;
  std::vector<typename S::Op> ops;
  std::vector<Expectation> expectations;  // text form only
};

template <class Tuple>
struct ProgramVariant;
template <class... S>
struct ProgramVariant<std::tuple<S...>> {
  using type = std::variant<Program<S>...>;
};
using AnyProgram = ProgramVariant<Subjects>::type;

std::string_view subject_name(const AnyProgram& program);

// Everything of a program but its ops.
struct ProgramHeader {
  std::string_view subject;  // a Subject::kName
  unsigned nr_cpu_ids = 0;
  std::optional<Level> level;
  std::vector<Expectation> expectations;
  std::vector<std::uint16_t> capacity;  // `capacity 1024,512` (cpudl only)
};

// "1024,512": 1..31 capacities in 1..1024 (cpudl::Config::capacity).
bool parse_capacity(std::string_view text, std::vector<std::uint16_t>* out, std::string* error);

// The Config a header describes, and the header parts of a Config.
template <class S>
typename S::Config config_of(const ProgramHeader& h) {
  typename S::Config c;
  c.nr_cpu_ids = h.nr_cpu_ids;
  if constexpr (requires { c.capacity; }) c.capacity = h.capacity;
  return c;
}
template <class S>
void put_config(const typename S::Config& c, ProgramHeader* h) {
  h->nr_cpu_ids = c.nr_cpu_ids;
  if constexpr (requires { c.capacity; }) h->capacity = c.capacity;
}

// Lines of .ops text, from memory or read from a FILE* in blocks. Memory:
// one line (at most kMaxLineBytes) plus one block.
class LineSource {
 public:
  explicit LineSource(std::string_view text);
  // `head`: bytes already read from `file` (not owned).
  LineSource(std::FILE* file, std::string head);

  // The next line, without "\n", a trailing "\r" and (first line) a BOM.
  // False at the end, or on an error (error() set: a read error, a line over
  // kMaxLineBytes, a NUL or control byte). The view lives until next().
  bool next(std::string_view* line);
  std::size_t lineno() const { return lineno_; }
  const std::string& error() const { return error_; }

 private:
  bool fill();  // reads one more block; false at EOF or error

  std::string_view text_;  // memory source: what is left
  std::FILE* file_ = nullptr;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::size_t lineno_ = 0;
  std::string error_;
};

// Reads .ops text: the header, then ops one at a time.
class TextReader {
 public:
  explicit TextReader(LineSource& lines) : lines_(lines) {}

  // Reads up to the first op (kept for next()). False with "line N: ...".
  bool read_header(std::string* error);
  const ProgramHeader& header() const { return header_; }

  // The next op; S must be the header's subject. False at the end (error
  // empty) or on a bad line (error "line N: ...").
  template <class S>
  bool next(typename S::Op* op, std::string* error) {
    std::string_view line;
    if (!next_op_line(&line, error)) return false;
    split_into(line);
    kernel::NrCpuIdsScope scope(header_.nr_cpu_ids);
    std::string why;
    if (!parse_op(std::span<const std::string_view>(words_), op, &why)) {
      *error = line_error(why);
      return false;
    }
    return true;
  }

 private:
  bool next_op_line(std::string_view* line, std::string* error);
  void split_into(std::string_view line);
  std::string line_error(std::string_view why) const;

  LineSource& lines_;
  ProgramHeader header_;
  std::string first_op_;  // the op line that ended the header
  bool have_first_op_ = false;
  std::size_t lineno_ = 0;  // of the line being parsed
  std::vector<std::string_view> words_;
};

// Whether `head` (the first bytes of an input) reads as .ops text: after an
// optional UTF-8 BOM, no NUL or control byte besides tab, CR and LF; and,
// with `keyword_first`, the first line that is not blank or a '#' comment
// starts with a directive (subject, cpus, level) or an op name of any
// subject (a head of comments only counts as text).
bool looks_like_ops_text(std::string_view head, bool keyword_first);

// Errors name the line: "line 3: 'set' takes 2 arguments, got 1".
std::optional<AnyProgram> parse_program(std::string_view text, std::string* error);

// The header lines of a program's text ("subject", "cpus", "level",
// "# expect:"), then format_op(op) + "\n" per op make the whole text.
std::string format_header(const ProgramHeader& header);
std::string format_program(const AnyProgram& program);

}  // namespace diffsched::io
