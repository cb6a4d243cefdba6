// Reading an input of any form: streamed op by op, or whole.
//
//   std::string error;
//   auto in = Input::open("crash-1234", {.target = find_target("cpudl")}, &error);
//   with_subject_named(in->header().subject, [&]<class S>(std::type_identity<S>) {
//     typename S::Op op;
//     while (in->next<S>(&op)) run.feed(op);      // memory does not grow with ops
//     if (in->failed()) ... in->error() ...;      // "tie.ops: line 9: ..."
//   });
//   auto p = load_program("tie.ops", {}, &error);  // the whole program in memory
//
// The form of an input (docs/input-format.md, "Which form a file is read as"):
//   - "DSCH" first: the binary file form (version, subject, level checked);
//   - .ops text: no NUL or control byte (besides tab, CR, LF) in the first
//     64 KiB, after an optional UTF-8 BOM; with a target, also its first line
//     that is not blank or a '#' comment starts with a directive (subject,
//     cpus, level) or an op name, else it is the target's raw input;
//   - with a target, anything else is that target's raw fuzzer input (a body);
//     without one, it is refused (one line naming --target).
// A path "-" is standard input. A directory is refused; FIFOs and devices are
// read like files. Binary and raw inputs are read whole and may be at most
// `max_bytes` long; text is read line by line. A program held whole
// (load_program) may take at most `max_bytes` of ops (sizeof(Op) each).
// Errors are one line and start with the path.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "io/binary.h"
#include "io/program.h"
#include "targets.h"

namespace diffsched::io {

inline constexpr std::size_t kDefaultMaxInputBytes = std::size_t{64} << 20;  // 64 MiB

struct LoadOptions {
  // Read files without a DSCH header that are not .ops text as this target's
  // raw input; its subject must match a text file's, and its level is used.
  // A target that is no subject's (the "inputs" parser target) reads any form
  // as without a target.
  const FuzzTarget* target = nullptr;
  std::size_t max_bytes = kDefaultMaxInputBytes;
};

class Input {
 public:
  // Opens a file ("-": standard input) and reads its header.
  static std::unique_ptr<Input> open(const std::string& path, const LoadOptions& options,
                                     std::string* error);
  // The same from bytes in memory (they must outlive the Input); `name` is
  // used in errors.
  static std::unique_ptr<Input> from_bytes(std::span<const std::uint8_t> bytes,
                                           const std::string& name, const LoadOptions& options,
                                           std::string* error);
  ~Input();

  const ProgramHeader& header() const { return header_; }
  // "text", "binary file" or "raw input".
  std::string_view form() const { return form_; }

  // The next op; S must be header().subject's. False at the end or on an
  // error (failed(), error() then say why, prefixed with the name).
  template <class S>
  bool next(typename S::Op* op) {
    if (text_) {
      std::string why;
      if (text_->template next<S>(op, &why)) return true;
      if (!why.empty()) error_ = name_ + ": " + why;
      return false;
    }
    kernel::NrCpuIdsScope scope(header_.nr_cpu_ids);
    return std::get<Decoder<S>>(decoder_).next(op);
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }

 private:
  template <class Tuple>
  struct Decoders;
  template <class... S>
  struct Decoders<std::tuple<S...>> {
    using type = std::variant<std::monostate, Decoder<S>...>;
  };

  Input() = default;
  bool start(std::string head, bool complete, const LoadOptions& options, std::string* error);
  bool read_rest(std::size_t max_bytes, std::string* error);

  std::string name_;
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::string_view form_;
  ProgramHeader header_;
  std::unique_ptr<LineSource> lines_;
  std::unique_ptr<TextReader> text_;
  std::string bytes_;                  // a binary or raw input read whole
  std::span<const std::uint8_t> all_;  // its bytes (or the caller's)
  Decoders<Subjects>::type decoder_;
  std::string error_;
};

// The whole program (ops held in memory, at most options.max_bytes of them).
std::optional<AnyProgram> load_program(const std::string& path, const LoadOptions& options,
                                       std::string* error);
std::optional<AnyProgram> load_program(const std::string& path, const FuzzTarget* target,
                                       std::string* error);
// Reads all of `in` into a program (the same cap).
std::optional<AnyProgram> read_program(Input& in, std::size_t max_bytes, std::string* error);

// The property of the "inputs" fuzz target (src/targets.h): `bytes` loaded
// without a target and as cpudl and pick raw input give a program or a
// one-line error of at most a few hundred bytes; a program's .ops text parses
// back, and its binary file decodes back, to the same program. A finding
// (subject "inputs", check text-roundtrip, binary-roundtrip or error-message)
// if not.
Verdict check_loading(std::span<const std::uint8_t> bytes);

// Writes bytes or text, making a missing parent directory; every step is
// checked (open, write, flush, close: a full disk is an error, never a
// short file said to be written). False with a one-line reason.
bool write_file(const std::string& path, std::string_view contents, std::string* error);

}  // namespace diffsched::io
