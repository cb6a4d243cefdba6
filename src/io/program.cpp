#include "io/program.h"

#include <charconv>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::io {

namespace {

constexpr unsigned kDefaultCpus[] = {8, 64};  // cpudl, pick

template <class S>
bool parse_ops_into(Program<S>* p, const std::vector<std::pair<std::size_t, std::vector<std::string_view>>>& lines,
                    std::string* error) {
  kernel::NrCpuIdsScope scope(p->config.nr_cpu_ids);
  for (const auto& [lineno, words] : lines) {
    typename S::Op op;
    std::string why;
    if (!parse_op(std::span<const std::string_view>(words), &op, &why)) {
      *error = fmt::format("line {}: {}", lineno, why);
      return false;
    }
    p->ops.push_back(op);
  }
  return true;
}

}  // namespace

std::optional<AnyProgram> parse_program(std::string_view text, std::string* error) {
  std::optional<std::string> subject;
  std::optional<unsigned> cpus;
  std::optional<Level> level;
  std::vector<std::pair<std::size_t, std::vector<std::string_view>>> op_lines;
  std::size_t lineno = 0;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++lineno;
    auto words = split_words(line);
    if (words.empty()) continue;
    const std::string_view key = words[0];
    const bool directive = key == "subject" || key == "cpus" || key == "level";
    if (directive) {
      if (!op_lines.empty()) {
        *error = fmt::format("line {}: '{}' must come before the first op", lineno, key);
        return std::nullopt;
      }
      if (words.size() != 2) {
        *error = fmt::format("line {}: '{}' takes one value", lineno, key);
        return std::nullopt;
      }
      if (key == "subject") {
        if (words[1] != cpudl::Subject::kName && words[1] != pick::Subject::kName) {
          *error = fmt::format("line {}: unknown subject '{}' (known: cpudl, pick)", lineno,
                               words[1]);
          return std::nullopt;
        }
        subject = std::string(words[1]);
      } else if (key == "cpus") {
        unsigned n = 0;
        auto [p, ec] = std::from_chars(words[1].data(), words[1].data() + words[1].size(), n);
        if (ec != std::errc{} || p != words[1].data() + words[1].size() || n == 0 ||
            n > kernel::NR_CPUS) {
          *error = fmt::format("line {}: cpus '{}' is not a number in 1..{}", lineno,
                               words[1], kernel::NR_CPUS);
          return std::nullopt;
        }
        cpus = n;
      } else {
        level = parse_level(words[1]);
        if (!level) {
          *error = fmt::format("line {}: unknown level '{}' (known: exact, deadline)",
                               lineno, words[1]);
          return std::nullopt;
        }
      }
      continue;
    }
    if (!subject) subject = std::string(key == "pick" ? pick::Subject::kName : cpudl::Subject::kName);
    op_lines.emplace_back(lineno, std::move(words));
  }
  if (!subject) subject = std::string(cpudl::Subject::kName);

  auto fill = [&]<class S>(Program<S> p, unsigned default_cpus) -> std::optional<AnyProgram> {
    p.config.nr_cpu_ids = cpus.value_or(default_cpus);
    p.level = level;
    if (!parse_ops_into(&p, op_lines, error)) return std::nullopt;
    return AnyProgram(std::move(p));
  };
  if (*subject == pick::Subject::kName) return fill(Program<pick::Subject>{}, kDefaultCpus[1]);
  return fill(Program<cpudl::Subject>{}, kDefaultCpus[0]);
}

std::string format_program(const AnyProgram& any) {
  return std::visit(
      [](const auto& p) {
        using S = typename std::decay_t<decltype(p)>::Subject;
        std::string out = fmt::format("subject {}\ncpus {}\n", S::kName, p.config.nr_cpu_ids);
        if (p.level) out += fmt::format("level {}\n", level_name(*p.level));
        kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
        for (const auto& op : p.ops) out += format_op(op) + "\n";
        return out;
      },
      any);
}

}  // namespace diffsched::io
