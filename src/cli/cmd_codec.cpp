// `diffsched encode` / `diffsched decode`: the .ops text and the binary
// format, both ways, losslessly.
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
};

int run_encode(const CodecOptions& o) {
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  auto program = load_input(o.input, target);
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

int run_decode(const CodecOptions& o) {
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  auto program = load_input(o.input, target);
  if (!program) return kExitBadInput;
  std::string error;
  const std::string text = io::format_program(*program);
  if (o.output.empty() || o.output == "-") {
    fmt::print("{}", text);
    return kExitOk;
  }
  if (!io::write_file(o.output, text, &error)) {
    fmt::print(stderr, "diffsched: error: {}\n", error);
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
  return [opts] { return run_decode(*opts); };
}

}  // namespace diffsched::cli
