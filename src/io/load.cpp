#include "io/load.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace diffsched::io {

namespace {

constexpr std::size_t kHeadBytes = 64 * 1024;  // what the form is decided on

std::string size_text(std::size_t bytes) {
  if (bytes % (std::size_t{1} << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

const FuzzTarget* subject_target(const FuzzTarget* target) {
  if (!target) return nullptr;
  return with_subject_named(target->subject, [](auto) {}) ? target : nullptr;
}

}  // namespace

Input::~Input() {
  if (owns_file_ && file_) std::fclose(file_);
}

std::unique_ptr<Input> Input::open(const std::string& path, const LoadOptions& options,
                                   std::string* error) {
  std::unique_ptr<Input> in(new Input());
  if (path == "-") {
    in->name_ = "standard input";
    in->file_ = stdin;
  } else {
    in->name_ = path;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      *error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
      return nullptr;
    }
    if (S_ISDIR(st.st_mode)) {
      *error = fmt::format("{} is a directory, not an input file", path);
      return nullptr;
    }
    in->file_ = std::fopen(path.c_str(), "rb");
    if (!in->file_) {
      *error = fmt::format("cannot read {}: {}", path, std::strerror(errno));
      return nullptr;
    }
    in->owns_file_ = true;
  }
  std::string head(kHeadBytes, '\0');
  std::size_t got = 0;
  while (got < head.size()) {
    const std::size_t n = std::fread(head.data() + got, 1, head.size() - got, in->file_);
    if (n == 0) break;
    got += n;
  }
  if (std::ferror(in->file_)) {
    *error = fmt::format("cannot read {}: {}", in->name_, std::strerror(errno));
    return nullptr;
  }
  head.resize(got);
  const bool complete = got < kHeadBytes;
  if (!in->start(std::move(head), complete, options, error)) return nullptr;
  return in;
}

std::unique_ptr<Input> Input::from_bytes(std::span<const std::uint8_t> bytes,
                                         const std::string& name, const LoadOptions& options,
                                         std::string* error) {
  std::unique_ptr<Input> in(new Input());
  in->name_ = name;
  in->all_ = bytes;
  if (!in->start({}, true, options, error)) return nullptr;
  return in;
}

bool Input::read_rest(std::size_t max_bytes, std::string* error) {
  if (file_) {
    std::size_t got = bytes_.size();
    while (bytes_.size() <= max_bytes) {
      bytes_.resize(got + kHeadBytes);
      const std::size_t n = std::fread(bytes_.data() + got, 1, kHeadBytes, file_);
      got += n;
      bytes_.resize(got);
      if (n == 0) break;
    }
    if (std::ferror(file_)) {
      *error = fmt::format("cannot read {}: {}", name_, std::strerror(errno));
      return false;
    }
    all_ = std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes_.data()),
                                         bytes_.size());
  }
  if (all_.size() > max_bytes) {
    *error = fmt::format(
        "{} is larger than the input size cap of {} (binary and raw inputs are read whole; "
        "--max-input-bytes raises the cap)",
        name_, size_text(max_bytes));
    return false;
  }
  return true;
}

bool Input::start(std::string head, bool complete, const LoadOptions& options,
                  std::string* error) {
  const FuzzTarget* target = subject_target(options.target);
  std::string_view view;
  if (file_) {
    bytes_ = std::move(head);
    view = bytes_;
  } else {
    view = std::string_view(reinterpret_cast<const char*>(all_.data()), all_.size());
    if (view.size() > kHeadBytes) view = view.substr(0, kHeadBytes);
  }
  const auto head_bytes =
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(view.data()), view.size());
  auto subject_error = [&](std::string_view subject) {
    *error = fmt::format("{} is {} of subject {}, but --target {} reads {} inputs", name_,
                         form_ == "text" ? ".ops text" : "a binary file", subject, target->name,
                         target->subject);
    return false;
  };

  if (has_magic(head_bytes)) {
    form_ = "binary file";
    if (!read_rest(options.max_bytes, error)) return false;
    FileHeader fh;
    if (!decode_file_header(all_, &fh, error)) {
      *error = fmt::format("{}: {}", name_, *error);
      return false;
    }
    const auto body = all_.subspan(kFileHeaderSize);
    with_subject_index(fh.subject, [&]<class S>(std::type_identity<S>) {
      auto& d = decoder_.template emplace<Decoder<S>>(body, fh.version);
      header_.subject = S::kName;
      put_config<S>(d.config(), &header_);
      header_.level = fh.level;
    });
    if (target) {
      if (header_.subject != target->subject) return subject_error(header_.subject);
      header_.level = target->level;
    }
    return true;
  }
  if (view.empty() && complete) {
    *error = fmt::format("{} is empty", name_);
    return false;
  }
  if (looks_like_ops_text(view, target != nullptr)) {
    form_ = "text";
    if (file_) {
      lines_ = std::make_unique<LineSource>(file_, std::move(bytes_));
      bytes_.clear();
    } else {
      lines_ = std::make_unique<LineSource>(
          std::string_view(reinterpret_cast<const char*>(all_.data()), all_.size()));
    }
    text_ = std::make_unique<TextReader>(*lines_);
    if (!text_->read_header(error)) {
      *error = fmt::format("{}: {}", name_, *error);
      return false;
    }
    header_ = text_->header();
    if (target) {
      if (header_.subject != target->subject) return subject_error(header_.subject);
      header_.level = target->level;
    }
    return true;
  }
  if (!target) {
    *error = fmt::format(
        "{} is binary without the DSCH header: for a raw fuzzer input pass --target ({})",
        name_, target_names());
    return false;
  }
  form_ = "raw input";
  if (!read_rest(options.max_bytes, error)) return false;
  with_subject_named(target->subject, [&]<class S>(std::type_identity<S>) {
    auto& d = decoder_.template emplace<Decoder<S>>(all_);
    header_.subject = S::kName;
    put_config<S>(d.config(), &header_);
    header_.level = target->level;
  });
  return true;
}

std::optional<AnyProgram> read_program(Input& in, std::size_t max_bytes, std::string* error) {
  std::optional<AnyProgram> result;
  with_subject_named(in.header().subject, [&]<class S>(std::type_identity<S>) {
    Program<S> p;
    p.config = config_of<S>(in.header());
    p.level = in.header().level;
    p.expectations = in.header().expectations;
    const std::size_t max_ops = std::max<std::size_t>(1, max_bytes / sizeof(typename S::Op));
    typename S::Op op{};
    while (in.template next<S>(&op)) {
      if (p.ops.size() == max_ops) {
        *error = fmt::format(
            "{} has more than {} ops: held whole in memory ({} bytes per {} op) that is over "
            "the input size cap of {} (--max-input-bytes raises it; replay, decode and "
            "--check-expect stream without holding it)",
            in.name(), max_ops, sizeof(typename S::Op), S::kName, size_text(max_bytes));
        return;
      }
      p.ops.push_back(op);
    }
    if (in.failed()) {
      *error = in.error();
      return;
    }
    result = AnyProgram(std::move(p));
  });
  return result;
}

std::optional<AnyProgram> load_program(const std::string& path, const LoadOptions& options,
                                       std::string* error) {
  auto in = Input::open(path, options, error);
  if (!in) return std::nullopt;
  return read_program(*in, options.max_bytes, error);
}

std::optional<AnyProgram> load_program(const std::string& path, const FuzzTarget* target,
                                       std::string* error) {
  return load_program(path, LoadOptions{target, kDefaultMaxInputBytes}, error);
}

namespace {

bool same_program(const AnyProgram& a, const AnyProgram& b, bool with_expectations) {
  if (!programs_equal(a, b)) return false;
  return std::visit(
      [&](const auto& pa) {
        const auto& pb = std::get<std::decay_t<decltype(pa)>>(b);
        if (pa.level != pb.level) return false;
        if (!with_expectations) return true;
        if (pa.expectations.size() != pb.expectations.size()) return false;
        for (std::size_t i = 0; i < pa.expectations.size(); ++i)
          if (pa.expectations[i].level != pb.expectations[i].level ||
              pa.expectations[i].verdict != pb.expectations[i].verdict)
            return false;
        return true;
      },
      a);
}

}  // namespace

Verdict check_loading(std::span<const std::uint8_t> bytes) {
  constexpr std::string_view kSubject = "inputs";
  constexpr std::size_t kMaxError = 600;
  constexpr std::size_t kMaxBytes = std::size_t{256} << 10;  // a few hundred ops: fast
  Verdict v;
  v.subject = kSubject;
  v.level = Level::kExact;
  auto fail = [&](std::string_view how, std::string_view check, std::string expected,
                  std::string actual) {
    Finding f;
    f.kind = FindingKind::kDivergence;
    f.subject = kSubject;
    f.op_kind = "load";
    f.op_text = fmt::format("load {}", how);
    f.side = "loader";
    f.against = "its own output";
    f.check = std::string(check);
    f.field = "program";
    f.expected = excerpt(expected, 300);
    f.actual = excerpt(actual, 300);
    v.finding = std::move(f);
  };
  for (const char* how : {"", "cpudl", "pick"}) {
    const LoadOptions options{*how ? find_target(how) : nullptr, kMaxBytes};
    const std::string label = *how ? fmt::format("--target {}", how) : "without a target";
    std::string error;
    std::optional<AnyProgram> p;
    if (auto in = Input::from_bytes(bytes, "input", options, &error))
      p = read_program(*in, options.max_bytes, &error);
    if (!p) {
      if (error.empty() || error.find('\n') != std::string::npos || error.size() > kMaxError) {
        fail(label, "error-message", "a one-line reason", error);
        return v;
      }
      continue;
    }
    v.ops_run += std::visit([](const auto& q) { return q.ops.size(); }, *p);
    const std::string text = format_program(*p);
    std::string why;
    auto again = parse_program(text, &why);
    if (!again || !same_program(*p, *again, true)) {
      fail(label, "text-roundtrip", text, again ? format_program(*again) : why);
      return v;
    }
    const auto file = encode_file(*p);
    auto decoded = decode_file(file, &why);
    if (!decoded || !same_program(*p, *decoded, false)) {
      fail(label, "binary-roundtrip", text, decoded ? format_program(*decoded) : why);
      return v;
    }
  }
  return v;
}

bool write_file(const std::string& path, std::string_view contents, std::string* error) {
  // A missing directory is made (issue 22: "-o a/b/x.ops" writes it, so that
  // an output path never turns a finding into exit 2).
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      *error = fmt::format("cannot write {}: cannot create {}: {}", path, parent.string(), ec.message());
      return false;
    }
  }
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) {
    *error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  // Every step checked: a full disk fails at fwrite, fflush or fclose.
  const bool written = std::fwrite(contents.data(), 1, contents.size(), out) == contents.size() &&
                       std::fflush(out) == 0;
  const int err = errno;
  const bool closed = std::fclose(out) == 0;
  if (!written || !closed) {
    *error = fmt::format("cannot write {}: {}", path, std::strerror(written ? errno : err));
    return false;
  }
  return true;
}

}  // namespace diffsched::io
