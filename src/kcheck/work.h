// Every path of kernel-check's work directory, named once, the way
// campaign/layout.h names a campaign's: the harness protocol's files, the
// logs and outputs of each stage, and --in-kernel's guest and twin files;
// inside them, a candidate's stage, the module's and the guest's root; and
// the kernel shim's files kernel-check builds with (ShimTree). Nothing in
// kernel-check glues a file name onto a directory by hand.
//
//   const tools::KcheckWork w{s.work};
//   run_harness(..., w.record(), w.current_input());
//   const tools::CandidateStage stage = w.stage("candidate");   // stage.compile_log()
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace diffsched::tools {

// A candidate staged for its compile (kernel-check's build_candidate()):
// the file under its own name, the header it includes as the kernel's
// "cpudeadline.h", the compile's log and the shared object.
struct CandidateStage {
  std::filesystem::path dir;
  std::string role;  // "candidate", "baseline", ...

  using path = std::filesystem::path;
  static constexpr const char* kHeader = "cpudeadline.h";
  path file(const path& candidate) const { return dir / candidate.filename(); }
  path header() const { return dir / kHeader; }
  // The header a file's own tree has beside it (kernel/sched/cpudeadline.h).
  static path header_beside(const path& file) { return file.parent_path() / kHeader; }
  path compile_log() const { return dir / "compile.log"; }
  path preprocessed() const { return dir / "preprocessed.i"; }  // the compile's -E output
  path shared_object() const { return dir / (role + ".so"); }
};

// --in-kernel's module directory (KcheckWork::kmod(), or export --kmod's -o):
// the names kbuild and the staging table (in_kernel_module.cpp) use.
struct ModuleStage {
  static constexpr const char* kCandidate = "candidate.c";
  static constexpr const char* kHeader = CandidateStage::kHeader;  // as the kernel's "cpudeadline.h"
  static constexpr const char* kGlue = "glue.c";
  static constexpr const char* kDriverSubject = "kc_subject.c";  // the driver's subject part
  static constexpr const char* kKbuild = "Kbuild";
  static constexpr const char* kGuestInit = "init.sh";
  // export --ktap-module's: its programs, its metadata (boot --ktap reads
  // it), its README.
  static constexpr const char* kKtapPrograms = "ktap_programs.h";
  static constexpr const char* kKtapMeta = "ktap.json";
  static constexpr const char* kKtapReadme = "README";
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path candidate() const { return dir / kCandidate; }
  path guest_init() const { return dir / kGuestInit; }
  path module() const { return dir / "kcheck.ko"; }
  path module(std::string_view name) const { return dir / fmt::format("{}.ko", name); }
  path ktap_meta() const { return dir / kKtapMeta; }
};

// boot --ktap's temporary directory: the guest's /init, and module K's copy
// (K from 1), built there, with its build log and its name in the guest.
struct KtapBootWork {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  static constexpr const char* kTemplate = "diffsched-ktap-boot.XXXXXX";  // under the temp dir
  path init() const { return dir / "init.sh"; }
  ModuleStage module_copy(std::size_t k) const { return {dir / fmt::format("m{}", k)}; }
  path module_build_log(std::size_t k) const { return dir / fmt::format("m{}-build.log", k); }
  static std::string module_in_guest(std::size_t k) { return fmt::format("m{}.ko", k); }
};

// The guest's initramfs (KcheckWork::initramfs(tag)): what the kernel runs
// as /init (kshim/kmod/init.sh) finds there.
struct GuestRoot {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path bin() const { return dir / "bin"; }
  path busybox() const { return bin() / "busybox"; }
  path proc() const { return dir / "proc"; }
  path dev() const { return dir / "dev"; }
  path init() const { return dir / "init"; }
  path module() const { return dir / "kcheck.ko"; }
  path programs() const { return dir / "programs.txt"; }
};

// The kernel shim under the source tree (kshim/): what a candidate is built
// with, and the in-kernel module's and twin's sources.
struct ShimTree {
  std::filesystem::path dir;  // SOURCE_DIR/kshim

  using path = std::filesystem::path;
  static ShimTree of(const path& source_dir) { return {source_dir / "kshim"}; }
  path sched() const { return dir / "sched"; }  // the shim's "sched.h", -iquote
  path sched_header() const { return sched() / "sched.h"; }
  path include() const { return dir / "include"; }
  path shim_header() const { return include() / "kshim" / "kshim.h"; }
  path abi() const { return dir / "abi"; }
  // The name of a text parsed from memory (libclang's unsaved file), in a
  // directory of the shim that does not exist (`where`: "detect"), so that
  // the parse finds no neighbours.
  path unsaved_dir(std::string_view where) const { return dir / where; }
  path unsaved_input(std::string_view where) const { return unsaved_dir(where) / "input.c"; }
  // The kernel's cpudeadline.h of an API form ("v4.9"), staged beside a file
  // that brings none.
  path cpudeadline_header(std::string_view form) const {
    return dir / "cpudeadline" / fmt::format("cpudeadline-{}.h", form);
  }
  path runtime(std::string_view file) const { return dir / "runtime" / file; }
  path kmod() const { return dir / "kmod"; }
  path kmod_file(std::string_view rel) const { return kmod() / rel; }
  // The driver's part for a subject, picked by its name (kc_driver_internal.h).
  path driver_subject(std::string_view subject) const {
    return kmod() / fmt::format("kc_subject_{}.c", subject);
  }
  path guest_init() const { return kmod() / "init.sh"; }
};

// A corpus tree (SOURCE/corpus, or coverage --corpus): raw inputs per
// target, the seeds' and regressions' programs, campaign's accepted findings.
struct CorpusTree {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path raw(std::string_view target) const { return dir / target; }
  path seeds(std::string_view target) const { return dir / "seeds" / target; }
  // The deep seeds (scripts/make-deep-seeds.sh): NAME.ops here, NAME in raw().
  path deep(std::string_view target) const { return dir / "deep" / target; }
  path regressions() const { return dir / "regressions"; }
  path regressions(std::string_view subject) const { return regressions() / subject; }
  path accepted() const { return dir / "accepted.txt"; }
};

// What kernel-check reads of the source tree: the checked-in programs and
// corpora by target or subject, the fuzz dictionaries, the shim.
struct SourceTree {
  std::filesystem::path dir;  // tools::source_dir()

  using path = std::filesystem::path;
  CorpusTree corpus_tree() const { return {dir / "corpus"}; }
  path seeds(std::string_view target) const { return corpus_tree().seeds(target); }
  path regressions(std::string_view subject) const { return corpus_tree().regressions(subject); }
  path corpus(std::string_view target) const { return corpus_tree().raw(target); }
  path sources() const { return dir / "src"; }  // what coverage reports on
  path dict(std::string_view name) const { return dir / "fuzz" / fmt::format("{}.dict", name); }
  ShimTree shim() const { return ShimTree::of(dir); }
};

// What kernel-check uses of the fuzz preset's build tree (tools::preset_dir("fuzz")),
// and campaign of a fuzzing preset's (fuzz, afl): its fuzz targets' binaries.
struct FuzzBuild {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  path fuzzers() const { return dir / "fuzz"; }
  path harness() const { return dir / "kshim" / "kcheck_harness"; }
  path work_dirs() const { return dir / "kcheck"; }  // the default --work-dir's parent
  // mkdtemp's template for a default --work-dir: work_dirs()/<stem>-XXXXXX.
  path work_dir_template(std::string_view stem) const {
    return work_dirs() / fmt::format("{}-XXXXXX", stem);
  }
  path build_cache() const { return dir / "kcheck-cache"; }  // kcheck/build_cache.h
};

struct KcheckWork {
  std::filesystem::path dir;

  using path = std::filesystem::path;
  // The harness protocol (kcheck/record.h): its result record,
  // the input it is running, and that input kept when it stopped.
  path record() const { return dir / "record.json"; }
  path current_input() const { return dir / "current-input"; }
  path stopped_input(bool raw) const { return dir / (raw ? "stopped-input.raw" : "stopped-input.ops"); }
  // The stages.
  path artifacts() const { return dir / "artifacts"; }  // libFuzzer's crash- files
  // libFuzzer's -artifact_prefix for a directory of artifacts (artifacts(),
  // or the tree a session owns for them): the directory with a trailing '/'.
  static std::string artifact_prefix(const path& artifacts) { return (artifacts / "").string(); }
  path harness_build_log() const { return dir / "harness-build.log"; }
  path load_log() const { return dir / "load.log"; }
  path minimized() const { return dir / "minimized.ops"; }  // the default -o
  path reproducer() const { return dir / "reproducer.ops"; }
  path minimize_log() const { return dir / "minimize.log"; }
  path corpus() const { return dir / "corpus"; }
  path fuzz_log() const { return dir / "fuzz.log"; }
  path crash_decoded() const { return dir / "crash-decoded.ops"; }
  path crash_trial() const { return dir / "crash-trial.ops"; }
  path crash_trial_log() const { return dir / "crash-trial.log"; }
  // --in-kernel: the shim twin and the module, built here; per run (`tag`)
  // the programs, the twin's output, the guest's initramfs, initrd and log.
  CandidateStage stage(const std::string& role) const { return {dir / role, role}; }
  path twin() const { return dir / "kcheck_twin"; }
  path twin_build_log() const { return dir / "twin-build.log"; }
  path kmod() const { return dir / "kmod"; }
  path kmod_build_log() const { return dir / "kmod-build.log"; }
  path programs(const std::string& tag) const { return dir / fmt::format("programs-{}.txt", tag); }
  path shim_output(const std::string& tag) const { return dir / fmt::format("shim-{}.txt", tag); }
  path initramfs(const std::string& tag) const { return dir / fmt::format("initramfs-{}", tag); }
  path initrd(const std::string& tag) const { return dir / fmt::format("initrd-{}.cpio", tag); }
  path cpio_log() const { return dir / "cpio.log"; }
  path guest_log(const std::string& tag) const { return dir / fmt::format("guest-{}.log", tag); }
};

}  // namespace diffsched::tools
