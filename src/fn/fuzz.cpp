// diffsched fn --fuzz (fuzz.h): each side built as a library object, the
// fuzzer linked from them and the runner (fuzz_runner.cpp), run with a
// deadline, and the inputs it stopped on decoded.
#include "fn/fuzz.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "kcheck/work.h"
#include "tools/process.h"

#ifndef DIFFSCHED_FN_FUZZ_LINK
#define DIFFSCHED_FN_FUZZ_LINK ""
#endif

namespace diffsched::fn {

namespace fs = std::filesystem;
using nlohmann::json;

json to_json(const FuzzConfig& c) {
  return {{"old", {{"file", c.old_file}, {"function", c.old_function}}},
          {"new", {{"file", c.new_file}, {"function", c.new_function}}},
          {"spec", c.spec_file}, {"level", c.level}, {"nr_cpus", c.nr_cpus}, {"stats", c.stats},
          {"config", c.config}, {"kernel", c.kernel}};
}

bool from_json(const json& j, FuzzConfig* c) {
  try {
    c->old_file = j.at("old").at("file").get<std::string>();
    c->old_function = j.at("old").at("function").get<std::string>();
    c->new_file = j.at("new").at("file").get<std::string>();
    c->new_function = j.at("new").at("function").get<std::string>();
    c->spec_file = j.at("spec").get<std::string>();
    c->level = j.at("level").get<std::string>();
    c->nr_cpus = j.at("nr_cpus").get<unsigned>();
    c->stats = j.at("stats").get<std::string>();
    c->config = j.at("config").get<std::vector<std::string>>();
    c->kernel = j.at("kernel").get<std::string>();
  } catch (const json::exception&) {
    return false;
  }
  return true;
}

namespace {

fs::path first_program(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (fs::path p = tools::find_program(n); !p.empty()) return p;
  return {};
}

// What went wrong, from a log: its `error:` line (first_error_line), a
// sanitizer's or libFuzzer's `ERROR:` line, else its first line.
std::string error_line(const fs::path& log) {
  if (std::string line = first_error_line(log); !line.empty()) return line;
  std::istringstream in(tools::read_text(log));
  std::string first;
  for (std::string line; std::getline(in, line);) {
    if (line.find("ERROR:") != std::string::npos) return line;
    if (first.empty() && !line.empty()) first = line;
  }
  return first;
}

// Runs argv in the sandbox, writable only `writable`: its status, or -1 with *error.
int boxed(const std::vector<std::string>& argv, const std::vector<fs::path>& writable, const fs::path& log,
          const fs::path& cwd, double deadline, std::string* error,
          std::vector<std::pair<std::string, std::string>> env = {}) {
  const auto box = tools::sandboxed(argv, writable, error);
  if (box.empty()) return -1;
  return tools::run({.argv = box, .log = log, .cwd = cwd, .env = std::move(env), .deadline = deadline,
                     .stdin_null = true});
}

// The side's unit (unit.c, written by build_side) and the shim's runtime as
// one object whose only global symbol is fnh_one_<role>.
bool build_fuzz_side(const Side& side, const fs::path& clang, std::string* error) {
  const SideDir files{side.dir};
  const fs::path dir = side.dir / "fuzz-objects";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string entry = "fnh_one_" + side.role;
  const tools::ShimTree shim = tools::ShimTree::of(tools::source_dir());
  std::vector<std::string> argv = {clang.string()};
  for (const auto& a : side.x.compile_args(shim.dir)) argv.push_back(a);
  const auto sanitizers = sanitizer_flags();
  argv.insert(argv.end(), sanitizers.begin(), sanitizers.end());
  argv.insert(argv.end(), {"-fsanitize=fuzzer-no-link", "-DFNH_LIBRARY=" + entry, "-c",
                           files.unit().string(), shim.runtime("runtime.c").string(),
                           shim.runtime("bitmap.c").string()});
  const fs::path log = files.fuzz_build_log();
  auto fail = [&](const std::string& what, int rc) {
    if (error->empty())
      *error = fmt::format("{} side {}: {} for --fuzz failed: {}", side.role, side.file, what,
                           rc == -1 ? std::string("cannot run it") : error_line(log));
    return false;
  };
  error->clear();
  if (int rc = boxed(argv, {side.dir}, log, dir, 180, error); rc != 0) return fail("compiling its unit", rc);
  const fs::path ld = first_program({"ld", "ld.lld-14", "ld.lld"});
  const fs::path objcopy = first_program({"llvm-objcopy-14", "llvm-objcopy", "objcopy"});
  if (ld.empty() || objcopy.empty()) {
    *error = "fn --fuzz needs ld and objcopy (binutils) on PATH";
    return false;
  }
  const fs::path object = files.fuzz_object();
  if (int rc = boxed({ld.string(), "-r", "-o", object.string(), (dir / "unit.o").string(),
                      (dir / "runtime.o").string(), (dir / "bitmap.o").string()},
                     {side.dir}, log, dir, 60, error);
      rc != 0)
    return fail("linking its objects", rc);
  if (int rc = boxed({objcopy.string(), "--keep-global-symbol=" + entry, object.string()}, {side.dir}, log,
                     dir, 60, error);
      rc != 0)
    return fail("hiding its symbols", rc);
  return true;
}

// The runner's objects and libraries, as CMake wrote them (fn-fuzz-link.txt).
bool runner_link_args(std::vector<std::string>* args, std::string* error) {
  const fs::path list = DIFFSCHED_FN_FUZZ_LINK;
  std::ifstream in(list);
  if (list.empty() || !in) {
    *error = fmt::format("fn --fuzz: this diffsched has no fuzz runner to link ({} is missing; "
                         "build the diffsched_fnfuzz target)", list.empty() ? "fn-fuzz-link.txt" : list.string());
    return false;
  }
  std::vector<std::string> archives, others;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) (line.ends_with(".a") ? archives : others).push_back(line);
  args->push_back("-Wl,--start-group");
  args->insert(args->end(), archives.begin(), archives.end());
  args->push_back("-Wl,--end-group");
  args->insert(args->end(), others.begin(), others.end());
  return true;
}

bool link_fuzzer(const Side& old_side, const Side& new_side, const FuzzDir& dir, std::string* error) {
  const fs::path clangxx = first_program({"clang++-14", "clang++"});
  if (clangxx.empty()) {
    *error = "clang++-14 not found on PATH (run scripts/install-deps.sh)";
    return false;
  }
  std::vector<std::string> argv = {clangxx.string(), "-fsanitize=fuzzer,address,undefined", "-o",
                                   dir.fuzzer().string(), SideDir{old_side.dir}.fuzz_object().string(),
                                   SideDir{new_side.dir}.fuzz_object().string()};
  if (!runner_link_args(&argv, error)) return false;
  if (!first_program({"ld.lld-14", "ld.lld"}).empty()) argv.push_back("-fuse-ld=lld");
  const int rc = tools::run({.argv = argv, .log = dir.link_log(), .deadline = 300, .stdin_null = true});
  if (rc != 0) {
    *error = fmt::format("fn --fuzz: linking the fuzzer failed: {}", error_line(dir.link_log()));
    return false;
  }
  return true;
}

bool read_input_file(const fs::path& p, std::vector<std::uint8_t>* bytes) {
  std::ifstream in(p, std::ios::binary);
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return static_cast<bool>(in) || in.eof();
}

}  // namespace

std::string fuzz_text(const FnOptions& o, const FuzzRun& fuzz, json* j) {
  (*j)["fuzz"] = {{"runs", fuzz.counted ? json(fuzz.runs) : json()}, {"seconds", fuzz.seconds},
                  {"stopped_on", fuzz.stopped_on}, {"found", fuzz.found.size()}, {"skipped", fuzz.skipped}};
  if (fuzz.skipped) return "libFuzzer not run: the generated inputs have a finding";
  const std::string ran = !fuzz.counted ? "libFuzzer" : fmt::format(
      "libFuzzer for {:.1f} s: {} inputs, {:.0f}/s", fuzz.seconds, fuzz.runs,
      fuzz.seconds > 0 ? static_cast<double>(fuzz.runs) / fuzz.seconds : 0.0);
  return ran + (fuzz.stopped_on.empty() ? "" : fmt::format(", stopped on {} (input {})", fuzz.stopped_on, o.runs));
}

bool fuzz_pair(const FnOptions& o, const Side& old_side, const Side& new_side, const WorkDir& work,
               FuzzRun* out, std::string* error) {
  const FuzzDir dir = work.fuzz();
  std::error_code ec;
  const fs::path corpus = o.fuzz_corpus.empty() ? dir.corpus() : fs::absolute(o.fuzz_corpus);
  for (const fs::path& d : {dir.dir, corpus, dir.artifacts()}) fs::create_directories(d, ec);
  if (!fs::is_directory(corpus)) {
    *error = fmt::format("--fuzz-corpus {}: not a directory that can be made", o.fuzz_corpus);
    return false;
  }
  fs::path clang = first_program({"clang-14", "clang"});
  if (clang.empty()) {
    *error = "clang-14 not found on PATH (run scripts/install-deps.sh)";
    return false;
  }
  for (const Side* s : {&old_side, &new_side})
    if (!build_fuzz_side(*s, clang, error)) return false;
  if (!link_fuzzer(old_side, new_side, dir, error)) return false;
  const FuzzConfig config{fs::absolute(o.old_file).string(), o.old_function,
                          fs::absolute(o.new_file).string(), o.new_function,
                          o.spec_file.empty() ? "" : fs::absolute(o.spec_file).string(),
                          o.level, o.nr_cpus, dir.stats().string(), o.config,
                          old_side.layout.era};
  {
    std::ofstream f(dir.config());
    f << to_json(config).dump() << "\n";
    if (!f) {
      *error = fmt::format("cannot write {}", dir.config().string());
      return false;
    }
  }
  const std::vector<std::string> argv = {
      dir.fuzzer().string(), fmt::format("-seed={}", o.seed),
      fmt::format("-max_total_time={}", o.fuzz_seconds), fmt::format("-timeout={}", kHangSeconds + 1),
      "-rss_limit_mb=4096", "-max_len=16384", "-print_final_stats=1",
      "-artifact_prefix=" + dir.artifacts().string() + "/", corpus.string()};
  const int rc = boxed(argv, {dir.dir, corpus}, dir.log(), dir.dir, static_cast<double>(o.fuzz_seconds) + 240, error,
                       {{"DIFFSCHED_FN_FUZZ", dir.config().string()},
                        {"ASAN_OPTIONS", "detect_leaks=0:detect_odr_violation=0:symbolize=0"},
                        {"UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=0"}});
  if (rc == -1) {
    if (error->empty()) *error = "fn --fuzz: cannot start the fuzzer";
    return false;
  }
  if (const json s = json::parse(tools::read_text(dir.stats()), nullptr, false); s.is_object()) {
    out->counted = true;
    out->runs = s.value("runs", std::uint64_t{0});
    out->seconds = s.value("seconds", 0.0);
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir.artifacts(), ec)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::vector<std::uint8_t> bytes;
    if (!read_input_file(f, &bytes)) continue;
    out->found.push_back(decode_input(old_side.layout, bytes, o.nr_cpus));
    if (out->stopped_on.empty()) out->stopped_on = f.filename().string();
  }
  if (rc != 0 && out->found.empty()) {
    *error = rc == tools::kExitTimedOut
                 ? fmt::format("fn --fuzz: the fuzzer did not stop after {} s (see {})",
                               o.fuzz_seconds + 240, dir.log().string())
                 : fmt::format("fn --fuzz: the fuzzer stopped with status {} and no input: {}", rc,
                               error_line(dir.log()));
    return false;
  }
  return true;
}

bool fuzz_stage(const FnOptions& o, const Side& old_side, const Side& new_side, const WorkDir& work,
                std::vector<Input>* inputs, std::vector<Observation>* a, std::vector<Observation>* b,
                FuzzRun* out, std::string* error) {
  if (!fuzz_pair(o, old_side, new_side, work, out, error)) return false;
  if (out->found.empty()) return true;
  const fs::path batch = work.fuzz().found_batch();
  if (!write_batch(batch.string(), out->found)) {
    *error = "cannot write the batch file " + batch.string();
    return false;
  }
  std::vector<Observation> fa, fb;
  for (auto [s, obs] : {std::pair{&old_side, &fa}, std::pair{&new_side, &fb}})
    if (!run_side(*s, batch, out->found.size(), obs, error)) return false;
  inputs->insert(inputs->end(), out->found.begin(), out->found.end());
  a->insert(a->end(), fa.begin(), fa.end());
  b->insert(b->end(), fb.begin(), fb.end());
  return true;
}

}  // namespace diffsched::fn
