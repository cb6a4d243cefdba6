// kernel-check --in-kernel: the runs. The kernel pieces found on this
// machine (QEMU, a static busybox, cpio, the headers, the image); one guest
// per nr_cpu_ids booted with a busybox initramfs holding the module and the
// programs (kshim/kmod/init.sh); the shim twin run on the same programs.
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <thread>

#include "kcheck/in_kernel_internal.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::tools::in_kernel_detail {

namespace {

// Runs argv with output to `log`; kills its process group after `limit`
// seconds (then -2, tools::kExitTimedOut).
int run_limited(const std::vector<std::string>& argv, const fs::path& log, double limit,
                std::vector<std::pair<std::string, std::string>> env = {}) {
  Command o;
  o.argv = argv;
  o.log = log;
  o.env = std::move(env);
  o.deadline = limit;
  o.stdin_null = true;
  std::fflush(stdout);
  return run(o);
}

// The first bytes of `file` are an ELF header's (read without the rest).
bool has_elf_magic(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::string_view(magic, 4) == std::string_view("\x7f" "ELF", 4);
}

bool is_static_elf(const fs::path& file) {
  const std::string head = read_text(file).substr(0, 8192);
  return head.size() > 4 && head.compare(0, 4, "\x7f" "ELF") == 0 &&
         head.find("/lib64/ld-linux") == std::string::npos && head.find("/lib/ld-linux") == std::string::npos;
}


}  // namespace

RunResult run_twin(Env& env, const std::string& text, const std::string& tag) {
  const KcheckWork w{env.work};
  const fs::path in = w.programs(tag);
  const fs::path out = w.shim_output(tag);
  const std::string token = new_record_token();
  write_text(in, with_record_request(text, token));
  const auto t = Clock::now();
  // The twin never calls cpudl_cleanup() at its end: no leak reports.
  // The twin runs the candidate on this machine: in the sandbox, as the
  // kcheck harness does (only the work directory writable, no network).
  RunResult r;
  const auto argv = sandboxed({env.twin.string(), env.shim_so.string(), in.string()},
                              {env.work}, &r.failure);
  if (argv.empty()) return r;
  const int rc = run_limited(argv, out, 600, {{"ASAN_OPTIONS", "detect_leaks=0"}});
  r = parse_output(read_text(out), false);
  r.seconds = since(t);
  const std::string record = check_record(&r, token);
  if (rc != 0 || !record.empty())
    r.failure = fmt::format("the shim twin stopped (status {}; {}): {}", rc,
                            record.empty() ? "its result record is there" : record, tail_file(out, 3));
  return r;
}

// The guest's memory: 512 MB, plus what each possible CPU takes at boot
// (its per-CPU area, about 0.37 MB reserved; its idle thread; zswap's
// per-CPU compression buffers): 4096 CPUs ran out of memory in 2.3 GB and
// booted in 4.1 GB, 8192 ran out in 2, 4 and 7 GB (docs/kernel-check.md).
unsigned guest_memory_mb(unsigned nr) { return 512 + nr * 1000 / 1024; }

int boot_guest(const KernelPieces& pieces, const fs::path& work, const std::string& tag, unsigned nr,
               const GuestImage& image, double limit, std::string* error) {
  const KcheckWork w{work};
  const GuestRoot g{w.initramfs(tag)};
  const fs::path root = g.dir;
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(g.bin(), ec);
  fs::create_directories(g.proc(), ec);
  fs::create_directories(g.dev(), ec);
  fs::copy_file(pieces.busybox, g.busybox(), ec);
  fs::copy_file(image.init, g.init(), ec);
  fs::permissions(g.init(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                  ec);
  for (const auto& [from, name] : image.files) fs::copy_file(from, root / name, ec);
  for (const auto& [name, text] : image.texts)
    if (!ec && !write_text(root / name, text)) ec = std::make_error_code(std::errc::io_error);
  if (ec) {
    *error = fmt::format("cannot stage the initramfs in {}: {}", root.string(), ec.message());
    return kGuestNotStaged;
  }
  const fs::path initrd = w.initrd(tag);
  const std::string pack = fmt::format("cd {} && find . | {} -o -H newc --quiet > {}",
                                       util::shell_quote(root.string()),
                                       util::shell_quote(pieces.cpio.string()),
                                       util::shell_quote(initrd.string()));
  if (run({.argv = {"/bin/sh", "-c", pack}, .log = w.cpio_log()}) != 0) {
    *error = fmt::format("cpio failed: {}", tail_file(w.cpio_log(), 3));
    return kGuestNotStaged;
  }
  // TCG: KVM guests hung at early boot here (docs/kernel-check.md).
  const std::vector<std::string> argv = {
      pieces.qemu.string(), "-accel", "tcg", "-cpu", "max", "-m", std::to_string(guest_memory_mb(nr)), "-smp", "1",
      "-nographic", "-no-reboot", "-kernel", pieces.boot_image.string(), "-initrd",
      initrd.string(), "-append",
      fmt::format("console=ttyS0 panic=-1 loglevel={} possible_cpus={} nr_cpus={} "
                  "cryptomgr.notests zswap.enabled=0 no_timer_check", image.loglevel, nr, nr)};
  return run_limited(argv, w.guest_log(tag), limit);
}

// One guest at nr_cpu_ids `nr` runs `text`.
RunResult run_guest(Env& env, unsigned nr, const std::string& text, std::size_t ops,
                    const std::string& tag) {
  RunResult r;
  const KcheckWork w{env.work};
  const std::string token = new_record_token();
  const GuestRoot g{w.initramfs(tag)};
  GuestImage image{.init = ShimTree::of(source_dir()).guest_init(),
                   .files = {{env.module, g.module().filename().string()}},
                   .texts = {{g.programs().filename().string(), with_record_request(text, token)}}};
  const fs::path log = w.guest_log(tag);
  // Generous: a loaded 2-vCPU machine boots 6.1 under TCG in 12-30 s.
  const double limit = 240 + static_cast<double>(ops) / 50 + nr / 16.0;
  const auto t = Clock::now();
  const int rc = boot_guest(env.pieces, env.work, tag, nr, image, limit, &r.failure);
  if (rc == kGuestNotStaged) return r;
  r = parse_output(read_text(log), true);
  r.seconds = since(t);
  ++env.boots;
  env.boot_seconds += r.seconds;
  const std::string record = check_record(&r, token);
  if (rc == -2 && r.crash.empty())
    r.failure = fmt::format("the guest did not finish in {:.0f} s (log {})", limit, log.string());
  else if (!r.done && r.crash.empty())
    r.failure = fmt::format("the guest stopped before the driver finished ({}; status {}; log {}): {}",
                            record, rc, log.string(), tail_file(log, 2));
  if (r.guest_nr && r.guest_nr != nr)
    r.failure = fmt::format("the guest booted with nr_cpu_ids {}, not {} (possible_cpus={})",
                            r.guest_nr, nr, nr);
  return r;
}


}  // namespace diffsched::tools::in_kernel_detail

namespace diffsched::tools {

using in_kernel_detail::is_static_elf;
using in_kernel_detail::starts_with;

std::optional<KernelPieces> find_kernel_pieces(const fs::path& kernel, std::string* error) {
  KernelPieces k;
  const char* qemu = std::getenv("DIFFSCHED_QEMU");
  k.qemu = find_program(qemu && *qemu ? qemu : "qemu-system-x86_64");
  if (k.qemu.empty() || !fs::exists(k.qemu)) {
    *error = "--in-kernel needs qemu-system-x86_64 (package qemu-system-x86; run scripts/install-deps.sh)";
    return std::nullopt;
  }
  const char* bb = std::getenv("DIFFSCHED_BUSYBOX");
  k.busybox = bb && *bb ? fs::path(bb) : fs::path("/bin/busybox");
  std::error_code ec;
  if (!fs::is_regular_file(k.busybox, ec) || !is_static_elf(k.busybox)) {
    *error = fmt::format("--in-kernel needs a static busybox at {} (package busybox-static; run "
                         "scripts/install-deps.sh)", k.busybox.string());
    return std::nullopt;
  }
  k.cpio = find_program("cpio");
  if (k.cpio.empty()) {
    *error = "--in-kernel needs cpio (package cpio; run scripts/install-deps.sh)";
    return std::nullopt;
  }
  auto headers_of = [](const std::string& ver) -> fs::path {
    std::error_code e;
    for (const fs::path& p : {fs::path("/lib/modules") / ver / "build", fs::path("/usr/src") / ("linux-headers-" + ver)})
      if (fs::is_regular_file(p / "Makefile", e)) return p;
    return {};
  };
  if (!kernel.empty()) {
    if (!fs::is_regular_file(kernel, ec)) {
      *error = fmt::format("--kernel {}: no such file", kernel.string());
      return std::nullopt;
    }
    k.vmlinuz = kernel;
    const std::string name = kernel.filename().string();
    k.version = starts_with(name, "vmlinuz-") ? name.substr(8) : "";
    if (k.version.empty()) {
      *error = fmt::format("--kernel {}: cannot tell its version (expected a file named vmlinuz-<version>)",
                           kernel.string());
      return std::nullopt;
    }
  } else {
    std::vector<fs::path> caches;
    if (const char* c = std::getenv("DIFFSCHED_KERNEL_CACHE"); c && *c) {
      caches.emplace_back(c);
    } else {
      caches.emplace_back("/var/cache/diffsched/kernel");
      if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) caches.push_back(fs::path(x) / "diffsched" / "kernel");
      if (const char* h = std::getenv("HOME"); h && *h) caches.push_back(fs::path(h) / ".cache" / "diffsched" / "kernel");
    }
    for (const auto& cache : caches) {
      if (!fs::is_directory(cache, ec)) continue;
      for (const auto& e : fs::directory_iterator(cache, ec)) {
        const std::string ver = e.path().filename().string();
        const fs::path v = e.path() / "boot" / ("vmlinuz-" + ver);
        if (fs::is_regular_file(v, ec) && !headers_of(ver).empty() && ver > k.version) {
          k.version = ver;
          k.vmlinuz = v;
        }
      }
    }
    if (k.vmlinuz.empty()) {
      *error = "--in-kernel needs a kernel image matching the installed headers: none in the cache "
               "(run scripts/fetch-kernel.sh, or give --kernel VMLINUZ)";
      return std::nullopt;
    }
  }
  const fs::path pvh = k.vmlinuz.parent_path() / ("vmlinux-" + k.version);
  k.boot_image = fs::is_regular_file(pvh, ec) && in_kernel_detail::has_elf_magic(pvh) ? pvh : k.vmlinuz;
  k.headers = headers_of(k.version);
  if (k.headers.empty()) {
    *error = fmt::format("--in-kernel needs the headers of kernel {} (package linux-headers-{}; run "
                         "scripts/install-deps.sh)", k.version, k.version);
    return std::nullopt;
  }
  return k;
}


}  // namespace diffsched::tools
