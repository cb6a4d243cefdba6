// `diffsched encode` / `diffsched decode`: the .ops text and the binary
// format, both ways, losslessly.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "cli/commands.h"
#include "io/binary.h"
#include "io/load.h"

namespace diffsched::cli {

namespace {

struct CodecOptions {
  std::string input;
  std::string output;
  std::string target;
  bool raw = false;
  std::size_t max_input_bytes = io::kDefaultMaxInputBytes;
};

int run_encode(const CodecOptions& o) {
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  auto program = load_input(o.input, {target, o.max_input_bytes});
  if (!program) return kExitBadInput;
  std::string error;
  const auto bytes = o.raw ? io::encode_body(*program) : io::encode_file(*program);
  if (!io::write_file(o.output,
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      &error)) {
    fmt::print(stderr, "diffsched: error: {}\n", error);
    return kExitBadInput;
  }
  fmt::print("wrote {} ({} bytes, {})\n", o.output, bytes.size(),
             o.raw ? "raw fuzzer input" : "binary file");
  return kExitOk;
}

// Streams: the header, then one line per op as it is decoded.
int run_decode(const CodecOptions& o) {
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  auto in = open_input(o.input, {target, o.max_input_bytes});
  if (!in) return kExitBadInput;
  const bool to_stdout = o.output.empty() || o.output == "-";
  std::FILE* out = to_stdout ? stdout : std::fopen(o.output.c_str(), "wb");
  if (!out) {
    fmt::print(stderr, "diffsched: error: cannot write {}: {}\n", o.output, std::strerror(errno));
    return kExitBadInput;
  }
  fmt::print(out, "{}", io::format_header(in->header()));
  with_subject_named(in->header().subject, [&]<class S>(std::type_identity<S>) {
    typename S::Op op{};
    while (in->template next<S>(&op)) {
      kernel::NrCpuIdsScope scope(in->header().nr_cpu_ids);
      fmt::print(out, "{}\n", io::format_op(op));
    }
  });
  bool write_failed = std::ferror(out) != 0;
  if (!to_stdout) write_failed |= std::fclose(out) != 0;
  if (in->failed()) {
    fmt::print(stderr, "diffsched: error: {}\n", in->error());
    if (!to_stdout) std::remove(o.output.c_str());
    return kExitBadInput;
  }
  if (write_failed) {
    fmt::print(stderr, "diffsched: error: cannot write {}\n", to_stdout ? "standard output" : o.output);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

Runner add_encode(CLI::App& app) {
  auto opts = std::make_shared<CodecOptions>();
  auto* sub = app.add_subcommand("encode", "Turn an .ops file into the binary format");
  sub->add_option("input", opts->input, ".ops file (or any input replay reads)")->required();
  sub->add_option("-o,--output", opts->output, "output file (never the input)")
      ->required()
      ->check(output_file());
  sub->add_option("--target", opts->target, "read a raw fuzzer input of this target")
      ->check(target_choice());
  sub->add_flag("--raw", opts->raw,
                "write a raw fuzzer input (no DSCH header), e.g. a corpus seed");
  sub->parse_complete_callback([opts] { check_outputs({opts->output}, {opts->input}); });
  add_max_input_bytes(sub, &opts->max_input_bytes);
  return [opts] { return run_encode(*opts); };
}

Runner add_decode(CLI::App& app) {
  auto opts = std::make_shared<CodecOptions>();
  auto* sub = app.add_subcommand("decode", "Turn a binary input into .ops text");
  sub->add_option("input", opts->input, "binary file, or raw fuzzer input with --target")
      ->required();
  sub->add_option("-o,--output", opts->output,
                  "output .ops file, never the input (default, or -: stdout)")
      ->check(output_file(true));
  sub->add_option("--target", opts->target,
                  "read a file without a DSCH header as this target's raw input")
      ->check(target_choice());
  sub->parse_complete_callback([opts] { check_outputs({opts->output}, {opts->input}); });
  add_max_input_bytes(sub, &opts->max_input_bytes);
  return [opts] { return run_decode(*opts); };
}

}  // namespace diffsched::cli
