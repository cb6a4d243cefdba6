// Up to a loaded harness: the files checked and classified (API form, the
// return convention of cpudl_find()), the work directory, the harness built
// by the fuzz preset, the candidate (and a baseline file) built through the
// kshim and loaded by the harness (link errors reported like compile errors).
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kcheck/session.h"
#include "kcheck/subject_hooks.h"
#include "subject_tools.h"
#include "kcheck/c_source.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::kcheck {

namespace {

constexpr const char* kWorkDirMode = "kernel-check";  // the --work-dir manifest's mode

}  // namespace

bool staged_by_last_run(const Session& s, const fs::path& p) {
  return !s.o.work_dir.empty() &&
         util::written_by_last_run(s.o.work_dir, util::OwnedDirOptions{}.manifest, kWorkDirMode, p);
}

namespace {

using tools::KernelApi;

// A file argument, checked and classified: its API form (cpudl) or that it
// defines the function (pick). Returns kExitOk or prints the reason.
int classify(Session& s, const std::string& file, tools::CandidateSpec* spec) {
  std::error_code ec;
  if (fs::is_directory(file, ec))
    return error(fmt::format("{} is a directory (expected a kernel C file)", file));
  if (!fs::exists(file, ec)) return error(fmt::format("{}: no such file", file));
  if (!fs::is_regular_file(file, ec))
    return error(fmt::format("{} is not a regular file (expected a kernel C file)", file));
  const std::string text = util::read_text(file);
  spec->file = file;
  spec->tool = s.o.tool;
  int status = kExitOk;
  with_tool_subject(*s.o.tool, [&]<class S>(std::type_identity<S>) {
    status = classify_file<S>(s, file, text, spec);  // its package's (kcheck/subject_hooks.h)
  });
  return status;
}

int build(tools::CandidateSpec spec, const fs::path& work, bool forced_api, double seconds,
          fs::path* so) {
  spec.build_seconds = seconds;
  auto b = tools::build_candidate(spec, work);
  if (!b.ok) {
    if (!b.compiler_output.empty()) fmt::print(stderr, "{}", b.compiler_output);
    std::string why = b.summary.empty() ? "see the compiler's messages above" : b.summary;
    if (forced_api)
      why += fmt::format(" (is --api {} the file's form?)", tools::kernel_api_name(spec.api));
    return error("build", fmt::format("{} does not build against the kernel shim: {}",
                                      spec.file.string(), why));
  }
  std::string form;
  with_tool_subject(*spec.tool,
                    [&]<class S>(std::type_identity<S>) { form = describe_form<S>(spec); });
  fmt::print("  built {} ({} API{}{}) in {:.1f} s{}\n", spec.file.string(),
             tools::kernel_api_name(spec.api), form,
             spec.header.empty() ? "" : fmt::format(", header {}", spec.header.string()),
             b.seconds, b.cached ? " (the same build from the build cache)" : "");
  if (!spec.kernel_version.empty())
    fmt::print("  the shim follows the contracts of v{} (--kernel-version)\n", spec.kernel_version);
  *so = b.shared_object;
  return kExitOk;
}

// Whether a kernel file's side reads an op's changes from the store hook, as
// the harness decides it (kcheck_harness.cpp, KernelCSide::stores_logged()):
// under --race or --changes hook, a cpudeadline.c of every form (a v3.14
// file's stores to its own items and cpu_to_idx[] are logged against the
// view's copy of them).
bool logs_stores(const KernelCheckOptions& o) {
  if (o.tool->shape != CandidateShape::kHeapApi) return false;
  return o.race || o.changes == "hook";
}

// The kernel files of the run: the candidate, and the baseline if a file.
std::vector<tools::CandidateSpec*> kernel_files(Session& s) {
  if (s.builtin_base) return {&s.cand};
  return {&s.cand, &s.base};
}

// The checks between options and the files: kExitOk or the reason printed.
int check_arguments(Session& s) {
  const KernelCheckOptions& o = s.o;
  if (int rc = classify(s, o.candidate, &s.cand); rc != kExitOk) return rc;
  s.cand.role = "candidate";
  s.cand.kernel_version = o.kernel_version;
  s.builtin_base = o.baseline.starts_with("builtin-");
  if (!s.builtin_base) {
    if (int rc = classify(s, o.baseline, &s.base); rc != kExitOk) return rc;
    s.base.role = "baseline";
    s.base.kernel_version = o.kernel_version;
  } else {
    const auto& words = o.tool->builtin_baselines;
    if (std::find(words.begin(), words.end(), o.baseline) == words.end())
      return error(fmt::format("--baseline '{}': {} or a file", o.baseline,
                               fmt::join(words, ", ")));
  }
  // --race: every store the file makes calls __sanitizer_cov_storeN first
  // (the harness's hook logs those into its struct cpudl, kcheck_harness.cpp).
  // --changes hook: the same hook tells the incremental checks what an op
  // wrote. Either way the kernel-file sides' incremental checks read the
  // hook ("hook"), else a diff against a copy ("copy").
  // A struct copy is a memcpy intrinsic, which trace-stores does not see:
  // ASan's call for it, renamed, reaches the harness's wrapper, which logs it.
  if (logs_stores(o))
    for (tools::CandidateSpec* f : kernel_files(s))
      f->extra_flags.insert(f->extra_flags.end(),
                            {"-fsanitize-coverage=trace-stores", "-mllvm",
                             "-asan-memory-access-callback-prefix=__kcheck_asan_"});
  s.changes_used = logs_stores(o) ? "hook" : "copy";
  if (!o.capacity.empty() && (!o.tool->capacities || s.builtin_base))
    return error("--capacity needs a cpudl baseline FILE: the built-in heaps and the model do "
                 "not model CPU capacities");
  return kExitOk;
}

// The work directory: one per run, so concurrent runs never share files.
int make_work_dir(Session& s) {
  std::error_code ec;
  s.work = s.o.work_dir;
  if (s.work.empty()) {
    const tools::FuzzBuild fuzz{tools::preset_dir("fuzz")};
    const fs::path root = fuzz.work_dirs();
    fs::create_directories(root, ec);
    const fs::path made =
        util::make_dir_from_template(fuzz.work_dir_template(fs::path(s.o.candidate).stem().string()));
    if (made.empty()) return error(fmt::format("cannot create a directory under {}", root.string()));
    s.work = fs::absolute(made).lexically_normal();
    s.h.work = s.work;
    s.artifacts = tools::KcheckWork{s.work}.artifacts();
    fs::create_directories(s.artifacts, ec);
    return kExitOk;
  }
  s.work = fs::absolute(s.work).lexically_normal();
  s.h.work = s.work;
  // A given --work-dir is a util::OwnedDir (issue 22): new, empty or an
  // earlier kernel-check's, whose recorded files alone are removed, never an
  // input (the candidate, the baseline, a header, --replay, -o) even inside
  // candidate/ or baseline/; what this run adds is recorded when it ends.
  std::vector<fs::path> inputs;
  for_each_option(s.o, [&](const tools::OptionSpec& spec, const auto& field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>)
      if (spec.role != tools::OptionRole::kValue && !field.empty()) inputs.emplace_back(field);
  });
  inputs.insert(inputs.end(), {s.o.candidate, s.o.baseline, s.o.header, s.o.harness});
  std::string why;
  if (!s.owned.open(s.work, {.mode = kWorkDirMode, .option = "--work-dir", .inputs = inputs}, &why) ||
      !s.owned.clean(&why))
    return error(why);
  s.owned_before = s.owned.entries();
  // libFuzzer's artifacts go to a tree of their own, so that a finding is
  // always this run's (never a crash- file an earlier run left).
  s.artifacts = s.owned.tree(tools::KcheckWork{s.work}.artifacts().filename());
  (void)s.owned.tree("candidate");
  (void)s.owned.tree("baseline");
  if (!s.owned.ok(&why)) return error(fmt::format("--work-dir {}: {}", s.work.string(), why));
  return kExitOk;
}

// "" if `binary` has the SHA-256 recorded next to it when it was built
// (BINARY.sha256, kshim/harness/CMakeLists.txt), else why not.
std::string harness_mismatch(const fs::path& binary) {
  const fs::path recorded = binary.string() + ".sha256";
  const std::string want(util::trim(util::read_text(recorded)));
  if (want.empty()) return fmt::format("no hash was recorded when it was built ({})",
                                       recorded.string());
  const std::string got = tools::sha256_file(binary);
  if (got != want)
    return fmt::format("its SHA-256 {} is not the one recorded when it was built ({})",
                       got.empty() ? "(unreadable)" : got, recorded.string());
  return {};
}

int build_harness(Session& s) {
  const auto t = std::chrono::steady_clock::now();
  if (std::error_code e; !fs::exists(s.h.binary, e))
    fmt::print("  building the harness (fuzz preset, first use: a few minutes)...\n");
  std::string why;
  std::fflush(stdout);
  if (!tools::build_preset("fuzz", tools::KcheckWork{s.work}.harness_build_log(), &why, {"kcheck_harness"}))
    return error(fmt::format("could not build the kcheck harness: {}", why));
  if (s.o.replay.empty())
    fmt::print("  harness {} ready ({:.1f} s)\n", s.h.binary.string(), since(t));
  return kExitOk;
}

// The harness, built once by the fuzz preset (unless --harness/--no-build),
// and checked against the hash recorded when it was built: one that does
// not match (something rewrote it) is rebuilt, or refused with --no-build.
// A --harness without a recorded hash is used as named (the user's choice);
// its runs still count only through their result records.
int find_harness(Session& s) {
  const KernelCheckOptions& o = s.o;
  const bool ours = o.harness.empty();
  s.h.binary = ours ? tools::FuzzBuild{tools::preset_dir("fuzz")}.harness()
                    : fs::absolute(tools::find_program(o.harness).empty()
                                       ? fs::path(o.harness)
                                       : tools::find_program(o.harness));
  if (!o.no_build && ours)
    if (int rc = build_harness(s); rc != kExitOk) return rc;
  std::error_code ec;
  if (!fs::is_regular_file(s.h.binary, ec))  // ec: a symlink loop is "no harness", not an abort
    return error(fmt::format("no harness at {}{} (build it: cmake --preset fuzz && cmake --build "
                             "build-fuzz --target kcheck_harness)", s.h.binary.string(),
                             ec ? ": " + ec.message() : std::string()));
  std::string bad = harness_mismatch(s.h.binary);
  if (!bad.empty() && ours && !o.no_build) {
    fmt::print("  the harness {} does not match: {}; rebuilding it\n", s.h.binary.string(), bad);
    fs::remove(s.h.binary, ec);
    if (int rc = build_harness(s); rc != kExitOk) return rc;
    bad = harness_mismatch(s.h.binary);
  }
  if (!bad.empty() && (ours || fs::exists(s.h.binary.string() + ".sha256", ec)))
    return error(fmt::format("refusing the harness {}: {}{}", s.h.binary.string(), bad,
                             ours ? " (without --no-build it is rebuilt)" : ""));
  s.h.identity = file_identity(s.h.binary);
  return kExitOk;
}

// The harness's options common to all its runs: the user's, with the shared
// objects in place of the C files and the level resolved.
void set_harness_options(Session& s) {
  KernelCheckOptions& b = s.h.base;
  b = s.o;
  b.candidate = fs::absolute(s.cand_so).string();
  b.baseline = s.builtin_base ? s.o.baseline : fs::absolute(s.base_so).string();
  b.level = s.level;
  b.output.clear();  // each run names its own (in the work directory)
  b.raw = false;
  s.h.env = {{"ASAN_OPTIONS", fmt::format("detect_leaks=0:allocator_may_return_null=1:exitcode={}",
                                          kcheck::kHarnessSanitizer)},
             {"UBSAN_OPTIONS",
              fmt::format("print_stacktrace=1:exitcode={}", kcheck::kHarnessSanitizer)}};
}

// Loading them: an undefined symbol is a link error, reported like a compile
// error (what the shim lacks, or the file's own mistake).
int load(Session& s) {
  const fs::path load_log = tools::KcheckWork{s.work}.load_log();
  const HarnessRun r = s.h.run(s.h.with_mode("load"), {}, load_log, kWatchdogSlack);
  if (r.is("loaded")) return kExitOk;
  const int rc = r.status;
  const std::string text = util::read_text(load_log);
  if (r.status == kcheck::kHarnessNotRun)
    return error(fmt::format("could not run the harness {}: {}", s.h.binary.string(), r.why));
  if (r.timed_out())
    return error("timeout", fmt::format("loading the candidate did not finish within {:.0f} s",
                                        kWatchdogSlack));
  if (rc == kcheck::kHarnessBadUsage) {
    fmt::print(stderr, "{}", text);
    return error(fmt::format("the harness {} refused its arguments (a kernel-check bug, or a "
                             "--harness of another version)", s.h.binary.string()));
  }
  const bool in_base = !s.builtin_base && text.find(s.base_so.string()) != std::string::npos &&
                       text.find(s.cand_so.string()) == std::string::npos;
  const tools::CandidateSpec& spec = in_base ? s.base : s.cand;
  const std::string why =
      tools::summarize_link_errors(text, util::read_text(spec.file), spec.file.string());
  if (!why.empty())
    return error("build", fmt::format("{} does not link against the kernel shim: {}",
                                      spec.file.string(), why));
  fmt::print(stderr, "{}", text);
  if (rc == kcheck::kHarnessOk || !r.record)  // no record: it did not finish loading
    return error(fmt::format("the candidate ended the harness process (status {}) before the "
                             "checks completed (loading {}; {})",
                             rc, spec.file.string(), r.why));
  return error(fmt::format("the harness could not load {} (status {}; see above)",
                           spec.file.string(), rc));
}

}  // namespace

void Session::print_forms() const {
  if (!forms.empty()) fmt::print("{}\n", forms);
}

int prepare_files(Session& s) {
  if (int rc = check_arguments(s); rc != kExitOk) return rc;
  return make_work_dir(s);
}

int prepare(Session& s) {
  const KernelCheckOptions& o = s.o;
  if (int rc = prepare_files(s); rc != kExitOk) return rc;
  // The candidate runs only in the sandbox: without bubblewrap, nothing runs.
  if (std::string why; tools::sandboxed({}, {}, &why).empty()) return error(why);
  s.level = o.level.empty() ? std::string(level_name(o.tool->default_level)) : o.level;
  s.target = std::string(lockstep_target(*o.tool, *parse_level(s.level))->name);
  const tools::KcheckWork w{s.work};
  s.min_ops = o.output.empty() ? w.minimized() : fs::path(o.output);
  s.reproducer = w.reproducer();
  if (o.replay.empty())
    fmt::print("kernel-check {}: candidate {}, baseline {}, level {}\n  work directory {}\n",
               o.tool->name, o.candidate, o.baseline, s.level, s.work.string());
  if (int rc = find_harness(s); rc != kExitOk) return rc;
  bool forced = false;  // its package's (kcheck/subject_hooks.h)
  with_tool_subject(*o.tool, [&]<class S>(std::type_identity<S>) { forced = form_forced<S>(o); });
  if (int rc = build(s.cand, s.work, forced, o.build_seconds, &s.cand_so); rc != kExitOk)
    return rc;
  if (!s.builtin_base)
    if (int rc = build(s.base, s.work, forced, o.build_seconds, &s.base_so); rc != kExitOk)
      return rc;
  set_harness_options(s);
  if (int rc = load(s); rc != kExitOk) return rc;
  if (!s.find_return_errors.empty()) return error("build", s.find_return_errors.front());
  return kExitOk;
}

}  // namespace diffsched::kcheck
