#include "io/program.h"

#include <charconv>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::io {

namespace {

using Lines = std::vector<std::pair<std::size_t, std::vector<std::string_view>>>;

template <class S>
bool parse_ops_into(Program<S>* p, const Lines& lines, std::string* error) {
  kernel::NrCpuIdsScope scope(p->config.nr_cpu_ids);
  for (const auto& [lineno, words] : lines) {
    typename S::Op op{};
    std::string why;
    if (!parse_op(std::span<const std::string_view>(words), &op, &why)) {
      *error = fmt::format("line {}: {}", lineno, why);
      return false;
    }
    p->ops.push_back(op);
  }
  return true;
}

// The subject whose op list has an op called `name`, if any.
std::optional<std::string_view> subject_with_op(std::string_view name) {
  std::optional<std::string_view> found;
  for_each_subject([&]<class S>(std::type_identity<S>) {
    if (found) return;
    for (auto n : OpNames<typename S::Op>::kNames)
      if (n == name) found = S::kName;
  });
  return found;
}

std::string subject_names() {
  std::string names;
  for_each_subject([&]<class S>(std::type_identity<S>) {
    if (!names.empty()) names += ", ";
    names += S::kName;
  });
  return names;
}

}  // namespace

std::string_view subject_name(const AnyProgram& program) {
  return std::visit([](const auto& p) { return std::decay_t<decltype(p)>::Subject::kName; },
                    program);
}

std::optional<AnyProgram> parse_program(std::string_view text, std::string* error) {
  std::optional<std::string> subject;
  std::optional<unsigned> cpus;
  std::optional<Level> level;
  Lines op_lines;
  std::vector<Expectation> expectations;
  std::size_t lineno = 0;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++lineno;
    if (line.starts_with("# expect:")) {
      auto w = split_words(line.substr(9));
      std::optional<Level> lv = w.size() == 2 ? parse_level(w[0]) : std::nullopt;
      if (!lv) {
        *error = fmt::format(
            "line {}: '# expect:' takes a level and a verdict, e.g. '# expect: deadline "
            "equivalent'",
            lineno);
        return std::nullopt;
      }
      expectations.push_back({*lv, std::string(w[1])});
      continue;
    }
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
        if (!with_subject_named(words[1], [](auto) {})) {
          *error = fmt::format("line {}: unknown subject '{}' (known: {})", lineno, words[1],
                               subject_names());
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
    if (!subject) {
      auto inferred = subject_with_op(key);
      if (!inferred) {
        *error = fmt::format("line {}: unknown op '{}' and no 'subject' line", lineno, key);
        return std::nullopt;
      }
      subject = std::string(*inferred);
    }
    op_lines.emplace_back(lineno, std::move(words));
  }
  if (!subject) {
    *error = "no ops and no 'subject' line";
    return std::nullopt;
  }

  std::optional<AnyProgram> result;
  with_subject_named(*subject, [&]<class S>(std::type_identity<S>) {
    Program<S> p;
    p.config.nr_cpu_ids = cpus.value_or(S::kDefaultCpus);
    p.level = level;
    p.expectations = expectations;
    if (parse_ops_into(&p, op_lines, error)) result = AnyProgram(std::move(p));
  });
  return result;
}

std::string format_program(const AnyProgram& any) {
  return std::visit(
      [](const auto& p) {
        using S = typename std::decay_t<decltype(p)>::Subject;
        std::string out = fmt::format("subject {}\ncpus {}\n", S::kName, p.config.nr_cpu_ids);
        if (p.level) out += fmt::format("level {}\n", level_name(*p.level));
        for (const auto& e : p.expectations)
          out += fmt::format("# expect: {} {}\n", level_name(e.level), e.verdict);
        kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
        for (const auto& op : p.ops) out += format_op(op) + "\n";
        return out;
      },
      any);
}

}  // namespace diffsched::io
