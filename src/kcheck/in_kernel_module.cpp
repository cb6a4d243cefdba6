// kernel-check --in-kernel: the builds. The candidate, unmodified, staged
// with the module's sources (kshim/kmod/) and built by kbuild against the
// kernel's headers; the same candidate built against the shim (as
// kernel-check builds it) and the twin that drives it; export --kmod's
// standalone module directory.
#include "kcheck/build_cache.h"
#include "kcheck/in_kernel_internal.h"
#include "kcheck/subject_hooks.h"
#include "io/load.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::tools::in_kernel_detail {

namespace {

// Every file a staged module holds: its path in the module and where it
// comes from under the source tree (empty: written, or the candidate's).
struct StagedFile {
  const char* rel;
  const char* from;
};
constexpr StagedFile kStaged[] = {
    {"kc_driver.c", "kshim/kmod/kc_driver.c"},   {"kc_driver.h", "kshim/kmod/kc_driver.h"},
    {"kc_driver_internal.h", "kshim/kmod/kc_driver_internal.h"},
    {"kc_ops.h", "kshim/abi/kc_ops.h"},          {"kc_port.h", "kshim/kmod/kc_port.h"},
    {"kc_module.c", "kshim/kmod/kc_module.c"},   {"sched.h", "kshim/kmod/sched.h"},
    {"kc_runtime.c", "kshim/kmod/kc_runtime.c"}, {"kc_runtime.h", "kshim/kmod/kc_runtime.h"},
    {"kc_ktap.c", "kshim/kmod/kc_ktap.c"},
    {"kc_pick.h", "kshim/kmod/kc_pick.h"},       {"kc_rename.h", "kshim/kmod/kc_rename.h"},
    {ModuleStage::kGuestInit, "kshim/kmod/init.sh"}, {"kshim/kshim.h", "kshim/kmod/kshim/kshim.h"},
    {"kc_inc/linux/sched/deadline.h", "kshim/kmod/kc_inc/linux/sched/deadline.h"},
    {"kcheck_abi.h", "kshim/abi/kcheck_abi.h"},  {ModuleStage::kGlue, nullptr},
    {ModuleStage::kCandidate, nullptr},          {ModuleStage::kHeader, nullptr},
    {ModuleStage::kDriverSubject, nullptr},      {ModuleStage::kKbuild, nullptr}};
// What export --kmod adds (program.ops, program.txt, README).
constexpr const char* kExported[] = {"program.ops", "program.txt", "README"};

// A word in a Makefile variable: '$' as "$$", '#' as "\#" (make's own
// quoting, after the shell's).
std::string make_word(const std::string& word) {
  std::string out;
  for (char c : word) out += c == '$' ? std::string("$$") : c == '#' ? std::string("\\#") : std::string(1, c);
  return out;
}

// Copies `from` to `to` unless they are one file (an input inside the
// directory, staged from where it is).
void copy_into(const fs::path& from, const fs::path& to, std::error_code& ec) {
  if (ec) return;
  std::error_code same;
  if (fs::equivalent(from, to, same) && !same) return;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
}

}  // namespace

std::vector<util::OwnedEntry> module_files(bool exported) {
  std::vector<util::OwnedEntry> out;
  for (const auto& f : kStaged) out.push_back({util::OwnedEntry::kFile, f.rel});
  if (exported)
    for (const char* f : kExported) out.push_back({util::OwnedEntry::kFile, f});
  return out;
}

bool stage_module(const CandidateSpec& spec, util::OwnedDir& dir, std::string* error,
                  const ModuleShape& shape) {
  const fs::path src = source_dir();
  const ShimTree tree = ShimTree::of(src);
  std::error_code ec;
  for (const auto& f : kStaged)
    if (f.from) copy_into(src / f.from, dir.file(f.rel), ec);
  kcheck::ModuleGlue glue;
  fs::path header = spec.header;
  const std::string source = fmt::format("-DKCHECK_SOURCE={}", make_word(util::shell_quote(
      util::c_string_literal(spec.file.filename().string()))));
  with_tool_subject(*spec.tool, [&]<class S>(std::type_identity<S>) {
    glue = kcheck::module_glue<S>(spec, source);  // its package's (kcheck/subject_hooks.h)
    if (header.empty()) header = kcheck::staged_header<S>(spec, tree);
  });
  copy_into(tree.runtime(glue.glue), dir.file(ModuleStage::kGlue), ec);
  copy_into(tree.driver_subject(spec.tool->name), dir.file(ModuleStage::kDriverSubject), ec);
  copy_into(spec.file, dir.file(ModuleStage::kCandidate), ec);
  copy_into(header, dir.file(ModuleStage::kHeader), ec);
  std::string why;
  if (ec || !dir.ok(&why)) {
    *error = fmt::format("cannot stage the module in {}: {}", dir.dir().string(),
                         ec ? ec.message() : why);
    return false;
  }
  std::string own;
  for (const auto& name : shim_helpers_defined_by(read_text(spec.file) + "\n" + read_text(header)))
    own += " -DKSHIM_OWN_" + name;
  const std::string& rename = glue.rename;
  const std::string kbuild = fmt::format(
      "# kernel-check --in-kernel: the candidate, unmodified, in a module (diffsched).\n"
      "LINUXINCLUDE := -I$(src)/kc_inc $(LINUXINCLUDE)\n"
      "KC_FAA := $(shell grep -qs cpumask_first_and_and $(srctree)/include/linux/cpumask.h || "
      "echo -DKC_NEED_FIRST_AND_AND)\n"
      "obj-m := {}.o\n"
      "{}-y := {}.o kc_runtime.o kc_driver.o kc_subject.o glue.o candidate.o\n"
      "ccflags-y := -I$(src) -include $(src)/kc_rename.h{}{} -Wno-missing-prototypes "
      "-Wno-missing-declarations\n"
      "CFLAGS_glue.o := {}\n"
      "CFLAGS_candidate.o := {}\n",
      shape.name, shape.name, shape.main, rename, own, glue.glue_flags, glue.cand_flags);
  if (!io::write_file(dir.file(ModuleStage::kKbuild).string(), kbuild, error)) return false;
  return true;
}


// The deadline of each compile (the twin, the module): far above the 6-9 s
// they take here.
constexpr double kBuildSeconds = 600;

bool kbuild(const fs::path& headers, const fs::path& mod, const std::string& name,
            const fs::path& log, std::string* error) {
  const fs::path make = find_program("make");
  if (make.empty()) {
    *error = "make not found on PATH (run scripts/install-deps.sh)";
    return false;
  }
  // kbuild compiles the candidate: in the sandbox, only the module's directory
  // writable, stdin /dev/null, under a deadline (an #include of a FIFO).
  const auto argv = sandboxed({make.string(), "-C", headers.string(), "M=" + mod.string(), "modules"},
                              {mod}, error);
  if (argv.empty()) return false;
  const int rc = run({.argv = argv, .log = log, .deadline = kBuildSeconds, .stdin_null = true});
  if (rc == 0 && fs::exists(mod / (name + ".ko"))) return true;
  *error = rc == 0 ? fmt::format("make wrote no {}.ko", name) : fmt::format("make exited {}", rc);
  return false;
}

int build_all(const CandidateSpec& spec, const std::vector<std::string>& shim_flags, Env* env) {
  // The candidate against the shim, and the twin that drives it.
  CandidateSpec shim_spec = spec;
  shim_spec.role = "candidate";
  shim_spec.extra_flags = shim_flags;
  // The twin follows the contracts of the kernel the guest boots (6.1's
  // cpumask_next_wrap() takes 4 arguments), as the module's build does.
  shim_spec.kernel_version = env->pieces.version;
  auto t = Clock::now();
  BuildResult b = build_candidate(shim_spec, env->work);
  if (!b.ok) {
    if (!b.compiler_output.empty()) fmt::print(stderr, "{}", b.compiler_output);
    return fail(fmt::format("{} does not build against the kernel shim: {}", spec.file.string(),
                            b.summary.empty() ? "see the compiler's messages above" : b.summary));
  }
  env->shim_so = b.shared_object;
  fs::path clang = find_program("clang-14");
  if (clang.empty()) clang = find_program("clang");
  if (clang.empty()) return fail("clang-14 not found on PATH (run scripts/install-deps.sh)");
  const KcheckWork w{env->work};
  env->twin = w.twin();
  const ShimTree tree = ShimTree::of(source_dir());
  const std::vector<std::string> twin_argv = {
      clang.string(), "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
      "-I", tree.abi().string(), "-I", tree.kmod().string(),
      tree.kmod_file("twin.c").string(), tree.kmod_file("kc_driver.c").string(),
      tree.driver_subject(spec.tool->name).string(), "-ldl", "-o", env->twin.string()};
  // The twin is the source tree's own files: the same twin from the build
  // cache when neither they nor the compiler changed.
  const BuildCache cache = BuildCache::resolve();
  std::vector<std::string> twin_key_argv = twin_argv;
  twin_key_argv.back() = "@TWIN@";
  std::error_code cec;
  const fs::path real_clang = fs::canonical(clang, cec);
  twin_key_argv.push_back(fmt::format("{} {}", real_clang.string(),
                                      cec ? 0 : fs::file_size(real_clang, cec)));
  const std::string twin_key =
      cache.enabled() ? BuildCache::tree_key(twin_key_argv, {tree.abi(), tree.kmod()}) : "";
  if (twin_key.empty() || !cache.fetch_file(twin_key, env->twin)) {
    if (run({.argv = twin_argv, .log = w.twin_build_log(), .deadline = kBuildSeconds,
             .stdin_null = true}) != 0)
      return fail(fmt::format("could not build the shim twin: {}",
                              tail_file(w.twin_build_log(), 3)));
    if (!twin_key.empty()) cache.store_file(twin_key, env->twin);
  }
  env->shim_seconds = since(t);

  // The module, against the kernel's headers.
  t = Clock::now();
  const ModuleStage stage{w.kmod()};
  const fs::path mod = stage.dir;
  std::string why;
  util::OwnedDir kmod;  // kernel-check's own, afresh: never the candidate or its header
  if (!util::remove_except(mod, {spec.file, spec.header}, &why) ||
      !kmod.open(mod, {.mode = "kernel-check --in-kernel", .option = "--work-dir",
                       .inputs = {spec.file, spec.header}, .claim = module_files(false),
                       .force = true}, &why) ||
      !kmod.clean(&why) || !stage_module(spec, kmod, &why))
    return fail(why);
  const fs::path mlog = w.kmod_build_log();
  // The same module built before (kcheck/build_cache.h): its .ko, checked
  // against what kbuild read then.
  const std::string key = cache.enabled() ? BuildCache::module_key(mod, env->pieces.headers) : "";
  if (!key.empty() && cache.fetch_module(key, stage.module())) {
    env->module = stage.module();
    env->module_seconds = since(t);
    env->module_cached = true;
    return kExitOk;
  }
  if (!kbuild(env->pieces.headers, mod, "kcheck", mlog, &why) || !fs::exists(stage.module())) {
    std::string log = read_text(mlog);
    const std::string staged = stage.candidate().string();
    for (std::size_t at = 0; (at = log.find(staged, at)) != std::string::npos;)
      log.replace(at, staged.size(), spec.file.string());
    fmt::print(stderr, "{}", log);
    return fail(fmt::format("{} does not build as a kernel module against the {} headers ({}; see the "
                            "compiler's messages above; log {})",
                            spec.file.string(), env->pieces.version, why, mlog.string()));
  }
  if (!key.empty()) cache.store_module(key, mod, stage.module());
  env->module = stage.module();
  env->module_seconds = since(t);
  return kExitOk;
}

}  // namespace diffsched::tools::in_kernel_detail

namespace diffsched::tools {

bool export_kmod(const CandidateSpec& spec, const std::string& program_text, const ExportTarget& to,
                 std::string* error) {
  std::string why;
  auto program = io::parse_program(program_text, &why);
  if (!program) {
    *error = why;
    return false;
  }
  std::vector<fs::path> inputs = to.inputs;
  inputs.insert(inputs.end(), {spec.file, spec.header});
  util::OwnedDir dir;
  if (!dir.open(to.dir, {.mode = "export --kmod", .option = "-o", .inputs = inputs,
                         .claim = in_kernel_detail::module_files(true), .force = to.force},
                error) ||
      !dir.clean(error) || !in_kernel_detail::stage_module(spec, dir, error))
    return false;
  std::error_code ec;
  if (const fs::path init = ModuleStage{dir.dir()}.guest_init(); !dir.protects(init))
    fs::remove(init, ec);
  in_kernel_detail::HostProgram p;
  const SubjectTool& subject = *spec.tool;
  if (!in_kernel_detail::to_host(*program, subject, "the program", &p, error)) return false;
  std::vector<in_kernel_detail::HostProgram> ps = {p};
  // Every write checked: a full disk is an error, never "wrote ...".
  const auto put = [&](const char* rel, const std::string& text) {
    if (dir.protects(dir.dir() / rel)) return true;  // the input .ops itself: kept as it is
    return io::write_file(dir.file(rel).string(), text, error);
  };
  return put("program.ops", program_text) &&
         put("program.txt", in_kernel_detail::with_record_request(
                               in_kernel_detail::programs_text(ps, {0}, true), "export")) &&
         put("README",
             "Build: make -C /lib/modules/$(uname -r)/build M=$PWD modules  (a kernel with CONFIG_NR_CPUS >= cpus, booted with nr_cpu_ids == cpus of program.ops)\n"
             "Run:   sudo insmod kcheck.ko && sudo sh -c 'cat program.txt > /proc/kcheck' && sudo dmesg | grep -E 'KC|WARNING'\n"
             "Read:  one 'KC S id op STATE' line per op of program.ops; 'KC V' is a failed check, a WARNING/BUG the finding; 'KC D PROGRAMS OPS export' at the end says what ran (diffsched kernel-check --in-kernel).\n");
}


}  // namespace diffsched::tools
