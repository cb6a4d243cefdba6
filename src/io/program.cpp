#include "io/program.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/text.h"

namespace diffsched::io {

namespace {

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

std::optional<std::string_view> known_subject(std::string_view name) {
  std::optional<std::string_view> found;
  with_subject_named(name, [&]<class S>(std::type_identity<S>) { found = S::kName; });
  return found;
}

constexpr std::size_t kBlockBytes = 64 * 1024;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

bool validate_verdict(std::string_view verdict, std::string* error, bool reader_ok) {
  if (verdict == "equivalent" || verdict == "ok") return true;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const auto colon = verdict.find(':', start);
    parts.push_back(verdict.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  const std::string shown = excerpt(verdict);
  // A reader finding (a race target's) has no field: subject:reader:class:op.
  const bool reader = parts.size() > 1 && parts[1] == finding_kind_name(FindingKind::kReader);
  if (reader && !reader_ok) {
    *error = fmt::format("signature '{}': a reader finding is a race target's, which the "
                         "lockstep never shows (replay --target cpudl_race --expect takes it)",
                         shown);
    return false;
  }
  if (parts.size() != (reader ? 4u : 5u)) {
    *error = reader ? fmt::format("signature '{}': a reader signature is "
                                  "subject:reader:class:op (e.g. cpudl:reader:torn:set)", shown)
                    : fmt::format("verdict '{}' is neither 'equivalent' nor a signature "
                                  "subject:kind:check:field:op (e.g. "
                                  "cpudl:divergence:exact:slot.cpu:set)", shown);
    return false;
  }
  const auto subject = known_subject(parts[0]);
  if (!subject) {
    *error = fmt::format("signature '{}': unknown subject '{}' (known: {})", shown,
                         excerpt(parts[0]), subject_names());
    return false;
  }
  bool kind_known = reader;
  std::string kinds;
  for (auto k : {FindingKind::kDivergence, FindingKind::kInvariant, FindingKind::kModelMismatch,
                 FindingKind::kOutOfDomain}) {
    kind_known |= finding_kind_name(k) == parts[1];
    kinds += (kinds.empty() ? "" : ", ") + std::string(finding_kind_name(k));
  }
  if (!kind_known) {
    *error = fmt::format("signature '{}': unknown kind '{}' (known: {})", shown,
                         excerpt(parts[1]), kinds);
    return false;
  }
  if (reader) {
    std::string classes;
    bool known = false;
    with_subject_named(*subject, [&]<class S>(std::type_identity<S>) {
      if constexpr (requires { S::reader_classes(); })
        for (std::string_view c : S::reader_classes()) {
          known |= c == parts[2];
          classes += (classes.empty() ? "" : ", ") + std::string(c);
        }
    });
    if (!known) {
      *error = fmt::format("signature '{}': '{}' is not a reader class of {} (known: {})", shown,
                           excerpt(parts[2]), *subject, classes.empty() ? "none" : classes);
      return false;
    }
  } else if (parts[2].empty() || parts[3].empty()) {
    *error = fmt::format("signature '{}': the check and the field must not be empty", shown);
    return false;
  }
  const std::string_view op_part = parts.back();
  bool op_known = false;
  std::string ops;
  with_subject_named(*subject, [&]<class S>(std::type_identity<S>) {
    for (auto n : OpNames<typename S::Op>::kNames) {
      op_known |= n == op_part;
      ops += (ops.empty() ? "" : ", ") + std::string(n);
    }
  });
  if (!op_known) {
    *error = fmt::format("signature '{}': '{}' is not an op of {} (known: {})", shown,
                         excerpt(op_part), *subject, ops);
    return false;
  }
  return true;
}

bool subject_has_level(std::string_view subject, Level level) {
  bool has = false;
  with_subject_named(subject, [&]<class S>(std::type_identity<S>) {
    has = std::find(S::kLevels.begin(), S::kLevels.end(), level) != S::kLevels.end();
  });
  return has;
}

std::string subject_levels(std::string_view subject) {
  std::string out;
  with_subject_named(subject, [&]<class S>(std::type_identity<S>) {
    for (Level l : S::kLevels) out += (out.empty() ? "" : ", ") + std::string(level_name(l));
  });
  return out;
}

std::string_view subject_name(const AnyProgram& program) {
  return std::visit([](const auto& p) { return std::decay_t<decltype(p)>::Subject::kName; },
                    program);
}

bool looks_like_ops_text(std::string_view head, bool keyword_first) {
  if (head.starts_with(kBom)) head.remove_prefix(kBom.size());
  for (char c : head) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\r' && c != '\n') return false;
  }
  if (!keyword_first) return true;
  while (!head.empty()) {
    const auto nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head = nl == std::string_view::npos ? std::string_view{} : head.substr(nl + 1);
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string_view::npos || line[start] == '#') continue;
    line.remove_prefix(start);
    const std::string_view word = line.substr(0, line.find_first_of(" \t\r#"));
    return word == "subject" || word == "cpus" || word == "level" ||
           subject_with_op(word).has_value();
  }
  return true;
}

// ---- LineSource ---------------------------------------------------------------

LineSource::LineSource(std::string_view text) : text_(text), eof_(true) {}

LineSource::LineSource(std::FILE* file, std::string head) : file_(file), buf_(std::move(head)) {}

bool LineSource::fill() {
  if (eof_ || !file_) return false;
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  const std::size_t old = buf_.size();
  buf_.resize(old + kBlockBytes);
  const std::size_t got = std::fread(buf_.data() + old, 1, kBlockBytes, file_);
  buf_.resize(old + got);
  if (got == 0) {
    eof_ = true;
    if (std::ferror(file_)) error_ = fmt::format("read error: {}", std::strerror(errno));
    return false;
  }
  return true;
}

bool LineSource::next(std::string_view* line) {
  if (!error_.empty()) return false;
  std::string_view got;
  if (!file_) {
    if (text_.empty()) return false;
    const auto nl = text_.find('\n');
    got = text_.substr(0, nl);
    text_ = nl == std::string_view::npos ? std::string_view{} : text_.substr(nl + 1);
  } else {
    std::size_t nl;
    std::size_t scanned = 0;  // bytes after pos_ known to hold no '\n'
    while ((nl = buf_.find('\n', pos_ + scanned)) == std::string::npos) {
      scanned = buf_.size() - pos_;
      if (scanned > kMaxLineBytes) break;
      if (!fill()) {
        if (!error_.empty()) return false;
        break;
      }
    }
    if (nl == std::string::npos) nl = buf_.size();
    if (pos_ >= buf_.size() && eof_) return false;
    got = std::string_view(buf_).substr(pos_, nl - pos_);
    pos_ = std::min(nl + 1, buf_.size());
  }
  ++lineno_;
  if (got.size() > kMaxLineBytes) {
    error_ = fmt::format("line {} is longer than {} bytes: '{}'", lineno_, kMaxLineBytes,
                         excerpt(got));
    return false;
  }
  if (lineno_ == 1 && got.starts_with(kBom)) got.remove_prefix(kBom.size());
  if (got.ends_with('\r')) got.remove_suffix(1);
  for (char c : got) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\r') {
      error_ = fmt::format("line {}: {} byte 0x{:02x} in .ops text (a binary file? a raw "
                           "fuzzer input needs --target)",
                           lineno_, u == 0 ? "NUL" : "control", u);
      return false;
    }
  }
  *line = got;
  return true;
}

// ---- TextReader ---------------------------------------------------------------

std::string TextReader::line_error(std::string_view why) const {
  // A reason quotes pieces of the line; keep the whole message short.
  constexpr std::size_t kMaxReason = 240;
  return fmt::format("line {}: {}", lineno_,
                     why.size() > kMaxReason ? excerpt(why, kMaxReason) : std::string(why));
}

void TextReader::split_into(std::string_view line) {
  words_.clear();
  if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !blank(line[j])) ++j;
    if (j > i) words_.push_back(line.substr(i, j - i));
    i = j;
  }
}

bool parse_capacity(std::string_view text, std::vector<std::uint16_t>* out, std::string* error) {
  out->clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    unsigned v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc{} || p != item.data() + item.size() || v == 0 ||
        v > cpudl::kCapacityScale || out->size() == cpudl::kMaxCapacities) {
      *error = fmt::format("capacity '{}' is not a list of 1..{} values in 1..{} (e.g. 1024,512)",
                           excerpt(text), cpudl::kMaxCapacities, cpudl::kCapacityScale);
      return false;
    }
    out->push_back(static_cast<std::uint16_t>(v));
    start = comma + 1;
  }
  return true;
}

bool TextReader::read_header(std::string* error) {
  std::optional<std::string_view> subject;
  std::optional<unsigned> cpus;
  std::size_t subject_line = 0, cpus_line = 0, level_line = 0, capacity_line = 0;
  std::vector<std::size_t> expect_lines;
  std::string_view line;
  auto fail = [&](std::string_view why) {
    *error = line_error(why);
    return false;
  };
  while (lines_.next(&line)) {
    lineno_ = lines_.lineno();
    if (line.starts_with("# expect:")) {
      split_into(line.substr(9));
      std::optional<Level> lv = words_.size() == 2 ? parse_level(words_[0]) : std::nullopt;
      if (!lv)
        return fail(
            "'# expect:' takes a level and a verdict, e.g. '# expect: deadline equivalent'");
      std::string why;
      if (!validate_verdict(words_[1], &why)) return fail(why);
      header_.expectations.push_back(
          {*lv, words_[1] == "ok" ? std::string("equivalent") : std::string(words_[1])});
      expect_lines.push_back(lineno_);
      continue;
    }
    split_into(line);
    if (words_.empty()) continue;
    const std::string_view key = words_[0];
    const bool directive =
        key == "subject" || key == "cpus" || key == "level" || key == "capacity";
    if (!directive) {
      if (!subject) {
        subject = subject_with_op(key);
        if (!subject)
          return fail(fmt::format("unknown op '{}' and no 'subject' line", excerpt(key)));
      }
      first_op_.assign(line);
      have_first_op_ = true;
      break;
    }
    if (words_.size() != 2) return fail(fmt::format("'{}' takes one value", key));
    std::size_t* seen = key == "subject"    ? &subject_line
                        : key == "cpus"     ? &cpus_line
                        : key == "capacity" ? &capacity_line
                                            : &level_line;
    if (*seen)
      return fail(fmt::format("a second '{}' line (the first is line {})", key, *seen));
    *seen = lineno_;
    const std::string_view value = words_[1];
    if (key == "subject") {
      subject = known_subject(value);
      if (!subject)
        return fail(fmt::format("unknown subject '{}' (known: {})", excerpt(value),
                                subject_names()));
    } else if (key == "cpus") {
      unsigned n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc{} || p != value.data() + value.size() || n == 0 ||
          n > kernel::NR_CPUS)
        return fail(fmt::format("cpus '{}' is not a number in 1..{}", excerpt(value),
                                kernel::NR_CPUS));
      cpus = n;
    } else if (key == "capacity") {
      std::string why;
      if (!parse_capacity(value, &header_.capacity, &why)) return fail(why);
    } else {
      header_.level = parse_level(value);
      if (!header_.level)
        return fail(fmt::format("unknown level '{}' (known: exact, deadline)", excerpt(value)));
    }
  }
  if (!lines_.error().empty()) {
    *error = lines_.error();
    return false;
  }
  if (!subject) {
    *error = "no ops and no 'subject' line";
    return false;
  }
  header_.subject = *subject;
  with_subject_named(*subject, [&]<class S>(std::type_identity<S>) {
    header_.nr_cpu_ids = cpus.value_or(S::kDefaultCpus);
  });
  if (capacity_line && *subject != cpudl::Subject::kName) {
    *error = fmt::format("line {}: 'capacity' means nothing for subject {} (cpudl only)",
                         capacity_line, *subject);
    return false;
  }
  // Levels and signatures can be checked only once the subject is known.
  auto level_error = [&](std::size_t at, Level l) {
    *error = fmt::format("line {}: level {} means nothing for subject {} (its levels: {})", at,
                         level_name(l), *subject, subject_levels(*subject));
    return false;
  };
  if (header_.level && !subject_has_level(*subject, *header_.level))
    return level_error(level_line, *header_.level);
  for (std::size_t i = 0; i < header_.expectations.size(); ++i) {
    const Expectation& e = header_.expectations[i];
    if (!subject_has_level(*subject, e.level)) return level_error(expect_lines[i], e.level);
    if (e.verdict.find(':') != std::string::npos &&
        !e.verdict.starts_with(std::string(*subject) + ":")) {
      *error = fmt::format("line {}: signature '{}' is not of subject {}, so it never matches",
                           expect_lines[i], excerpt(e.verdict), *subject);
      return false;
    }
  }
  return true;
}

bool TextReader::next_op_line(std::string_view* line, std::string* error) {
  if (have_first_op_) {
    have_first_op_ = false;
    *line = first_op_;
    lineno_ = lines_.lineno();
    return true;
  }
  while (lines_.next(line)) {
    lineno_ = lines_.lineno();
    if (line->starts_with("# expect:")) {
      *error = line_error("'# expect:' lines must come before the first op");
      return false;
    }
    split_into(*line);
    if (words_.empty()) continue;
    if (words_[0] == "subject" || words_[0] == "cpus" || words_[0] == "level" ||
        words_[0] == "capacity") {
      *error = line_error(fmt::format("'{}' must come before the first op", words_[0]));
      return false;
    }
    return true;
  }
  if (!lines_.error().empty()) *error = lines_.error();
  return false;
}

// ---- whole programs -----------------------------------------------------------

std::optional<AnyProgram> parse_program(std::string_view text, std::string* error) {
  LineSource lines(text);
  TextReader reader(lines);
  if (!reader.read_header(error)) return std::nullopt;
  std::optional<AnyProgram> result;
  with_subject_named(reader.header().subject, [&]<class S>(std::type_identity<S>) {
    Program<S> p;
    p.config = config_of<S>(reader.header());
    p.level = reader.header().level;
    p.expectations = reader.header().expectations;
    typename S::Op op{};
    error->clear();
    while (reader.template next<S>(&op, error)) p.ops.push_back(op);
    if (error->empty()) result = AnyProgram(std::move(p));
  });
  return result;
}

std::string format_header(const ProgramHeader& h) {
  std::string out = fmt::format("subject {}\ncpus {}\n", h.subject, h.nr_cpu_ids);
  if (!h.capacity.empty()) out += fmt::format("capacity {}\n", fmt::join(h.capacity, ","));
  if (h.level) out += fmt::format("level {}\n", level_name(*h.level));
  for (const auto& e : h.expectations)
    out += fmt::format("# expect: {} {}\n", level_name(e.level), e.verdict);
  return out;
}

std::string format_program(const AnyProgram& any) {
  return std::visit(
      [](const auto& p) {
        using S = typename std::decay_t<decltype(p)>::Subject;
        ProgramHeader h{S::kName, 0, p.level, p.expectations, {}};
        put_config<S>(p.config, &h);
        std::string out = format_header(h);
        kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
        for (const auto& op : p.ops) out += format_op(op) + "\n";
        return out;
      },
      any);
}

}  // namespace diffsched::io
