#include "kcheck/options.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/text.h"

namespace diffsched::tools {

std::string check_capacities(std::string_view text) {
  for (const auto& item : util::split(text, ',')) {
    const auto v = util::parse_number<unsigned>(item);
    if (!v || *v < 1 || *v > 1024)
      return fmt::format("'{}' is not a capacity (a number in 1..1024)", item);
  }
  return {};
}

std::optional<std::pair<unsigned, unsigned>> kernel_version_of(std::string_view text) {
  // "6.1", or the leading MAJOR.MINOR of a release ("6.1.0-57-amd64").
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::size_t end = dot + 1;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  const auto major = util::parse_number<unsigned>(text.substr(0, dot));
  const auto minor = util::parse_number<unsigned>(text.substr(dot + 1, end - dot - 1));
  if (!major || !minor || *minor > 255) return std::nullopt;
  return std::pair{*major, *minor};
}

std::string check_kernel_version_up_to(std::string_view text, unsigned max_major,
                                       std::string_view example, std::string_view range) {
  const auto v = kernel_version_of(text);
  if (!v || text.find_first_not_of("0123456789.") != std::string_view::npos ||
      std::count(text.begin(), text.end(), '.') != 1)
    return fmt::format("'{}' is not a kernel version (MAJOR.MINOR, e.g. {})", text, example);
  if (v->first < 3 || v->first > max_major)
    return fmt::format("'{}': the shim follows kernels {}", text, range);
  return {};
}

std::string check_kernel_version(std::string_view text) {
  return check_kernel_version_up_to(text, 6, "6.14", "3.0 to 6.19");
}

std::string kernel_version_define(std::string_view version) {
  const auto v = kernel_version_of(version);
  return v ? fmt::format("KSHIM_KERNEL_VERSION=KSHIM_KV({},{})", v->first, v->second) : "";
}

std::string kernel_version_flag(std::string_view version) {
  const std::string define = kernel_version_define(version);
  return define.empty() ? "" : "-D" + define;
}

std::string option_text(const std::string& v) { return v; }
std::string option_text(bool v) { return v ? "1" : "0"; }
std::string option_text(unsigned v) { return std::to_string(v); }
std::string option_text(std::size_t v) { return std::to_string(v); }
std::string option_text(double v) { return fmt::format("{}", v); }  // shortest exact form
std::string option_text(const std::vector<unsigned>& v) { return fmt::format("{}", fmt::join(v, ",")); }
std::string option_text(const SubjectTool* v) { return v ? std::string(v->name) : std::string(); }

namespace {

std::string flag_name(const OptionSpec& spec) { return fmt::format("--{}", spec.name); }

std::string bad(const OptionSpec& spec, std::string_view text, std::string_view why) {
  return fmt::format("{} '{}': {}", flag_name(spec), text, why);
}

template <class T>
std::string parse_number_checked(const OptionSpec& spec, std::string_view text, T& field) {
  const auto v = util::parse_number<T>(text);
  if (!v || (std::is_floating_point_v<T> && !std::isfinite(static_cast<double>(*v))))
    return bad(spec, text, std::is_unsigned_v<T> ? "not a whole number >= 0" : "not a number");
  const double d = static_cast<double>(*v);
  if (d < spec.min || d > spec.max) {
    if (std::isinf(spec.max)) return bad(spec, text, fmt::format("must be at least {}", spec.min));
    return bad(spec, text, fmt::format("not in {}..{}", spec.min, spec.max));
  }
  field = *v;
  return {};
}

}  // namespace

std::string parse_option(const OptionSpec& spec, std::string_view text, std::string& field) {
  if (!spec.choices.empty() &&
      std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
    return bad(spec, text, fmt::format("one of {}", fmt::join(spec.choices, ", ")));
  if (spec.check)
    if (std::string why = spec.check(text); !why.empty()) return bad(spec, text, why);
  field = std::string(text);
  return {};
}

std::string parse_option(const OptionSpec& spec, std::string_view text, bool& field) {
  if (text != "1" && text != "0") return bad(spec, text, "a flag: 1 or 0");
  field = text == "1";
  return {};
}

std::string parse_option(const OptionSpec& spec, std::string_view text, unsigned& field) {
  return parse_number_checked(spec, text, field);
}
std::string parse_option(const OptionSpec& spec, std::string_view text, std::size_t& field) {
  return parse_number_checked(spec, text, field);
}
std::string parse_option(const OptionSpec& spec, std::string_view text, double& field) {
  return parse_number_checked(spec, text, field);
}

std::string parse_option(const OptionSpec& spec, std::string_view text,
                         std::vector<unsigned>& field) {
  std::vector<unsigned> out;
  for (const auto& item : util::split(text, ',')) {
    unsigned v = 0;
    if (std::string why = parse_number_checked(spec, item, v); !why.empty()) return why;
    out.push_back(v);
  }
  field = std::move(out);
  return {};
}

std::string parse_option(const OptionSpec& spec, std::string_view text, const SubjectTool*& field) {
  const SubjectTool* tool = find_subject_tool(text);
  if (tool == nullptr) return bad(spec, text, fmt::format("one of {}", subject_tool_names()));
  field = tool;
  return {};
}

std::vector<std::string> harness_args(const KernelCheckOptions& o) {
  std::vector<std::string> defaults;
  KernelCheckOptions d;
  for_each_option(d, [&](const OptionSpec&, const auto& f) { defaults.push_back(option_text(f)); });
  std::vector<std::string> args;
  std::size_t i = 0;
  for_each_option(o, [&](const OptionSpec& spec, const auto& f) {
    const std::string text = option_text(f);
    if ((spec.uses & kHarness) && text != defaults[i])
      args.push_back(fmt::format("--{}={}", spec.name, text));
    ++i;
  });
  return args;
}

bool parse_harness_args(const std::vector<std::string>& args, KernelCheckOptions* o,
                        std::vector<std::string>* rest, std::string* error) {
  for (const std::string& arg : args) {
    if (!arg.starts_with("--")) {  // libFuzzer's flags (-name=value) and corpus directories
      rest->push_back(arg);
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string_view name = std::string_view(arg).substr(2, eq == arg.npos ? arg.npos : eq - 2);
    bool known = false;
    std::string why;
    for_each_option(*o, [&](const OptionSpec& spec, auto& field) {
      if (known || !(spec.uses & kHarness) || spec.name != name) return;
      known = true;
      if (eq == arg.npos) {
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>)
          field = true;
        else
          why = fmt::format("--{} needs a value (--{}=VALUE)", name, name);
        return;
      }
      why = parse_option(spec, std::string_view(arg).substr(eq + 1), field);
    });
    if (!known) {
      *error = fmt::format("unknown argument '{}'", arg);
      return false;
    }
    if (!why.empty()) {
      *error = why;
      return false;
    }
  }
  return true;
}

namespace {

// "kernel-check SUBJECT" and the words of every option `wanted` selects that
// applies to the subject and differs from its default (or is required):
// --NAME VALUE, a list as separate words, a flag as its name.
template <class Wanted>
std::vector<std::string> command_words(const KernelCheckOptions& o, Wanted wanted) {
  std::vector<std::string> defaults;
  KernelCheckOptions d;
  for_each_option(d, [&](const OptionSpec&, const auto& f) { defaults.push_back(option_text(f)); });
  std::vector<std::string> words = {"kernel-check", std::string(o.tool->name)};
  std::size_t i = 0;
  for_each_option(o, [&](const OptionSpec& spec, const auto& f) {
    const std::string text = option_text(f);
    if (wanted(spec) && applies_to(spec, *o.tool) && (text != defaults[i] || spec.required)) {
      words.push_back(flag_name(spec));
      if constexpr (std::is_same_v<std::decay_t<decltype(f)>, bool>) {
        // a flag: its name says it
      } else if constexpr (std::is_same_v<std::decay_t<decltype(f)>, std::vector<unsigned>>) {
        for (unsigned v : f) words.push_back(std::to_string(v));
      } else {
        words.push_back(text);
      }
    }
    ++i;
  });
  return words;
}

}  // namespace

std::vector<std::string> replay_args(const KernelCheckOptions& o, const std::string& input,
                                     bool raw) {
  std::vector<std::string> words = command_words(o, [raw](const OptionSpec& spec) {
    return (spec.uses & kReplay) || (raw && (spec.uses & kReplayRawOnly));
  });
  if (raw) words.push_back("--raw");
  words.push_back("--replay");
  words.push_back(input);
  return words;
}

std::vector<std::string> cli_args(const KernelCheckOptions& o) {
  return command_words(o, [](const OptionSpec& spec) { return (spec.uses & kCli) != 0; });
}

}  // namespace diffsched::tools
