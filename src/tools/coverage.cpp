#include "tools/coverage.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include <cxxabi.h>
#include <fmt/format.h>

#include "engine/exit_status.h"
#include "targets.h"
#include "tools/coverage_workdir.h"
#include "tools/process.h"

namespace diffsched::tools {

namespace {

// llvm-cov export region kinds (llvm::coverage::CounterMappingRegion::RegionKind).
enum RegionKind { kCode = 0, kExpansion = 1, kSkipped = 2, kGap = 3, kBranch = 4 };

struct Region {
  int line_start, col_start, line_end, col_end;
  std::uint64_t count;
  std::size_t file_id;
  int kind;
};

Region read_region(const nlohmann::json& r) {
  return {r.at(0).get<int>(), r.at(1).get<int>(), r.at(2).get<int>(), r.at(3).get<int>(),
          r.at(4).get<std::uint64_t>(), r.at(5).get<std::size_t>(),
          r.at(r.size() - 1).get<int>()};
}

// "void diffsched::kernel::HoleHeapify::cpudl_heapify_up<Cpudl<...>>(Cpudl<...>*, int)"
// -> "diffsched::kernel::HoleHeapify::cpudl_heapify_up".
std::string short_name(std::string_view demangled) {
  std::string out;
  int depth = 0;
  for (char c : demangled) {
    if (c == '<') ++depth;
    else if (c == '>') depth = std::max(0, depth - 1);
    else if (c == '(' && depth == 0) break;
    else if (depth == 0) out += c;
  }
  if (auto space = out.rfind(' '); space != std::string::npos) out = out.substr(space + 1);
  return out;
}

bool has_function(std::string_view demangled, std::string_view qualified) {
  // Matches "X::f" at a name boundary: "...::X::f" or "X::f".
  const std::string name = short_name(demangled);
  return name == qualified ||
         (name.size() > qualified.size() && name.ends_with(qualified) &&
          name.compare(name.size() - qualified.size() - 2, 2, "::") == 0);
}

std::string relative_source(const std::string& file, const std::filesystem::path& root) {
  const auto rel = std::filesystem::path(file).lexically_normal().lexically_relative(
      root.lexically_normal());
  const std::string s = rel.generic_string();
  return s.starts_with("src/") ? s : std::string();
}

// A line's state over all instantiations.
struct LineState {
  bool mapped = false;
  std::uint64_t count = 0;
};

// Lines of one function in its own file (file id 0), by llvm-cov's rule
// (llvm::coverage::LineCoverageStats): a line is executable unless it starts
// with a skipped region (a comment, a blank line) or nothing maps it; its count
// is the largest of the region in effect at its start ("wrapped", possibly a
// gap region) and the regions that start on it. One repair for clang-14: a gap
// region that ends where no region starts (after a do-while) hands the line
// back to the enclosing region, whose count then counts too; llvm-cov-14
// would show such a line as never run although the next line ran.
// `discarded` regions (see below) map nothing.
std::map<int, LineState> function_lines(const std::vector<Region>& regions,
                                        const std::vector<bool>& discarded) {
  std::map<int, LineState> lines;
  int first = 0, last = 0;
  for (const auto& r : regions)
    if (r.file_id == 0 && (r.kind == kCode || r.kind == kExpansion)) {
      first = first ? std::min(first, r.line_start) : r.line_start;
      last = std::max(last, r.line_end);
    }
  auto before = [](int l1, int c1, int l2, int c2) { return std::tie(l1, c1) < std::tie(l2, c2); };
  // The innermost non-gap code region containing (line, col), excluding `skip`.
  auto innermost_code = [&](int line, int col, const Region* skip) -> const Region* {
    const Region* best = nullptr;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const Region& r = regions[i];
      if (&r == skip || discarded[i] || r.file_id != 0 || r.kind != kCode) continue;
      if (before(line, col, r.line_start, r.col_start) || before(r.line_end, r.col_end, line, col))
        continue;
      if (!best || before(best->line_start, best->col_start, r.line_start, r.col_start)) best = &r;
    }
    return best;
  };
  std::set<int> discarded_lines;
  for (std::size_t i = 0; i < regions.size(); ++i)
    if (discarded[i] && regions[i].kind == kCode)
      for (int l = regions[i].line_start; l <= regions[i].line_end; ++l) discarded_lines.insert(l);
  for (int line = first; first && line <= last; ++line) {
    const Region* wrapped = nullptr;
    const Region* first_start = nullptr;
    bool entries = false;
    std::uint64_t count = 0;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const Region& r = regions[i];
      if (discarded[i] || r.file_id != 0 || r.kind == kBranch) continue;
      const bool empty = r.line_start == r.line_end && r.col_start == r.col_end;
      if (r.line_start < line && r.line_end >= line && !empty &&
          (!wrapped || before(wrapped->line_start, wrapped->col_start, r.line_start, r.col_start)))
        wrapped = &r;
      if (r.line_start == line) {
        if (!first_start || before(r.line_start, r.col_start, first_start->line_start,
                                   first_start->col_start) ||
            (r.col_start == first_start->col_start && r.kind == kSkipped))
          first_start = &r;
        if (r.kind == kCode || r.kind == kExpansion) {
          entries = true;
          count = std::max(count, r.count);
        }
      }
      if (r.kind == kGap && r.line_end == line) {
        bool followed = false;
        for (const auto& q : regions)
          followed |= q.file_id == 0 && (q.kind == kCode || q.kind == kExpansion) &&
                      q.line_start == r.line_end && q.col_start == r.col_end;
        if (!followed)
          if (const Region* resumed = innermost_code(r.line_end, r.col_end, nullptr))
            count = std::max(count, resumed->count);
      }
    }
    const bool starts_skipped = first_start && first_start->kind == kSkipped;
    const bool wrapped_counts = wrapped && wrapped->kind != kSkipped;
    if (starts_skipped || (!wrapped_counts && !entries) ||
        (!entries && discarded_lines.count(line)))
      continue;
    LineState& s = lines[line];
    s.mapped = true;
    s.count = std::max(wrapped_counts ? wrapped->count : 0, count);
  }
  return lines;
}

// clang-14 maps the branch of an `if constexpr` that an instantiation
// discards as a region that never runs (later clangs mark it skipped). Such a
// region follows a gap region that follows the condition, and the condition's
// line says `if constexpr`; it is code this build does not contain, so it maps
// nothing here. Needs the source text; without it nothing is discarded.
std::vector<bool> discarded_regions(const std::vector<Region>& regions,
                                    const std::vector<std::string>* source) {
  std::vector<bool> out(regions.size(), false);
  if (!source) return out;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    if (r.kind != kCode || r.count != 0 || r.file_id != 0) continue;
    for (const auto& gap : regions) {
      if (gap.kind != kGap || gap.file_id != 0 || gap.line_end != r.line_start ||
          gap.col_end != r.col_start)
        continue;
      for (const auto& cond : regions) {
        if (cond.kind != kCode || cond.file_id != 0 || cond.line_end != gap.line_start ||
            cond.col_end + 1 != gap.col_start)
          continue;
        const auto line = static_cast<std::size_t>(cond.line_start);
        if (line >= 1 && line <= source->size() &&
            (*source)[line - 1].find("if constexpr") != std::string::npos)
          out[i] = true;
      }
    }
  }
  // The gap regions that lead into a discarded branch go with it.
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const Region& gap = regions[i];
    if (gap.kind != kGap) continue;
    for (std::size_t j = 0; j < regions.size(); ++j) {
      if (out[j] && regions[j].kind == kCode && gap.line_end == regions[j].line_start &&
          gap.col_end == regions[j].col_start)
        out[i] = true;
    }
  }
  return out;
}

struct GroupAccumulator {
  std::map<std::pair<std::string, int>, LineState> lines;
  std::map<std::tuple<std::string, int, int, int, int>, std::uint64_t> regions;
  std::map<std::tuple<std::string, int, int, int, int>, std::pair<std::uint64_t, std::uint64_t>>
      branches;
  std::map<std::pair<std::string, int>, std::string> functions;  // (file, first line) -> name
};

}  // namespace

std::string demangle(std::string_view name) {
  std::string mangled(name);
  if (auto colon = mangled.rfind(':'); colon != std::string::npos &&
                                       mangled.compare(colon + 1, 2, "_Z") == 0)
    mangled = mangled.substr(colon + 1);
  if (!mangled.starts_with("_Z")) return mangled;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

namespace {

// The gated code of every subject, from the registry (src/registry.def).
struct GatedCode {
  std::string_view subject;
  CodeGroup group;
  std::string_view pattern;  // "Class::" (a scope) or "ns::function"
};
constexpr CodeGroup reference = CodeGroup::kReference;
constexpr CodeGroup optimized = CodeGroup::kOptimized;
constexpr GatedCode kGatedCode[] = {
#define DIFFSCHED_CODE(subject, group, pattern) {subject, group, pattern},
#include "registry.def"
#undef DIFFSCHED_CODE
};

bool matches(std::string_view demangled, std::string_view name, std::string_view pattern) {
  return pattern.ends_with("::") ? name.find(pattern) != std::string::npos
                                 : has_function(demangled, pattern);
}

}  // namespace

std::optional<CodeGroup> classify_function(std::string_view demangled, std::string_view file) {
  const std::string name = short_name(demangled);
  for (const GatedCode& code : kGatedCode)
    if (matches(demangled, name, code.pattern)) return code.group;
  if (file.starts_with("src/kernel/") && !file.starts_with("src/kernel/counters."))
    return CodeGroup::kShared;
  return std::nullopt;
}

std::optional<CoverageReport> parse_llvm_cov_export(const nlohmann::json& doc,
                                                    const std::filesystem::path& root,
                                                    std::string* error) {
  if (!doc.is_object() || doc.value("type", "") != "llvm.coverage.json.export" ||
      !doc.contains("data") || doc["data"].empty()) {
    *error = "not an llvm-cov export document (type llvm.coverage.json.export)";
    return std::nullopt;
  }
  CoverageReport report;
  try {
    const auto& data = doc["data"][0];
    for (const auto& f : data.at("files")) {
      const std::string rel = relative_source(f.at("filename").get<std::string>(), root);
      if (rel.empty()) continue;
      const auto& s = f.at("summary");
      auto counts = [&](const char* key) {
        if (!s.contains(key)) return Counts{};
        return Counts{s[key].at("covered").get<std::size_t>(), s[key].at("count").get<std::size_t>()};
      };
      report.files.push_back({rel, {counts("lines"), counts("branches"), counts("regions")}});
    }
    std::sort(report.files.begin(), report.files.end(),
              [](const auto& a, const auto& b) { return a.file < b.file; });

    std::array<GroupAccumulator, 3> acc;
    // Source lines per file (relative name), read once; nullptr if unreadable.
    std::map<std::string, std::optional<std::vector<std::string>>> sources;
    auto source_lines = [&](const std::string& rel) -> const std::vector<std::string>* {
      auto [it, fresh] = sources.try_emplace(rel);
      if (fresh) {
        std::ifstream in(root / rel);
        if (in) {
          it->second.emplace();
          for (std::string l; std::getline(in, l);) it->second->push_back(l);
        }
      }
      return it->second ? &*it->second : nullptr;
    };
    for (const auto& fn : data.at("functions")) {
      const auto& filenames = fn.at("filenames");
      if (filenames.empty()) continue;
      std::vector<std::string> files;
      for (const auto& f : filenames) files.push_back(relative_source(f.get<std::string>(), root));
      if (files[0].empty()) continue;
      const std::string name = demangle(fn.at("name").get<std::string>());
      const auto group = classify_function(name, files[0]);
      if (!group) continue;
      GroupAccumulator& g = acc[static_cast<std::size_t>(*group)];

      std::vector<Region> regions;
      for (const auto& r : fn.at("regions")) regions.push_back(read_region(r));
      int first_line = 0;
      for (const auto& r : regions)
        if (r.file_id == 0 && r.kind == kCode)
          first_line = first_line ? std::min(first_line, r.line_start) : r.line_start;
      g.functions.emplace(std::make_pair(files[0], first_line), short_name(name));
      const std::vector<bool> discarded = discarded_regions(regions, source_lines(files[0]));
      for (const auto& [line, state] : function_lines(regions, discarded)) {
        LineState& s = g.lines[{files[0], line}];
        s.mapped |= state.mapped;
        s.count = std::max(s.count, state.count);
      }
      for (std::size_t i = 0; i < regions.size(); ++i) {
        const Region& r = regions[i];
        if (r.kind != kCode || discarded[i] || r.file_id >= files.size() ||
            files[r.file_id].empty())
          continue;
        auto& c = g.regions[{files[r.file_id], r.line_start, r.col_start, r.line_end, r.col_end}];
        c = std::max(c, r.count);
      }
      if (fn.contains("branches"))
        for (const auto& b : fn["branches"]) {
          // [line_start, col_start, line_end, col_end, true, false, file, expanded file, kind]
          const std::size_t file_id = b.at(6).get<std::size_t>();
          if (file_id >= files.size() || files[file_id].empty()) continue;
          auto& c = g.branches[{files[file_id], b.at(0).get<int>(), b.at(1).get<int>(),
                                b.at(2).get<int>(), b.at(3).get<int>()}];
          c.first = std::max(c.first, b.at(4).get<std::uint64_t>());
          c.second = std::max(c.second, b.at(5).get<std::uint64_t>());
        }
    }
    for (std::size_t i = 0; i < acc.size(); ++i) {
      GroupCoverage& out = report.groups[i];
      for (const auto& [key, name] : acc[i].functions)
        out.functions.push_back(fmt::format("{} ({}:{})", name, key.first, key.second));
      for (const auto& [key, s] : acc[i].lines) {
        if (!s.mapped) continue;
        ++out.figures.lines.total;
        if (s.count) ++out.figures.lines.covered;
        else out.missed.push_back(fmt::format("{}:{}", key.first, key.second));
      }
      for (const auto& [key, count] : acc[i].regions) {
        ++out.figures.regions.total;
        if (count) ++out.figures.regions.covered;
      }
      for (const auto& [key, c] : acc[i].branches) {
        out.figures.branches.total += 2;
        out.figures.branches.covered += (c.first ? 1 : 0) + (c.second ? 1 : 0);
        for (const auto& [taken, what] : {std::pair{c.first, "true"}, std::pair{c.second, "false"}})
          if (!taken)
            out.missed.push_back(fmt::format("{}:{}:{} branch never {}", std::get<0>(key),
                                             std::get<1>(key), std::get<2>(key), what));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("malformed llvm-cov export: ") + e.what();
    return std::nullopt;
  }
  return report;
}

namespace {

using util::shell_quote;

std::vector<std::string> files_in(const std::filesystem::path& dir, std::string_view ext) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext))
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

fs::path find_llvm_tool(const std::string& name) {
  if (auto p = find_program(name + "-14"); !p.empty()) return p;
  return find_program(name);
}

// One replay invocation: extra arguments, then the files.
struct ReplayJob {
  std::string what;  // for messages: "corpus/cpudl (raw, --target cpudl)"
  std::vector<std::string> args;
  std::vector<std::string> files;
  bool check_expect = false;
};

}  // namespace

std::optional<CoverageRun> run_coverage(const CoverageOptions& o, std::string* error) {
  const fs::path profdata = find_llvm_tool("llvm-profdata");
  const fs::path cov = find_llvm_tool("llvm-cov");
  if (profdata.empty() || cov.empty()) {
    *error = "llvm-profdata-14 / llvm-cov-14 not found on PATH (run scripts/install-deps.sh)";
    return std::nullopt;
  }
  std::error_code ec;
  if (!fs::is_directory(o.corpus, ec)) {
    *error = "corpus directory " + o.corpus.string() + " not found";
    return std::nullopt;
  }

  // The inputs: raw files per target, seeds' .ops, regressions' .ops.
  const CorpusTree corpus{o.corpus};
  const CoverageWork work{o.work};
  std::vector<ReplayJob> jobs;
  for (const auto& t : kFuzzTargets) {
    const std::string target(t.name);
    if (auto f = files_in(corpus.raw(target), ""); !f.empty())
      jobs.push_back({target + "/ (raw)", {"-q", "--target", target}, std::move(f)});
    if (auto f = files_in(corpus.seeds(target), ".ops"); !f.empty())
      jobs.push_back({"seeds/" + target + "/*.ops", {"-q"}, std::move(f)});
  }
  if (fs::is_directory(corpus.regressions(), ec))
    for (const auto& e : fs::directory_iterator(corpus.regressions(), ec))
      if (auto f = files_in(e.path(), ".ops"); e.is_directory() && !f.empty())
        jobs.push_back({"regressions/" + e.path().filename().string() + "/*.ops",
                        {"--check-expect"},
                        std::move(f),
                        true});
  std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.what < b.what; });
  if (jobs.empty()) {
    *error = "no inputs under " + o.corpus.string() +
             " (expected <target>/, seeds/<target>/*.ops or regressions/<subject>/*.ops)";
    return std::nullopt;
  }

  fs::create_directories(o.work, ec);
  if (!build_preset("coverage", work.build_log(), error, {"diffsched"})) return std::nullopt;
  const fs::path binary = CoverageWork::binary();

  const fs::path profiles = work.profiles();
  fs::remove_all(profiles, ec);
  fs::create_directories(profiles, ec);
  CoverageRun result;
  std::size_t n = 0;
  for (const auto& job : jobs) {
    // Batches keep the command line short for large corpora.
    constexpr std::size_t kBatch = 256;
    for (std::size_t i = 0; i < job.files.size(); i += kBatch) {
      std::vector<std::string> argv = {binary.string(), "replay"};
      argv.insert(argv.end(), job.args.begin(), job.args.end());
      const auto end = std::min(job.files.size(), i + kBatch);
      argv.insert(argv.end(), job.files.begin() + static_cast<std::ptrdiff_t>(i),
                  job.files.begin() + static_cast<std::ptrdiff_t>(end));
      const fs::path log = work.replay_log(n++);
      const int rc = run({.argv = argv, .log = log,
                           .env = {{"LLVM_PROFILE_FILE", work.profile_pattern().string()}}});
      if (rc == kExitFinding && job.check_expect) {
        result.notes.push_back(fmt::format("a verdict changed in {} (see {})", job.what, log.string()));
      } else if (rc != kExitOk && rc != kExitFinding && rc != kExitOutOfDomain) {
        *error = fmt::format("replay of {} exited with status {}; see {}", job.what, rc,
                             log.string());
        return std::nullopt;
      }
      result.inputs += end - i;
    }
  }

  std::vector<std::string> merge = {profdata.string(), "merge", "-sparse", "-o",
                                    work.merged_profdata().string()};
  for (const auto& f : files_in(profiles, ".profraw")) merge.push_back(f);
  if (merge.size() == 5) {
    *error = "the replays wrote no profile to " + profiles.string() +
             " (is build-coverage built with -fprofile-instr-generate?)";
    return std::nullopt;
  }
  if (run({.argv = merge, .log = work.merge_log()}) != kExitOk) {
    *error = "llvm-profdata merge failed; see " + work.merge_log().string();
    return std::nullopt;
  }

  // stdout (the JSON) and stderr (warnings) to separate files.
  const fs::path json_file = work.export_json();
  const fs::path src = SourceTree{source_dir()}.sources();
  const std::string export_cmd = fmt::format(
      "exec {} export -format=text -instr-profile={} {} {} >{} 2>{}", shell_quote(cov.string()),
      shell_quote(work.merged_profdata().string()), shell_quote(binary.string()),
      shell_quote(src.string()), shell_quote(json_file.string()),
      shell_quote(work.export_log().string()));
  if (run({.argv = {"/bin/sh", "-c", export_cmd}}) != kExitOk) {
    *error = "llvm-cov export failed; see " + work.export_log().string();
    return std::nullopt;
  }
  nlohmann::json doc;
  {
    std::ifstream in(json_file);
    doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  }
  auto report = parse_llvm_cov_export(doc, source_dir(), error);
  if (!report) {
    *error += " (" + json_file.string() + ")";
    return std::nullopt;
  }
  result.report = std::move(*report);

  if (!o.html.empty()) {
    fs::create_directories(o.html, ec);
    if (run({.argv = {cov.string(), "show", "-format=html", "-output-dir=" + o.html.string(),
             "-instr-profile=" + work.merged_profdata().string(), "-show-branches=count",
             "-show-line-counts-or-regions", "-project-title=diffsched", binary.string(),
             src.string()},
             .log = work.html_log()}) != kExitOk) {
      *error = "llvm-cov show -format=html failed; see " + work.html_log().string();
      return std::nullopt;
    }
  }
  return result;
}

}  // namespace diffsched::tools
