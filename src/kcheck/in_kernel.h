// kernel-check --in-kernel: the candidate inside a booted Linux kernel
// (QEMU), compared op by op with the same candidate in the shim.
//
//   tools::InKernelOptions o;  o.subject = &kCpudlTool;  o.spec = spec;  o.work_dir = work;
//   int status = tools::run_in_kernel(o);   // 0 same, 1 finding, 2 could not run
//
// The candidate is built unmodified into a kernel module (kshim/kmod/: Kbuild,
// the driver kc_driver.c, stand-ins for kernel/sched/ pieces, the glue of its
// API form) against the installed kernel headers, and into the userspace twin
// (kshim/kmod/twin.c: the same driver on the candidate as kernel-check builds
// it against the shim). The programs (the checked-in seeds and regressions
// and random programs of the total decoder, or one --replay file) run in the
// twin and in one guest per nr_cpu_ids (possible_cpus=N): a busybox
// initramfs whose init loads the module and writes the programs to
// /proc/kcheck. Every op's state lines are compared; a difference is a
// finding SUBJECT:kernel-vs-shim:FIELD:OP, minimised by re-running
// reduced programs in the twin and the guest (one boot per round, bounded).
// docs/kernel-check.md, "In a real kernel", says what is compared.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "subject_tools.h"
#include "kcheck/kernel_check.h"

namespace diffsched::tools {

namespace fs = std::filesystem;

// What booting a kernel needs, found on this machine.
struct KernelPieces {
  fs::path qemu;     // qemu-system-x86_64 ($DIFFSCHED_QEMU)
  fs::path busybox;  // a static busybox ($DIFFSCHED_BUSYBOX, /bin/busybox)
  fs::path cpio;
  fs::path headers;  // the kbuild directory (/lib/modules/<ver>/build)
  fs::path vmlinuz;  // --kernel, else the cache (scripts/fetch-kernel.sh)
  // What QEMU boots: the uncompressed PVH kernel beside vmlinuz (vmlinux-<ver>,
  // made by scripts/fetch-kernel.sh), which skips ~10 s of xz decompression
  // per TCG boot; vmlinuz itself when there is none.
  fs::path boot_image;
  std::string version;  // "6.1.0-57-amd64"
};

// The pieces, or nullopt with a one-line reason naming what is missing and
// how to get it (scripts/install-deps.sh, scripts/fetch-kernel.sh).
std::optional<KernelPieces> find_kernel_pieces(const fs::path& kernel, std::string* error);

// What a run established, as data (kernel-check --verdict-json writes it).
struct InKernelResult {
  std::uint64_t programs = 0, ops = 0;  // compared op by op in the guest and the twin
  std::string signature, kind, detail;  // a finding's; detail: an error's reason too
  std::string reproducer;               // the minimised .ops, when written
};

struct InKernelOptions {
  const SubjectTool* subject = &kCpudlTool;
  CandidateSpec spec;   // as kernel-check classified the candidate
  fs::path work_dir;
  unsigned runs = 200;  // random programs
  unsigned seed = 1;
  std::vector<unsigned> nr_cpus;  // of the random programs; empty: the checked-in programs'
  fs::path replay;                // that program alone, with its trace
  fs::path kernel;                // vmlinuz; empty: the cache
  fs::path output;                // the reproducer (.ops); empty: <work>/minimized.ops
  unsigned minimize_boots = 4;    // rounds of the minimisation (one guest boot each)
  unsigned max_ops = 64;          // ops of a random program (at most)
  // Extra compile flags of the shim build only (tests: a planted primitive).
  std::vector<std::string> shim_flags;
  InKernelResult* result = nullptr;  // filled when not null
};

// Runs the check and prints its report; returns the exit status (0 the
// kernel and the shim agree on every op and no check failed in the guest,
// 1 a finding, 2 could not build, boot or run everything).
int run_in_kernel(const InKernelOptions& options);

// `diffsched export --kmod`: a standalone module directory (Kbuild, the
// driver, the program, the candidate and its header, a README) that builds
// against any kernel's headers and replays `program_text` when loaded.
// The directory is a util::OwnedDir (mode "export --kmod"): a new or empty
// one, or one an earlier export wrote (whose files it replaces); any other
// is refused unless `force`, which replaces only the module's files; no
// input (the .ops, the candidate, its header, `inputs`) is ever deleted.
struct ExportTarget {
  fs::path dir;
  bool force = false;
  std::vector<fs::path> inputs;
};
bool export_kmod(const CandidateSpec& spec, const std::string& program_text, const ExportTarget& to,
                 std::string* error);

// `diffsched export --ktap-module`: a kselftest-style test module directory
// (kshim/kmod/kc_ktap.c: KTAP on the kernel log, MODULE_INFO(test, "Y"), no
// KUnit) that replays each program of `ops` against the candidate, renamed as
// --in-kernel builds it, and judges it by the driver's own checks. The
// directory is a util::OwnedDir as export_kmod's; the module is named after
// it (diffsched_<dir>), its cases after the .ops files.
bool export_ktap_module(const CandidateSpec& spec, const std::vector<fs::path>& ops,
                        const ExportTarget& to, std::string* error);

// `diffsched export --boot DIR...`: builds each exported test module (a copy
// of DIR) with kbuild against the headers of the kernel --in-kernel boots,
// loads them all in one QEMU guest (test K of one KTAP document whose header
// the guest's init prints) and writes its console to `log`. Returns 0 every
// module's result line is ok, 1 one is not ok, 2 could not build, boot or
// read a result line for each module.
struct KtapBoot {
  std::vector<fs::path> modules;
  unsigned nr = 0;  // nr_cpu_ids; 0: the first module's first program's
  fs::path kernel;
  fs::path log;
};
int boot_ktap_modules(const KtapBoot& boot);

}  // namespace diffsched::tools
