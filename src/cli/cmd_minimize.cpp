// `diffsched minimize FILE -o OUT`: the shortest op list that fails the same
// way, written as OUT.ops and OUT.bin.
#include <fmt/format.h>

#include "cli/commands.h"
#include "io/binary.h"
#include "io/load.h"
#include "tools/minimize.h"

namespace diffsched::cli {

namespace {

struct MinimizeOptions {
  std::string input;
  std::string output;
  std::string level;
  std::string target;
  std::size_t max_input_bytes = io::kDefaultMaxInputBytes;
};

int run_minimize(const MinimizeOptions& o) {
  const FuzzTarget* target;
  if (!resolve_target(o.target, &target)) return kExitBadInput;
  std::optional<Level> forced;
  if (!o.level.empty() && !(forced = parse_level(o.level))) {
    fmt::print(stderr, "diffsched: error: unknown level '{}' (known: exact, deadline)\n", o.level);
    return kExitBadInput;
  }
  auto program = load_input(o.input, {target, o.max_input_bytes});
  if (!program) return kExitBadInput;
  if (forced && !check_level(o.input, io::subject_name(*program), *forced)) return kExitBadInput;
  std::string error;
  const Level level = forced.value_or(std::visit(
      [](const auto& p) {
        return p.level.value_or(std::decay_t<decltype(p)>::Subject::kDefaultLevel);
      },
      *program));
  auto result = tools::minimize(*program, level, &error);
  if (!result) {
    fmt::print(stderr, "diffsched: error: {}: {}\n", o.input, error);
    return kExitBadInput;
  }
  std::string base = o.output;
  if (base.size() > 4 && base.ends_with(".ops")) base.resize(base.size() - 4);
  const std::string text = io::format_program(result->program);
  const auto bytes = io::encode_file(result->program);
  if (!io::write_file(base + ".ops", text, &error) ||
      !io::write_file(base + ".bin",
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      &error)) {
    fmt::print(stderr, "diffsched: error: {}\n", error);
    return kExitBadInput;
  }
  const std::size_t ops = std::visit([](const auto& p) { return p.ops.size(); }, result->program);
  fmt::print("minimised {} ops to {} in {} runs, keeping signature {}\n", result->original_ops,
             ops, result->runs, result->signature);
  fmt::print("wrote {0}.ops and {0}.bin\n{1}", base, text);
  fmt::print("reproduce: {} replay {}.ops\n", self_command(), base);
  return kExitOk;
}

}  // namespace

Runner add_minimize(CLI::App& app) {
  auto opts = std::make_shared<MinimizeOptions>();
  auto* sub = app.add_subcommand(
      "minimize", "Shrink a failing input to the shortest op list with the same failure");
  sub->add_option("input", opts->input, "failing input (.ops, binary, or raw with --target)")
      ->required();
  sub->add_option("-o,--output", opts->output, "output base name: writes OUT.ops and OUT.bin")
      ->required();
  sub->add_option("--level", opts->level, "exact or deadline (default: the input's)");
  sub->add_option("--target", opts->target, "read a raw fuzzer input of this target");
  add_max_input_bytes(sub, &opts->max_input_bytes);
  return [opts] { return run_minimize(*opts); };
}

}  // namespace diffsched::cli
