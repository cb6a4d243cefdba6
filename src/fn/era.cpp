// diffsched fn: the shim's era (era.h).
#include "fn/era.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "kcheck/options.h"
#include "util/text.h"

namespace diffsched::fn {

namespace fs = std::filesystem;

std::string check_fn_kernel_version(std::string_view text) {
  return tools::check_kernel_version_up_to(text, 7, "6.1", "3.0 to 7.x");
}

namespace {

// "VERSION = 6" -> "6"; "" when the line is not `name = number`.
std::string make_value(const std::string& line, std::string_view name) {
  if (line.rfind(name, 0) != 0) return {};
  std::string_view rest = std::string_view(line).substr(name.size());
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  if (rest.empty() || rest.front() != '=') return {};
  rest.remove_prefix(1);
  const std::string value(util::trim(rest));
  return !value.empty() && value.find_first_not_of("0123456789") == std::string::npos ? value : "";
}

}  // namespace

std::optional<TreeVersion> tree_version(const fs::path& file) {
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).parent_path();
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    const fs::path makefile = dir / "Makefile";
    // Only a regular file, and only its first 4 KiB (a FIFO or a device
    // named Makefile would block or never end; a huge line would fill memory).
    if (std::ifstream f; fs::is_regular_file(makefile, ec) && (f.open(makefile, std::ios::binary), f)) {
      std::string head(4096, '\0'), line, major, minor;
      f.read(head.data(), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<std::size_t>(f.gcount()));
      if (head.size() == 4096) head.resize(head.rfind('\n') + 1);  // no cut last line (npos + 1: none)
      std::istringstream lines(head);
      for (int n = 0; n < 20 && std::getline(lines, line); ++n) {
        if (const std::string v = make_value(line, "VERSION"); !v.empty()) major = v;
        if (const std::string v = make_value(line, "PATCHLEVEL"); !v.empty()) minor = v;
      }
      const std::string version = major + "." + minor;
      if (!major.empty() && !minor.empty() && check_fn_kernel_version(version).empty())
        return TreeVersion{version, makefile};
    }
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

bool resolve_era(Spec spec, const std::string& old_file, const std::string& new_file,
                 const std::function<bool(const Spec&, std::string*)>& try_at,
                 const std::function<bool()>& compile_failed, EraChoice* choice, std::string* error) {
  *choice = {};
  if (!spec.kernel.empty()) {
    *choice = {spec.kernel, fmt::format("v{} ({})", spec.kernel,
                                        spec.kernel_from.empty() ? "given" : spec.kernel_from)};
  } else {
    // The old file's tree, else the new one's; two trees of different
    // kernels (a pair across a release) are said, as the old one is used.
    const auto o = tree_version(old_file), n = tree_version(new_file);
    if (const auto& t = o ? o : n) {
      *choice = {t->version, fmt::format("v{} (the tree's {})", t->version, t->makefile.string())};
      if (o && n && o->version != n->version)
        choice->why = fmt::format("v{} (the old file's tree, {}; the new file's tree is v{}, {}: "
                                  "both sides are built at v{}; --kernel-version X.Y sets another)",
                                  o->version, o->makefile.string(), n->version, n->makefile.string(),
                                  o->version);
    }
  }
  spec.kernel = choice->version;
  if (try_at(spec, error)) return true;
  // Only a file that the default cannot build is tried at the other eras;
  // a version given or read from the tree is the one used.
  if (!choice->version.empty() || !compile_failed()) return false;
  const std::string first = *error;
  for (const std::string_view era : kShimEras) {
    spec.kernel = std::string(era);
    std::string e;
    if (try_at(spec, &e)) {
      *choice = {spec.kernel,
                 fmt::format("v{}, the newest of the shim's eras the files build against (at the "
                             "default v{}: {}; --kernel-version X.Y sets it)",
                             era, kShimDefaultEra, first)};
      return true;
    }
    if (!compile_failed()) {  // built, but failed for another reason: that is the error
      *error = fmt::format("at v{}, the newest of the shim's eras the files build against: {}", era, e);
      return false;
    }
  }
  *error = fmt::format("{}; nor at any other era of the shim (v{} back to v{}; --kernel-version X.Y "
                       "sets one)", first, kShimEras.front(), kShimEras.back());
  return false;
}

}  // namespace diffsched::fn
