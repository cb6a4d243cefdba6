// `diffsched minimize FILE -o OUT`: the shortest op list that fails the same
// way, written as OUT.ops and OUT.bin.
#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "io/load.h"
#include "engine/minimize.h"
#include "util/text.h"

namespace diffsched::cli {

namespace {

struct MinimizeOptions {
  std::string input;
  std::string output;
  std::string level;
  std::string target;
  tools::MinimizeBudget budget;
  std::size_t max_input_bytes = io::kDefaultMaxInputBytes;
};

// -o OUT or OUT.ops -> OUT (the command writes OUT.ops and OUT.bin).
std::string output_base(std::string out) {
  if (out.size() > 4 && out.ends_with(".ops")) out.resize(out.size() - 4);
  return out;
}

// The input's own verdict at the level, to tell an out-of-domain input from
// one that fails.
Verdict verdict_of(const io::AnyProgram& program, Level level) {
  return std::visit(
      [&]<class S>(const io::Program<S>& p) {
        auto lockstep = std::make_unique<typename S::Lockstep>();
        return run_lockstep<S>(*lockstep, p.config, std::span<const typename S::Op>(p.ops),
                               level);
      },
      program);
}

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
  if (const Verdict v = verdict_of(*program, level); status_of(v) == kExitOutOfDomain) {
    fmt::print("OUT OF DOMAIN (no verdict, exit {}): {}\nnothing minimised: an out-of-domain "
               "stop is not a bug in the code under test\n",
               kExitOutOfDomain, v.finding->describe());
    return kExitOutOfDomain;
  }
  auto result = tools::minimize(*program, level, &error, o.budget);
  if (!result) {
    fmt::print(stderr, "diffsched: error: {}: {}\n", o.input, error);
    return kExitBadInput;
  }
  const std::string base = output_base(o.output);
  std::string text = io::format_program(result->program);
  if (!result->minimal)  // the file says so too
    text = fmt::format("# not minimal: the {} ran out\n{}", result->stopped, text);
  const auto bytes = io::encode_file(result->program);
  if (!io::write_file(base + ".ops", text, &error) ||
      !io::write_file(base + ".bin",
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      &error)) {
    fmt::print(stderr, "diffsched: error: {}\n", error);
    return kExitBadInput;
  }
  const std::size_t ops = std::visit([](const auto& p) { return p.ops.size(); }, result->program);
  fmt::print("minimised {} ops to {} in {} runs ({:.1f} s), keeping signature {}\n",
             result->original_ops, ops, result->runs, result->seconds, result->signature);
  if (!result->minimal)
    fmt::print("NOT MINIMAL: the {} ran out; this is the smallest reproducer found so far "
               "(it still fails the same way; raise --max-seconds/--max-tries for more)\n",
               result->stopped);
  fmt::print("wrote {0}.ops and {0}.bin\n{1}", base, text);
  fmt::print("reproduce: {} replay {}\n", self_command(), util::shell_path(base + ".ops"));
  return kExitOk;
}

}  // namespace

Runner add_minimize(CLI::App& app) {
  auto opts = std::make_shared<MinimizeOptions>();
  auto* sub = app.add_subcommand(
      "minimize", "Shrink a failing input to the shortest op list with the same failure "
                  "(exit 0 written, 2 bad input or nothing to minimise, 3 out of domain)");
  sub->add_option("input", opts->input, "failing input (.ops, binary, or raw with --target)")
      ->required();
  sub->add_option("-o,--output", opts->output,
                  "output base name: writes OUT.ops and OUT.bin (never the input)")
      ->required()
      ->check(output_file());
  sub->add_option("--level", opts->level, "exact or deadline (default: the input's)")
      ->check(level_names());
  sub->add_option("--target", opts->target, "read a raw fuzzer input of this target")
      ->check(target_choice());
  sub->parse_complete_callback([opts] {
    const std::string base = output_base(opts->output);
    check_outputs({base + ".ops", base + ".bin"}, {opts->input});
  });
  sub->add_option("--max-seconds", opts->budget.max_seconds,
                  "wall-clock budget of the minimisation, in seconds (0: none); when it runs "
                  "out, the smallest reproducer so far is written and reported as not minimal")
      ->capture_default_str()
      ->check(non_negative());
  sub->add_option("--max-tries", opts->budget.max_tries,
                  "budget of lockstep runs (tries) of the minimisation (0: none)")
      ->capture_default_str()
      ->check(non_negative());
  add_max_input_bytes(sub, &opts->max_input_bytes);
  return [opts] { return run_minimize(*opts); };
}

}  // namespace diffsched::cli
