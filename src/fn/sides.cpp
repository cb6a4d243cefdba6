// diffsched fn: one side's steps (sides.h).
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "fn/sides.h"
#include "fn/era.h"
#include "fn/workdir.h"
#include "kcheck/options.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::fn {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

}  // namespace

std::string first_error_line(const fs::path& log) {
  std::istringstream in(tools::read_text(log));
  for (std::string line; std::getline(in, line);)
    if (const auto at = line.find("error:"); at != std::string::npos) return line;
  return {};
}

std::vector<std::string> sanitizer_flags() {
  // The kernel builds with -fno-strict-overflow: signed overflow wraps.
  return {"-g", "-O1", "-fwrapv", "-fsanitize=address,undefined", "-fno-sanitize=signed-integer-overflow",
          "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"};
}

// A sanitizer report's first line, without what changes from run to run:
// an AddressSanitizer report is its kind ("SEGV", "heap-buffer-overflow",
// "attempting double-free"; the words before its first address, `on`, `at`
// or `(`), and " on a null pointer" when the report's hint says the address
// is in the zero page; an UndefinedBehaviorSanitizer report its message with
// every address (0x and six or more hex digits) written `0x...`.
std::string sanitizer_summary(std::string_view log) {
  std::string asan, ubsan;
  bool null_page = false;
  for (std::size_t at = 0; at < log.size();) {
    std::size_t end = log.find('\n', at);
    if (end == std::string_view::npos) end = log.size();
    const std::string_view line = log.substr(at, end - at);
    at = end + 1;
    if (const auto a = line.find("ERROR: AddressSanitizer: "); a != std::string_view::npos && asan.empty()) {
      std::istringstream words{std::string(line.substr(a + 25))};
      for (std::string w; words >> w;) {
        if (w == "on" || w == "at" || w.rfind("0x", 0) == 0 || w.rfind("(", 0) == 0 || w.rfind("[", 0) == 0) break;
        const bool colon = w.back() == ':';
        if (colon) w.pop_back();
        asan += (asan.empty() ? "" : " ") + w;
        if (colon) break;
      }
      if (asan.empty()) asan = "unknown";
      asan = "AddressSanitizer: " + asan;
    } else if (line.find("address points to the zero page") != std::string_view::npos) {
      null_page = true;
    } else if (const auto u = line.find("runtime error: "); u != std::string_view::npos && ubsan.empty() && asan.empty()) {
      const std::string_view msg = line.substr(u + 15);
      for (std::size_t i = 0; i < msg.size();) {
        std::size_t j = i + 2;
        if (msg.compare(i, 2, "0x") == 0) {
          while (j < msg.size() && std::isxdigit(static_cast<unsigned char>(msg[j]))) ++j;
          if (j - i - 2 >= 6) {
            ubsan += "0x...";
            i = j;
            continue;
          }
        }
        ubsan += msg[i++];
      }
      ubsan = "UndefinedBehaviorSanitizer: " + ubsan;
    }
  }
  if (!asan.empty()) return null_page ? asan + " on a null pointer" : asan;
  return ubsan;
}

namespace {

// The harness's exit statuses for sanitizer reports (ASAN_OPTIONS,
// UBSAN_OPTIONS below), and its own "bad batch" status.
constexpr int kAsanExit = 86, kUbsanExit = 87, kHarnessBadBatch = 2;


// What a crashed run's log says, for display only (the verdict comes from
// the exit status and the records).
std::string fault_of(int rc, const fs::path& log, double deadline) {
  if (std::string what = sanitizer_summary(tools::read_text(log)); !what.empty()) return what;
  if (rc == tools::kExitTimedOut) return fmt::format("hang: no return within {} s", deadline);
  if (rc == 128 + 14) return fmt::format("hang: no return within {} s (SIGALRM)", kHangSeconds);
  if (rc > 128) return fmt::format("signal {}", rc - 128);
  return fmt::format("exit status {}", rc);
}

// The shim's runtime (runtime.c, bitmap.c) compiled with the side's flags,
// once per run for each set of -DKSHIM_OWN_ flags: the directory holding
// runtime.o and bitmap.o, or empty when there is no cache (*rc: clang's
// status, 0 when it worked).
fs::path runtime_objects(const Side& side, const std::vector<std::string>& flags,
                         const fs::path& log, int* rc, bool clock) {
  if (side.runtime_cache.empty()) return {};
  std::string key = clock ? "clock" : "";
  for (const auto& own : side.x.shim_own) key += "," + own;
  const RuntimeObjects objects = RuntimeObjects::in(side.runtime_cache, std::hash<std::string>{}(key));
  const fs::path& dir = objects.dir;
  if (fs::exists(objects.bitmap())) return dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const tools::ShimTree shim = tools::ShimTree::of(tools::source_dir());
  std::vector<std::string> argv = flags;
  argv.insert(argv.end(), {"-c", shim.runtime("runtime.c").string(), shim.runtime("bitmap.c").string()});
  std::string why;
  const auto box = tools::sandboxed(argv, {side.runtime_cache}, &why);
  *rc = box.empty() ? -1
                    : tools::run({.argv = box, .log = log, .cwd = dir, .deadline = 120,
                                  .stdin_null = true});
  return dir;
}

}  // namespace

bool prepare_side(Side& side, const Spec& spec, std::string* error,
                  const std::set<std::string>& uncovered) {
  ExtractOptions eo;
  eo.file_name = side.file;
  if (spec.depth > 0) eo.field_depth = spec.depth;
  auto root = [&eo](const std::string& fn) {
    if (!fn.empty() && std::find(eo.roots.begin(), eo.roots.end(), fn) == eo.roots.end())
      eo.roots.push_back(fn);
  };
  for (const auto& [path, ps] : spec.params) root(ps.fn);
  for (const auto& [name, g] : spec.globals) root(g.fn);
  for (const auto& [name, value] : spec.config) eo.defines.push_back(fmt::format("{}={}", name, value));
  if (!spec.kernel.empty()) eo.defines.push_back(tools::kernel_version_define(spec.kernel));
  for (const auto& [name, s] : spec.stubs) eo.stubbed.push_back(name);
  side.x = extract_function_from_file(side.file, side.function, eo);
  const std::string where = fmt::format("{} side {}", side.role, side.file);
  if (!side.x.ok()) {
    // The extraction's message starts with the file's name already.
    const bool named = side.x.error.rfind(side.file + ":", 0) == 0;
    *error = fmt::format("{} side {}", side.role, named ? side.x.error : side.file + ": " + side.x.error);
    return false;
  }
  if (!side.x.diagnostics.empty()) {  // "LINE: message"
    const std::string& first = side.x.diagnostics.front();
    // sched_feat(X) is the shim's KSHIM_SCHED_FEAT_X: a feature of another
    // era than the shim's is named as the file spells it.
    constexpr std::string_view kFeat = "'KSHIM_SCHED_FEAT_";
    if (const auto at = first.find(kFeat); at != std::string::npos) {
      const std::string feat = first.substr(at + kFeat.size(), first.find('\'', at + kFeat.size()) - at - kFeat.size());
      *error = fmt::format("{} side {}:{}: sched_feat({}) is a scheduler feature the shim does not model "
                           "(its features are v5.10 to v7.2's, with their defaults: kshim/include/kshim/sched_fair.h) "
                           "(the extracted unit of {}() does not compile)",
                           side.role, side.file, first.substr(0, first.find(':')), feat, side.function);
      return false;
    }
    *error = fmt::format("{} side {}:{} (the extracted unit of {}() does not compile)", side.role,
                         side.file, first, side.function);
    // A header the shim lacks is the likely cause of an unknown name: say so.
    if (!side.x.missing_includes.empty())
      *error += fmt::format("; the shim cannot resolve #include {}, which may declare it",
                            side.x.missing_includes.front());
    return false;
  }
  // An external function the shim lacks becomes a stub (stubs.cpp), in build_layout.
  if (!side.x.missing_includes.empty()) {
    // Refused even when the unit compiles: a header may define what the
    // function uses without any error where it is missing (an X-macro list
    // left empty makes a mask 0), so it is never guessed.
    *error = fmt::format("{}: the shim cannot resolve #include {}{}, and a header is never guessed "
                         "(one left empty can change what compiles without an error): add it to "
                         "the shim (kshim/include), or check a copy of the file without the line "
                         "if {}() needs nothing from it",
                         where, side.x.missing_includes.front(),
                         side.x.missing_includes.size() > 1
                             ? fmt::format(" (and {} more)", side.x.missing_includes.size() - 1)
                             : "",
                         side.function);
    return false;
  }
  Extraction pruned;
  if (!uncovered.empty()) {
    pruned = side.x;
    std::erase_if(pruned.globals, [&](const GlobalRead& g) { return uncovered.count(g.name) > 0; });
  }
  if (!build_layout(uncovered.empty() ? side.x : pruned, spec, &side.layout, error)) {
    *error = fmt::format("{}: {}", where, *error);
    return false;
  }
  return true;
}

bool unit_failed(const Side& side) { return side.x.ok() && !side.x.diagnostics.empty(); }

bool prepare_pair(const Spec& spec, Side& old_side, Side& new_side, std::string* error) {
  auto prepare = [&](const Spec& at, std::string* why) {
    for (Side* s : {&old_side, &new_side}) s->x = {};
    for (Side* s : {&old_side, &new_side})
      if (!prepare_side(*s, at, why)) return false;
    *why = sides_agree(at, old_side, new_side);
    return why->empty();
  };
  EraChoice era;
  if (!resolve_era(spec, old_side.file, new_side.file, prepare,
                   [&] { return unit_failed(old_side) || unit_failed(new_side); }, &era, error))
    return false;
  for (Side* s : {&old_side, &new_side}) {
    s->layout.era = era.version;
    s->layout.era_why = era.why;
  }
  return true;
}

namespace {

void collect_paths(const Node& n, std::set<std::string>* out) {
  if (!n.path.empty()) out->insert(n.path);
  for (const Node& k : n.kids) collect_paths(k, out);
}

// The paths one step below `parent` ("heap" -> heap.data, heap.nr), for the
// message about a path that names nothing.
std::string paths_below(const std::set<std::string>& paths, const std::string& parent) {
  std::string out;
  for (const std::string& p : paths) {
    if (p.size() <= parent.size() || p.rfind(parent, 0) != 0) continue;
    const std::string rest = p.substr(parent.size());
    const bool field = rest[0] == '.' && rest.find_first_of(".[", 1) == std::string::npos;
    if ((field || rest == "[]") && out.size() < 200) out += (out.empty() ? "" : ", ") + p;
  }
  return out;
}

}  // namespace

std::string sides_agree(const Spec& spec, Side& old_side, Side& new_side) {
  if (const std::string join = join_sides(&old_side.layout, &new_side.layout); !join.empty())
    return fmt::format("the two versions take different inputs: {}", join);
  return spec_unused(spec, old_side, new_side);
}

std::string spec_unused(const Spec& spec, const Side& a, const Side& b) {
  // Every value of a's parameters and covered globals the spec can name.
  std::set<std::string> paths;
  for (const Slot& s : a.layout.params) collect_paths(s.node, &paths);
  for (const Slot& s : a.layout.globals)
    if (!s.is_stub) collect_paths(s.node, &paths);
  for (const auto& [path, p] : spec.params) {
    const std::string name = path.substr(0, path.find_first_of(".["));
    bool found = false;
    for (const auto* list : {&a.layout.params, &a.layout.globals})
      for (const Slot& s : *list) found |= !s.is_stub && s.name == name;
    if (!found)
      return fmt::format("the spec names parameter `{}`, which {}() does not have (nor a global "
                         "a `global {} input` line covers)",
                         name, a.function, name);
    // A path below a parameter that names no field, element or pointee
    // (`heap.dta`) would refine nothing, silently.
    for (const std::string& named : {path, p.elements_size}) {
      if (named.empty() || paths.count(named)) continue;
      std::string parent = named.substr(0, named.find_last_of('.'));
      if (named.ends_with("[]")) parent = named.substr(0, named.size() - 2);
      const std::string below = paths.count(parent) ? paths_below(paths, parent) : "";
      return fmt::format("the spec names `{}`, which is no value of {}()'s parameters{}", named,
                         a.function,
                         below.empty() ? std::string(" it generates")
                                       : fmt::format(" (below `{}`: {})", parent, below));
    }
  }
  for (const auto& [name, g] : spec.globals)
    if (!a.x.global(name) && !b.x.global(name))
      return fmt::format("the spec names global `{}`, which neither side touches", name);
  for (const auto& [name, st] : spec.stubs) {
    bool found = false;
    for (const Stub& s : a.layout.stubs) found |= s.name == name;
    if (!found)
      return fmt::format("the spec names stub `{}`, which is no external function either side "
                         "calls that the shim lacks, nor a function of the file either side "
                         "calls", name);
  }
  // A kernel option neither file tests would define nothing, silently.
  if (!spec.config.empty()) {
    const std::string texts = util::read_text(a.file) + util::read_text(b.file);
    for (const auto& [name, value] : spec.config)
      if (!spec.config_options.count(name) && texts.find(name) == std::string::npos)
        return fmt::format("the spec defines `{}` (config), which neither file names", name);
  }
  return {};
}

bool build_side(Side& side, std::string* error, unsigned clock_reps) {
  std::error_code ec;
  fs::create_directories(side.dir, ec);
  const SideDir files{side.dir};
  const bool clock = clock_reps > 0;
  const fs::path unit = clock ? files.clock_unit() : files.unit();
  const fs::path log = clock ? files.clock_build_log() : files.build_log();
  fs::path& exe = clock ? side.clock_exe : side.exe;
  exe = clock ? files.clock_harness() : files.harness();
  {
    std::ofstream f(unit);
    if (clock) f << "#define FNH_CLOCK_REPS " << clock_reps << "\n";
    f << stub_prototypes(side.layout) << side.x.text << "\n"
      << harness_source(side.layout, side.function);
    if (!f) {
      *error = fmt::format("cannot write {}", unit.string());
      return false;
    }
  }
  fs::path clang = tools::find_program("clang-14");
  if (clang.empty()) clang = tools::find_program("clang");
  if (clang.empty()) {
    *error = "clang-14 not found on PATH (run scripts/install-deps.sh)";
    return false;
  }
  const tools::ShimTree shim = tools::ShimTree::of(tools::source_dir());
  std::vector<std::string> flags = {clang.string()};
  for (const auto& a : side.x.compile_args(shim.dir)) flags.push_back(a);
  if (clock) {
    flags.insert(flags.end(), {"-O2", "-fwrapv"});  // -fwrapv: as sanitizer_flags()
  } else {
    const auto sanitizers = sanitizer_flags();
    flags.insert(flags.end(), sanitizers.begin(), sanitizers.end());
    // the memory operations of each call (harness_gen.cpp's hooks);
    // trace-loads/stores need a base coverage kind in clang 14
    flags.push_back("-fsanitize-coverage=inline-8bit-counters,trace-loads,trace-stores");
  }
  int rc = 0;
  const fs::path objects = runtime_objects(side, flags, log, &rc, clock);
  std::vector<std::string> argv = flags;
  argv.push_back(unit.string());
  if (objects.empty()) {
    argv.insert(argv.end(), {shim.runtime("runtime.c").string(), shim.runtime("bitmap.c").string()});
  } else {
    const RuntimeObjects built{objects};
    argv.insert(argv.end(), {built.runtime().string(), built.bitmap().string()});
  }
  argv.insert(argv.end(), {"-o", exe.string()});
  // lld links the sanitizer runtimes several times faster than bfd ld.
  if (!tools::find_program("ld.lld-14").empty() || !tools::find_program("ld.lld").empty())
    argv.push_back("-fuse-ld=lld");
  // kernel-check's sandbox (tools::sandboxed): the user's code is compiled
  // and run with the file system read-only but for the work directory.
  std::string why;
  const fs::path writable = side.runtime_cache.empty() ? side.dir : side.runtime_cache;
  const auto box = tools::sandboxed(argv, {writable}, &why);
  if (box.empty()) {
    *error = why;
    return false;
  }
  if (rc == 0) rc = tools::run({.argv = box, .log = log, .deadline = 120, .stdin_null = true});
  if (rc != 0) {
    const std::string line = first_error_line(log);
    *error = fmt::format("{} side {}: the extracted unit of {}() with its harness does not "
                         "compile: {}", side.role, side.file, side.function,
                         line.empty() ? fmt::format("the compiler exited with {}", rc) : line);
    return false;
  }
  return true;
}

bool run_side(const Side& side, const fs::path& batch, std::size_t n,
              std::vector<Observation>* out, std::string* error) {
  out->assign(n, Observation{});
  const fs::path records = SideDir{side.dir}.records(), log = SideDir{side.dir}.run_log();
  const double deadline = 10.0 + 0.05 * static_cast<double>(n);
  std::size_t start = 0;
  int faults = 0;
  while (start < n) {
    std::error_code ec;
    fs::remove(records, ec);
    const auto box = tools::sandboxed(
        {side.exe.string(), batch.string(), records.string(), std::to_string(start)}, {side.dir},
        error);
    if (box.empty()) return false;
    const int rc = tools::run(
        {.argv = box,
         .log = log,
         .env = {{"ASAN_OPTIONS", fmt::format("detect_leaks=0:exitcode={}:symbolize=0", kAsanExit)},
                 {"UBSAN_OPTIONS", fmt::format("halt_on_error=1:exitcode={}:print_stacktrace=0", kUbsanExit)}},
         .deadline = deadline,
         .stdin_null = true});
    std::size_t next = start;
    std::istringstream in(tools::read_text(records));
    for (std::string line; std::getline(in, line);) {
      json r = json::parse(line, nullptr, false);
      if (r.is_discarded() || !r.contains("k")) continue;  // a line cut by a crash
      const auto k = r["k"].get<std::size_t>();
      if (k >= n) continue;
      (*out)[k].run = true;
      (*out)[k].record = std::move(r);
      next = std::max(next, k + 1);
    }
    if (rc == 0 && next == n) return true;
    if (rc == kHarnessBadBatch && next == start && start == 0) {
      *error = fmt::format("{} side: the harness could not read its batch (see {})", side.role,
                           log.string());
      return false;
    }
    if (rc == 0 || next >= n) {
      *error = fmt::format("{} side: the harness stopped at input {} of {} (status {})", side.role,
                           next, n, rc);
      return false;
    }
    (*out)[next].run = true;
    (*out)[next].fault = true;
    (*out)[next].fault_what = fault_of(rc, log, deadline);
    start = next + 1;
    if (++faults >= kMaxFaults || rc == 128 + 14 || rc == tools::kExitTimedOut) break;
  }
  return true;
}

}  // namespace diffsched::fn
