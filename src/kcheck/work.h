// Every path of kernel-check's work directory, named once, the way
// campaign/layout.h names a campaign's: the harness protocol's files, the
// logs and outputs of each stage, and --in-kernel's guest and twin files.
// Nothing in kernel-check glues a file name onto its work directory by hand.
//
//   const tools::KcheckWork w{s.work};
//   run_harness(..., w.record(), w.current_input());
#pragma once

#include <filesystem>
#include <string>

#include <fmt/format.h>

namespace diffsched::tools {

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
