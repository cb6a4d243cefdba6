// diffsched fn: the public entry (fn/extract.h): the parse runs in a child
// (kcheck/libclang.h) that sends the Extraction back as JSON; and the flags a
// unit compiles with.
#include <fmt/format.h>

#include "fn/extract_internal.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::fn {

using detail::extract_in_child;

const Piece* Extraction::piece(std::string_view name) const {
  for (const auto& p : pieces)
    if (p.name == name) return &p;
  return nullptr;
}
const External* Extraction::external(std::string_view name) const {
  for (const auto& e : externals)
    if (e.name == name) return &e;
  return nullptr;
}
const GlobalRead* Extraction::global(std::string_view name) const {
  for (const auto& g : globals)
    if (g.name == name) return &g;
  return nullptr;
}

std::vector<std::string> Extraction::compile_args(const std::filesystem::path& shim_dir) const {
  const tools::ShimTree shim = shim_dir.empty() ? tools::ShimTree::of(tools::source_dir())
                                                : tools::ShimTree{shim_dir};
  // kernel-check's candidate flags (kcheck/build.cpp), without
  // the sanitizers, the glue and the output.
  std::vector<std::string> args = {
      "-std=gnu11", "-nostdinc", "-fno-strict-aliasing", "-fno-common", "-Wall",
      "-Wno-unused-function", "-Werror=implicit-function-declaration",
      "-Werror=incompatible-pointer-types", "-Werror=int-conversion", "-Werror=return-type",
      "-fdiagnostics-color=never", "-iquote", shim.sched().string(), "-I",
      shim.include().string(), "-I", shim.abi().string(), "-include",
      shim.sched_header().string()};
  for (const auto& name : shim_own) args.push_back("-DKSHIM_OWN_" + name);
  for (const auto& d : defines) args.push_back("-D" + d);
  return args;
}

Extraction extract_function(const std::string& text, std::string_view function,
                            const ExtractOptions& options) {
  Extraction failed;
  const tools::ShimTree tree = options.shim_dir.empty() ? tools::ShimTree::of(tools::source_dir())
                                                        : tools::ShimTree{options.shim_dir};
  const std::string shim = tree.dir.string();
  if (const std::string bad = tools::special_include(
          text, {tree.sched().string(), tree.include().string(), tree.abi().string()});
      !bad.empty()) {
    failed.error = fmt::format("{}: it #includes {}, which is not a regular file",
                               options.file_name, bad);
    return failed;
  }
  const std::string fn(function);
  tools::ChildOutput child = tools::run_in_child(
      [&] { return extract_in_child(text, fn, shim, options); }, options.parse_seconds);
  if (!child.error.empty()) {
    failed.error = fmt::format("{}: {}", options.file_name, child.error);
    return failed;
  }
  Extraction out;
  try {
    out = nlohmann::json::parse(child.data).get<Extraction>();
  } catch (const nlohmann::json::exception&) {
    failed.error = fmt::format("{}: libclang's parse did not complete", options.file_name);
    return failed;
  }
  if (!out.error.empty()) {
    out.error = fmt::format("{}: {}", options.file_name, out.error);
    return out;
  }
  // The unit: each piece's bytes once (pieces overlap: a typedef of the
  // struct it defines, `int a, b;`), in file order, from the text we hold.
  // A stub's declaration (Piece::prototype) ends before its body: `;` after it.
  struct Span {
    std::size_t begin, end;
    bool prototype;
  };
  std::vector<Span> ranges;
  for (const Piece& p : out.pieces) {
    if (p.end > text.size() || p.begin > p.end) {
      failed.error = fmt::format("{}: libclang's parse did not complete", options.file_name);
      return failed;
    }
    if (!ranges.empty() && p.begin < ranges.back().end) {
      if (p.end >= ranges.back().end) ranges.back() = {ranges.back().begin, p.end, p.prototype};
    } else {
      ranges.push_back({p.begin, p.end, p.prototype});
    }
  }
  for (const Span& r : ranges) {
    out.text.append(text, r.begin, r.end - r.begin);
    out.text += r.prototype ? ";\n" : "\n";
  }
  return out;
}

Extraction extract_function_from_file(const std::filesystem::path& file,
                                      std::string_view function, ExtractOptions options) {
  if (options.file_name == ExtractOptions{}.file_name) options.file_name = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    Extraction failed;
    failed.error = fmt::format("{}: not a readable regular file", file.string());
    return failed;
  }
  return extract_function(util::read_text(file), function, options);
}

}  // namespace diffsched::fn
