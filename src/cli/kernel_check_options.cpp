// kernel-check's CLI11 options, registered from the one definition of the
// options (kcheck/options.h): names, help, checks and the relations
// between options (needs, excludes) all come from the specs.
#include <cmath>

#include <fmt/format.h>

#include "cli/commands.h"
#include "kcheck/options.h"
#include "util/text.h"

namespace diffsched::cli {

using tools::KernelCheckOptions;

namespace {

using tools::OptionRole;
using tools::OptionSpec;

// The checks of a spec as a CLI11 validator (choices, range, its own check),
// with the same messages as the harness's parsing.
CLI::Validator spec_validator(const OptionSpec& spec) {
  return CLI::Validator(
      [spec](std::string& text) -> std::string {
        std::string why;
        if (!spec.choices.empty() || spec.check) {
          std::string field;
          why = tools::parse_option(spec, text, field);
        } else if (!std::isinf(spec.min) || !std::isinf(spec.max)) {
          double v = 0;  // CLI11 converts to the field's type; here only the range
          why = tools::parse_option(spec, text, v);
        }
        // CLI11 names the option itself.
        const std::string prefix = fmt::format("--{} ", spec.name);
        return why.starts_with(prefix) ? why.substr(prefix.size()) : why;
      },
      "", "kcheck");
}

}  // namespace

void add_kernel_check_options(CLI::App* sub, KernelCheckOptions& o) {
  std::vector<std::string> inputs_unused;
  for_each_option(o, [&](const OptionSpec& spec, auto& field) {
    if (!(spec.uses & tools::kCli) || !applies_to(spec, *o.tool)) return;
    const std::string names =
        spec.short_name.empty() ? fmt::format("--{}", spec.name)
                                : fmt::format("-{},--{}", spec.short_name, spec.name);
    CLI::Option* opt = nullptr;
    using T = std::decay_t<decltype(field)>;
    if constexpr (std::is_pointer_v<T>) {
      return;  // the subject: the subcommand word (cmd_kernel_check.cpp), never an option
    } else if constexpr (std::is_same_v<T, bool>) {
      opt = sub->add_flag(names, field, std::string(spec.help));
    } else {
      opt = sub->add_option(names, field, std::string(spec.help));
      // Lists are separate words (--nr-cpus 4 64), as the replay command prints them.
      if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, std::vector<unsigned>>)
        opt->capture_default_str();
      if (!spec.choices.empty() || spec.check || !std::isinf(spec.min) || !std::isinf(spec.max))
        opt->check(spec_validator(spec));
      if (spec.role == OptionRole::kOutputPath) opt->check(output_file());
    }
    if (spec.required) opt->required();
  });
  // The relations, once every option exists.
  for_each_option(o, [&](const OptionSpec& spec, auto&) {
    CLI::Option* opt = sub->get_option_no_throw(fmt::format("--{}", spec.name));
    if (!opt) return;
    if (!spec.needs.empty()) opt->needs(sub->get_option(fmt::format("--{}", spec.needs)));
    for (const auto& other : util::split(spec.excludes, ' '))
      if (!other.empty()) opt->excludes(sub->get_option(fmt::format("--{}", other)));
  });
  // --in-kernel's --runs defaults to 200, not the property run's 2000.
  if (auto* runs = sub->get_option_no_throw("--runs"))
    runs->each([&o](const std::string&) { o.runs_given = true; });
  // No output may clobber an input (same inode).
  sub->parse_complete_callback([&o] {
    std::vector<std::string> outputs, inputs;
    for_each_option(o, [&](const OptionSpec& spec, const auto& field) {
      if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>) {
        if (spec.role == OptionRole::kOutputPath) outputs.push_back(field);
        if (spec.role == OptionRole::kInputPath) inputs.push_back(field);
      }
    });
    check_outputs(outputs, inputs);
  });
}

}  // namespace diffsched::cli
