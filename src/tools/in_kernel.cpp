// kernel-check --in-kernel (see in_kernel.h).
#include "tools/in_kernel.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <variant>

#include <fmt/format.h>

#include "cpudl/ops.h"
#include "engine/exit_status.h"
#include "io/binary.h"
#include "io/program.h"
#include "io/text.h"
#include "kernel/cpumask.h"
#include "pick/ops.h"
#include "subjects.h"
#include "tools/process.h"

namespace diffsched::tools {

namespace {

using Clock = std::chrono::steady_clock;
using io::AnyProgram;
using io::Program;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int fail(const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "diffsched: error: {}\n", message);
  return kExitBadInput;
}

bool write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs argv with output to `log`; kills it after `limit` seconds (then -2).
int run_limited(const std::vector<std::string>& argv, const fs::path& log, double limit,
                std::vector<std::pair<std::string, std::string>> env = {}) {
  RunOptions o;
  o.log = log;
  o.env = std::move(env);
  o.new_process_group = true;
  std::fflush(stdout);
  const pid_t pid = spawn(argv, o);
  if (pid < 0) return -1;
  const auto deadline = Clock::now() + std::chrono::duration<double>(limit);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
    }
    if (done < 0 && errno != EINTR) return -1;
    if (Clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      wait_exit(pid);
      return -2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// --- the programs --------------------------------------------------------

struct HostProgram {
  std::string name;
  unsigned nr = 0;
  std::vector<std::string> ops;    // .ops text of each op
  std::vector<std::string> lines;  // the driver's line of each op
};

std::string cpulist(const kernel::Cpumask& m) {
  const std::string s = kernel::cpumask_to_cpulist(m);
  return s.empty() ? "-" : s;
}

std::string driver_line(const cpudl::Op& op) {
  return std::visit(
      [](const auto& o) -> std::string {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, cpudl::Set>) return fmt::format("s {} {}", o.cpu, o.dl);
        else if constexpr (std::is_same_v<T, cpudl::Clear>) return fmt::format("c {}", o.cpu);
        else if constexpr (std::is_same_v<T, cpudl::ClearOnline>)
          return fmt::format("o {} {}", o.cpu, o.online ? 1 : 0);
        else if constexpr (std::is_same_v<T, cpudl::SetFreecpu>) return fmt::format("S {}", o.cpu);
        else if constexpr (std::is_same_v<T, cpudl::ClearFreecpu>) return fmt::format("C {}", o.cpu);
        else if constexpr (std::is_same_v<T, cpudl::Find>)
          return fmt::format("f {} {}", o.dl, cpulist(o.affinity));
        else if constexpr (std::is_same_v<T, cpudl::FindNomask>)
          return fmt::format("n {} {}", o.dl, cpulist(o.affinity));
        else
          static_assert(sizeof(T) == 0, "a cpudl op the in-kernel driver does not know");
      },
      op);
}

std::string driver_line(const pick::Op& op) {
  const auto& o = std::get<pick::Pick>(op);
  return fmt::format("p {} {} {}", cpulist(o.dst), cpulist(o.cpus), cpulist(o.allowed));
}

template <class S>
HostProgram host_program(const Program<S>& p, std::string name) {
  HostProgram h;
  h.name = std::move(name);
  h.nr = p.config.nr_cpu_ids;
  kernel::NrCpuIdsScope scope(h.nr);
  for (const auto& op : p.ops) {
    h.ops.push_back(io::format_op(op));
    h.lines.push_back(driver_line(op));
  }
  return h;
}

// From any program of the subject; false (with a reason) for another subject.
bool to_host(const AnyProgram& any, const std::string& subject, std::string name, HostProgram* out,
             std::string* error) {
  if (io::subject_name(any) != subject) {
    *error = fmt::format("{} is a program of subject {}, not {}", name, io::subject_name(any), subject);
    return false;
  }
  if (const auto* p = std::get_if<Program<cpudl::Subject>>(&any)) {
    *out = host_program(*p, std::move(name));
    return true;
  }
  if (const auto* p = std::get_if<Program<pick::Subject>>(&any)) {
    *out = host_program(*p, std::move(name));
    return true;
  }
  *error = fmt::format("{}: subject {} has no in-kernel driver", name, subject);
  return false;
}

bool load_ops_file(const fs::path& file, const std::string& subject, HostProgram* out,
                   std::string* error) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    *error = fmt::format("{}: no such file", file.string());
    return false;
  }
  std::string why;
  auto program = io::parse_program(read_text(file), &why);
  if (!program) {
    *error = fmt::format("{}: {}", file.string(), why);
    return false;
  }
  return to_host(*program, subject, file.string(), out, error);
}

std::vector<fs::path> ops_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".ops") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// A random program of the total decoder at nr_cpu_ids `nr` (the body's
// first bytes 0xf0 + nr-1 pick it exactly).
template <class S>
HostProgram random_program(std::mt19937_64& rng, unsigned nr, unsigned max_ops, std::string name) {
  std::vector<std::uint8_t> body = {0xf0, static_cast<std::uint8_t>((nr - 1) & 0xff),
                                    static_cast<std::uint8_t>((nr - 1) >> 8)};
  const std::size_t n = 8 + rng() % (max_ops * 6);
  for (std::size_t i = 0; i < n; ++i) body.push_back(static_cast<std::uint8_t>(rng()));
  Program<S> p = io::decode_body<S>(body);
  if (p.ops.size() > max_ops) p.ops.resize(max_ops);
  return host_program(p, std::move(name));
}

// --- the runs: the twin and the guest ----------------------------------

struct Trace {
  bool started = false;
  std::string error;                             // an X line
  std::vector<std::string> states;               // op k's state at [k-1]
  std::map<int, std::string> violations;         // op -> "invariant field what a b"
  std::map<int, std::string> warnings;           // op -> where
};

struct RunResult {
  std::map<int, Trace> traces;
  bool done = false;          // the driver saw the end
  std::string crash;          // a BUG/oops/panic line of the guest
  int crash_id = -1, crash_op = 0;
  unsigned guest_nr = 0;      // the guest's nr_cpu_ids (H line)
  std::string failure;        // the run did not complete: why
  double seconds = 0;
};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The lines of the twin's output or of the guest's console.
RunResult parse_output(const std::string& text, bool guest) {
  RunResult r;
  std::string warn_text;  // a guest warning, for the next state line
  std::istringstream in(text);
  std::string raw;
  int cur_id = -1, cur_op = 0;
  auto flush_payload = [&](std::string line) {
    if (line.empty()) return;
    std::istringstream w(line);
    std::string kind;
    w >> kind;
    if (kind == "D") {
      r.done = true;
    } else if (kind == "H") {
      const auto at = line.find("nr_cpu_ids=");
      if (at != std::string::npos) r.guest_nr = static_cast<unsigned>(std::atoi(line.c_str() + at + 11));
    } else if (kind == "P") {
      int id = -1;
      w >> id;
      r.traces[id].started = true;
      cur_id = id;
      cur_op = 0;
    } else if (kind == "X") {
      int id = -1;
      w >> id;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].error = rest.empty() ? rest : rest.substr(1);
    } else if (kind == "S") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      Trace& t = r.traces[id];
      t.states.resize(static_cast<std::size_t>(std::max(op, 1)));
      t.states[static_cast<std::size_t>(op - 1)] = rest.empty() ? rest : rest.substr(1);
      if (!warn_text.empty()) {
        t.warnings.emplace(op, warn_text);
        warn_text.clear();
      }
      cur_id = id;
      cur_op = op;
    } else if (kind == "V") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].violations.emplace(op, rest.empty() ? rest : rest.substr(1));
    } else if (kind == "W") {
      int id = -1, op = 0;
      w >> id >> op;
      std::string rest;
      std::getline(w, rest);
      r.traces[id].warnings.emplace(op, rest.empty() ? rest : rest.substr(1));
    }
  };
  std::string current;
  while (std::getline(in, raw)) {
    while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.pop_back();
    std::string_view line = raw;
    if (guest) {
      // "[    2.650023] KC S ..." : drop the timestamp.
      if (starts_with(line, "[")) {
        const auto close = line.find("] ");
        if (close != std::string_view::npos) line = line.substr(close + 2);
      }
      // A console line that is not ours: the last KC line is complete (a
      // warning during op k comes after op k-1's state line).
      if (!starts_with(line, "KC")) {
        flush_payload(current);
        current.clear();
      }
      if (line.find("WARNING: CPU:") != std::string_view::npos) {
        const auto at = line.find(" at ");
        warn_text = std::string(at == std::string_view::npos ? line : line.substr(at + 4));
        continue;
      }
      if (r.crash.empty() &&
          (starts_with(line, "BUG:") || starts_with(line, "kernel BUG at") ||
           line.find("Oops:") != std::string_view::npos ||
           starts_with(line, "general protection fault") || starts_with(line, "Kernel panic"))) {
        r.crash = std::string(line);
        r.crash_id = cur_id;
        r.crash_op = cur_op + 1;
        continue;
      }
    }
    if (starts_with(line, "KC+ ")) {
      current += line.substr(4);
      continue;
    }
    if (starts_with(line, "KC ")) {
      flush_payload(current);
      current = std::string(line.substr(3));
    }
  }
  flush_payload(current);
  return r;
}

struct Env {
  KernelPieces pieces;
  fs::path twin;          // the twin binary
  fs::path shim_so;       // the candidate against the shim
  fs::path module;        // kcheck.ko
  fs::path work;
  std::string subject;
  unsigned boots = 0;
  double boot_seconds = 0;
};

std::string programs_text(const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                          bool verbose) {
  std::string text;
  for (int id : ids) {
    const HostProgram& p = programs[static_cast<std::size_t>(id)];
    text += fmt::format("P {} {} {}\n", id, p.nr, verbose && p.nr <= 1024 ? 1 : 0);
    for (const auto& l : p.lines) text += l + "\n";
    text += "E\n";
  }
  return text;
}

RunResult run_twin(Env& env, const std::string& text, const std::string& tag) {
  const fs::path in = env.work / fmt::format("programs-{}.txt", tag);
  const fs::path out = env.work / fmt::format("shim-{}.txt", tag);
  write_text(in, text + "Q\n");
  const auto t = Clock::now();
  // The twin never calls cpudl_cleanup() at its end: no leak reports.
  const int rc = run_limited({env.twin.string(), env.shim_so.string(), in.string()}, out, 600,
                             {{"ASAN_OPTIONS", "detect_leaks=0"}});
  RunResult r = parse_output(read_text(out), false);
  r.seconds = since(t);
  if (rc != 0 || !r.done)
    r.failure = fmt::format("the shim twin stopped (status {}): {}", rc, tail_file(out, 3));
  return r;
}

// The guest's memory: 512 MB, plus what each possible CPU takes at boot
// (its per-CPU area, about 0.37 MB reserved; its idle thread; zswap's
// per-CPU compression buffers): 4096 CPUs ran out of memory in 2.3 GB and
// booted in 4.1 GB, 8192 ran out in 2, 4 and 7 GB (docs/kernel-check.md).
unsigned guest_memory_mb(unsigned nr) { return 512 + nr * 1000 / 1024; }

// One guest at nr_cpu_ids `nr` runs `text`.
RunResult run_guest(Env& env, unsigned nr, const std::string& text, std::size_t ops,
                    const std::string& tag) {
  RunResult r;
  const fs::path root = env.work / fmt::format("initramfs-{}", tag);
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root / "bin", ec);
  fs::create_directories(root / "proc", ec);
  fs::create_directories(root / "dev", ec);
  fs::copy_file(env.pieces.busybox, root / "bin" / "busybox", ec);
  fs::copy_file(source_dir() / "kshim" / "kmod" / "init.sh", root / "init", ec);
  fs::permissions(root / "init", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                  ec);
  fs::copy_file(env.module, root / "kcheck.ko", ec);
  write_text(root / "programs.txt", text);
  if (ec) {
    r.failure = fmt::format("cannot stage the initramfs in {}: {}", root.string(), ec.message());
    return r;
  }
  const fs::path initrd = env.work / fmt::format("initrd-{}.cpio", tag);
  const std::string pack = fmt::format("cd {} && find . | {} -o -H newc --quiet > {}",
                                       shell_quote(root.string()),
                                       shell_quote(env.pieces.cpio.string()),
                                       shell_quote(initrd.string()));
  if (run({"/bin/sh", "-c", pack}, RunOptions{.log = env.work / "cpio.log"}) != 0) {
    r.failure = fmt::format("cpio failed: {}", tail_file(env.work / "cpio.log", 3));
    return r;
  }
  const fs::path log = env.work / fmt::format("guest-{}.log", tag);
  // TCG: KVM guests hung at early boot here (docs/kernel-check.md).
  const std::vector<std::string> argv = {
      env.pieces.qemu.string(), "-accel", "tcg", "-cpu", "max", "-m", std::to_string(guest_memory_mb(nr)), "-smp", "1",
      "-nographic", "-no-reboot", "-kernel", env.pieces.vmlinuz.string(), "-initrd",
      initrd.string(), "-append",
      fmt::format("console=ttyS0 panic=-1 loglevel=5 possible_cpus={} nr_cpus={} "
                  "cryptomgr.notests zswap.enabled=0 no_timer_check", nr, nr)};
  // Generous: a loaded 2-vCPU machine boots 6.1 under TCG in 12-30 s.
  const double limit = 240 + static_cast<double>(ops) / 50 + nr / 16.0;
  const auto t = Clock::now();
  const int rc = run_limited(argv, log, limit);
  r = parse_output(read_text(log), true);
  r.seconds = since(t);
  ++env.boots;
  env.boot_seconds += r.seconds;
  if (rc == -2 && r.crash.empty())
    r.failure = fmt::format("the guest did not finish in {:.0f} s (log {})", limit, log.string());
  else if (!r.done && r.crash.empty())
    r.failure = fmt::format("the guest stopped before the driver finished (status {}; log {}): {}",
                            rc, log.string(), tail_file(log, 2));
  if (r.guest_nr && r.guest_nr != nr)
    r.failure = fmt::format("the guest booted with nr_cpu_ids {}, not {} (possible_cpus={})",
                            r.guest_nr, nr, nr);
  return r;
}

// --- comparison -----------------------------------------------------------

struct Finding {
  int id = -1;
  int op = 0;  // 1-based
  std::string signature;
  std::string kind;  // "kernel-vs-shim", "in the guest"
  std::vector<std::string> details;
};

std::map<std::string, std::string> state_fields(const std::string& state) {
  std::map<std::string, std::string> f;
  std::istringstream in(state);
  std::string w;
  while (in >> w) {
    const auto eq = w.find('=');
    if (eq == std::string::npos) f[w] = "1";
    else f[w.substr(0, eq)] = w.substr(eq + 1);
  }
  return f;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The first field in which two state lines differ, by the tool's field names.
std::string differing_field(const std::string& subject, const std::string& a, const std::string& b) {
  const auto fa = state_fields(a), fb = state_fields(b);
  static const std::vector<std::pair<std::string, std::string>> kOrder = {
      {"skipped", "contract"}, {"x", "state"},  {"r", "find.ret"},       {"n", "size"},
      {"h", "slot"},           {"i", "idx"},    {"f", "free_cpus"},      {"l", "find.later_mask"}};
  for (const auto& [key, name] : kOrder) {
    auto va = fa.count(key) ? fa.at(key) : std::string("(none)");
    auto vb = fb.count(key) ? fb.at(key) : std::string("(none)");
    if (va == vb) continue;
    if (subject == "pick" && key == "r") return "cpu";
    if (key == "h") {
      const auto ia = split(va, ','), ib = split(vb, ',');
      for (std::size_t i = 0; i < std::min(ia.size(), ib.size()); ++i) {
        if (ia[i] == ib[i]) continue;
        const auto ca = ia[i].substr(0, ia[i].find(':')), cb = ib[i].substr(0, ib[i].find(':'));
        return ca != cb ? "slot.cpu" : "slot.dl";
      }
      return "size";
    }
    return name;
  }
  return "state";
}

std::string op_name(const HostProgram& p, int op) {
  if (op < 1 || static_cast<std::size_t>(op) > p.ops.size()) return "end";
  const std::string& text = p.ops[static_cast<std::size_t>(op - 1)];
  return text.substr(0, text.find(' '));
}

std::string kind_of_invariant(const std::string& inv) {
  return inv == "model" ? "model-mismatch" : "invariant";
}

// The first finding of program `id` (nullopt: the kernel and the shim agree
// and no check failed); *not_run says why the program did not run.
std::optional<Finding> judge(const std::string& subject, const HostProgram& p, int id,
                             const RunResult& guest, const RunResult& shim, std::string* not_run) {
  const auto gi = guest.traces.find(id);
  const auto si = shim.traces.find(id);
  const bool crashed = guest.crash_id == id && !guest.crash.empty();
  if (!crashed) {
    if (gi == guest.traces.end() || !gi->second.started) {
      *not_run = gi != guest.traces.end() && !gi->second.error.empty()
                     ? "in the guest: " + gi->second.error
                     : (guest.failure.empty() ? "the guest did not run it" : guest.failure);
      return std::nullopt;
    }
  }
  if (si == shim.traces.end() || !si->second.started) {
    *not_run = si != shim.traces.end() && !si->second.error.empty()
                   ? "in the shim twin: " + si->second.error
                   : "the shim twin did not run it";
    return std::nullopt;
  }
  static const Trace kEmpty;
  const Trace& g = gi == guest.traces.end() ? kEmpty : gi->second;
  const Trace& s = si->second;
  const int n = static_cast<int>(p.ops.size());
  for (int op = 1; op <= n; ++op) {
    const std::size_t k = static_cast<std::size_t>(op - 1);
    const bool have_g = k < g.states.size() && !(crashed && op >= guest.crash_op);
    if (crashed && op == guest.crash_op) {
      Finding f{id, op, fmt::format("{}:invariant:BUG:kernel:{}", subject, op_name(p, op)),
                "in the guest", {fmt::format("the guest crashed in op #{}: {}", op, guest.crash)}};
      return f;
    }
    if (!have_g) {
      if (!guest.failure.empty()) *not_run = guest.failure;
      else *not_run = fmt::format("the guest's trace ends before op #{}", op);
      return std::nullopt;
    }
    const std::string& gs = g.states[k];
    const std::string& ss = k < s.states.size() ? s.states[k] : std::string();
    if (gs != ss) {
      const std::string field = differing_field(subject, gs, ss);
      Finding f{id, op, fmt::format("{}:kernel-vs-shim:{}:{}", subject, field, op_name(p, op)),
                "kernel-vs-shim", {fmt::format("kernel: {}", gs), fmt::format("shim:   {}", ss)}};
      return f;
    }
    const bool gw = g.warnings.count(op) != 0, sw = s.warnings.count(op) != 0;
    if (gw || sw) {
      Finding f{id, op,
                gw && sw ? fmt::format("{}:invariant:WARN_ON:warning:{}", subject, op_name(p, op))
                         : fmt::format("{}:kernel-vs-shim:warning:{}", subject, op_name(p, op)),
                gw && sw ? "in the guest" : "kernel-vs-shim",
                {fmt::format("kernel: {}", gw ? "WARNING at " + g.warnings.at(op) : "no warning"),
                 fmt::format("shim:   {}", sw ? "warning " + s.warnings.at(op) : "no warning")}};
      return f;
    }
    if (const auto v = g.violations.find(op); v != g.violations.end()) {
      const auto w = split(v->second, ' ');
      const std::string inv = w.size() > 0 ? w[0] : "?", field = w.size() > 1 ? w[1] : "?";
      const std::string check = inv == "model" ? "model" : inv;
      Finding f{id, op,
                fmt::format("{}:{}:{}:{}:{}", subject, kind_of_invariant(inv), check, field,
                            op_name(p, op)),
                "in the guest",
                {fmt::format("kernel: {} (driver check: {})", gs, v->second)}};
      return f;
    }
  }
  if (crashed) {
    Finding f{id, n, fmt::format("{}:invariant:BUG:kernel:end", subject), "in the guest",
              {fmt::format("the guest crashed after the program: {}", guest.crash)}};
    return f;
  }
  return std::nullopt;
}

struct Outcome {
  std::optional<Finding> finding;
  std::size_t programs = 0, ops = 0;
  std::vector<std::string> not_run;  // "program: why"
};

// Runs `ids` of `programs` in the twin and in one guest per nr_cpu_ids.
Outcome run_all(Env& env, const std::vector<HostProgram>& programs, const std::vector<int>& ids,
                bool verbose, const std::string& tag, bool print_boots) {
  Outcome out;
  const RunResult shim = run_twin(env, programs_text(programs, ids, verbose), tag);
  std::map<unsigned, std::vector<int>> groups;
  for (int id : ids) groups[programs[static_cast<std::size_t>(id)].nr].push_back(id);
  std::map<int, const RunResult*> guest_of;
  std::vector<std::unique_ptr<RunResult>> guests;
  for (const auto& [nr, members] : groups) {
    std::size_t ops = 0;
    for (int id : members) ops += programs[static_cast<std::size_t>(id)].ops.size();
    guests.push_back(std::make_unique<RunResult>(
        run_guest(env, nr, programs_text(programs, members, verbose), ops, fmt::format("{}-{}", tag, nr))));
    if (print_boots)
      fmt::print("  guest nr_cpu_ids={}: {} programs, {} ops, {:.1f} s{}\n", nr, members.size(), ops,
                 guests.back()->seconds,
                 guests.back()->failure.empty() ? "" : " (" + guests.back()->failure + ")");
    std::fflush(stdout);
    for (int id : members) guest_of[id] = guests.back().get();
  }
  for (int id : ids) {
    const HostProgram& p = programs[static_cast<std::size_t>(id)];
    std::string why;
    auto f = judge(env.subject, p, id, *guest_of[id], shim, &why);
    if (!why.empty() && !shim.failure.empty()) why += "; " + shim.failure;
    if (f) {
      if (!out.finding) out.finding = f;
      ++out.programs;
      out.ops += static_cast<std::size_t>(f->op);
      continue;
    }
    if (!why.empty()) {
      out.not_run.push_back(fmt::format("{}: {}", p.name, why));
      continue;
    }
    ++out.programs;
    out.ops += p.ops.size();
  }
  return out;
}

// --- minimisation ----------------------------------------------------------

struct Minimized {
  HostProgram program;
  std::optional<Finding> finding;  // of the reproducer as last run (verbose states)
  unsigned rounds = 0;
  std::size_t variants = 0;
  bool minimal = false;
};

// `p` and the programs without each half, quarter, ..., single op of it.
std::vector<HostProgram> variants_of(const HostProgram& p) {
  std::vector<HostProgram> variants = {p};
  const std::size_t n = p.ops.size();
  for (std::size_t chunk = std::max<std::size_t>(n / 2, 1);; chunk /= 2) {
    for (std::size_t at = 0; at < n && variants.size() < 400; at += chunk) {
      if (chunk >= n) break;
      HostProgram v = p;
      const auto end = std::min(n, at + chunk);
      v.ops.erase(v.ops.begin() + static_cast<long>(at), v.ops.begin() + static_cast<long>(end));
      v.lines.erase(v.lines.begin() + static_cast<long>(at), v.lines.begin() + static_cast<long>(end));
      variants.push_back(std::move(v));
    }
    if (chunk <= 1) break;
  }
  return variants;
}

// The first finding of program `id` that the shim twin shows by itself: its
// driver checks and warnings (the same signatures as judge()'s).
std::optional<Finding> judge_twin(const std::string& subject, const HostProgram& p, int id,
                                  const RunResult& shim) {
  const auto si = shim.traces.find(id);
  if (si == shim.traces.end() || !si->second.started) return std::nullopt;
  const Trace& s = si->second;
  for (int op = 1; op <= static_cast<int>(p.ops.size()); ++op) {
    if (s.warnings.count(op))
      return Finding{id, op, fmt::format("{}:invariant:WARN_ON:warning:{}", subject, op_name(p, op)),
                     "in the guest", {}};
    if (const auto v = s.violations.find(op); v != s.violations.end()) {
      const auto w = split(v->second, ' ');
      const std::string inv = w.size() > 0 ? w[0] : "?", field = w.size() > 1 ? w[1] : "?";
      return Finding{id, op,
                     fmt::format("{}:{}:{}:{}:{}", subject, kind_of_invariant(inv), inv, field,
                                 op_name(p, op)),
                     "in the guest", {}};
    }
  }
  return std::nullopt;
}

Minimized minimize(Env& env, const HostProgram& start, const Finding& finding, unsigned max_rounds) {
  Minimized m;
  m.program = start;
  m.program.ops.resize(static_cast<std::size_t>(finding.op));
  m.program.lines.resize(static_cast<std::size_t>(finding.op));
  m.finding = finding;
  // A finding the shim twin shows too (a driver check, a warning in both) is
  // minimised in the twin (milliseconds a round), then confirmed in one boot.
  if (finding.kind != "kernel-vs-shim" && finding.signature.find(":BUG:") == std::string::npos) {
    HostProgram cur = m.program;
    for (unsigned round = 1; round <= 500; ++round) {
      std::vector<HostProgram> variants = variants_of(cur);
      std::vector<int> ids(variants.size());
      for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
      const RunResult shim = run_twin(env, programs_text(variants, ids, false), "twinmin");
      std::optional<std::size_t> best;
      std::size_t best_len = cur.ops.size();
      for (std::size_t i = 1; i < variants.size(); ++i) {
        auto f = judge_twin(env.subject, variants[i], static_cast<int>(i), shim);
        if (f && f->signature == finding.signature && static_cast<std::size_t>(f->op) < best_len) {
          best = i;
          best_len = static_cast<std::size_t>(f->op);
        }
      }
      m.variants += variants.size() - 1;
      if (!best) break;
      cur = variants[*best];
      cur.ops.resize(best_len);
      cur.lines.resize(best_len);
    }
    std::vector<HostProgram> one = {cur};
    const RunResult shim = run_twin(env, programs_text(one, {0}, true), "confirm");
    const RunResult guest = run_guest(env, cur.nr, programs_text(one, {0}, true), cur.ops.size(), "confirm");
    std::string why;
    auto f = judge(env.subject, cur, 0, guest, shim, &why);
    m.rounds = 1;
    if (f && f->signature == finding.signature) {
      m.program = cur;
      m.finding = f;
      m.minimal = true;
      return m;
    }
    // Not the same in the guest: reduce in the guest from the start.
  }
  for (unsigned round = 1; round <= max_rounds; ++round) {
    if (m.program.ops.size() <= 1) {
      m.minimal = true;  // nothing left to drop
      break;
    }
    std::vector<HostProgram> variants = variants_of(m.program);
    const std::size_t n = m.program.ops.size();
    std::vector<int> ids(variants.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
    const RunResult shim = run_twin(env, programs_text(variants, ids, true), fmt::format("min{}", round));
    const RunResult guest =
        run_guest(env, m.program.nr, programs_text(variants, ids, true), n * variants.size(),
                  fmt::format("min{}", round));
    ++m.rounds;
    m.variants += variants.size() - 1;
    std::optional<std::size_t> best;
    std::size_t best_len = n;
    std::optional<Finding> best_finding;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      std::string why;
      auto f = judge(env.subject, variants[i], static_cast<int>(i), guest, shim, &why);
      if (!f || f->signature != finding.signature) continue;
      if (i == 0) m.finding = f;  // the verbose states of the current reproducer
      const std::size_t len = static_cast<std::size_t>(f->op);  // ops up to the finding
      if (i > 0 && len < best_len) {
        best = i;
        best_len = len;
        best_finding = f;
      }
    }
    if (!best) {
      m.minimal = true;  // no chunk, down to single ops, can go
      break;
    }
    m.program = variants[*best];
    m.program.ops.resize(best_len);
    m.program.lines.resize(best_len);
    m.finding = best_finding;
  }
  return m;
}

std::string reproducer_text(const std::string& subject, const HostProgram& p, const Finding& f,
                            bool minimal, const CandidateSpec& spec) {
  std::string text = fmt::format("# kernel-check --in-kernel: {}{}\n", f.signature,
                                 minimal ? "" : " (not minimal: the boot budget ran out)");
  text += fmt::format("# candidate: {}\n", fs::absolute(spec.file).string());
  if (spec.api == KernelApi::kPick) text += fmt::format("# function: {}\n", spec.function);
  text += fmt::format("subject {}\ncpus {}\n", subject, p.nr);
  for (const auto& op : p.ops) text += op + "\n";
  return text;
}

// --- the module ------------------------------------------------------------

// Copies the module's sources and the candidate into `dir` and writes its
// Kbuild. `headers` (may be empty) is read for what the kernel lacks.
bool stage_module(const CandidateSpec& spec, const fs::path& dir, const fs::path& headers,
                  std::string* error) {
  const fs::path src = source_dir();
  const fs::path kmod = src / "kshim" / "kmod";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "kshim", ec);
  fs::create_directories(dir / "kc_inc" / "linux" / "sched", ec);
  for (const char* f : {"kc_driver.c", "kc_driver.h", "kc_port.h", "kc_module.c", "sched.h",
                        "kc_pick.h", "kc_rename.h", "init.sh"})
    fs::copy_file(kmod / f, dir / f, fs::copy_options::overwrite_existing, ec);
  fs::copy_file(kmod / "kshim" / "kshim.h", dir / "kshim" / "kshim.h",
                fs::copy_options::overwrite_existing, ec);
  fs::copy_file(kmod / "kc_inc" / "linux" / "sched" / "deadline.h",
                dir / "kc_inc" / "linux" / "sched" / "deadline.h", fs::copy_options::overwrite_existing,
                ec);
  fs::copy_file(src / "kshim" / "abi" / "kcheck_abi.h", dir / "kcheck_abi.h",
                fs::copy_options::overwrite_existing, ec);
  const bool pick = spec.api == KernelApi::kPick;
  fs::copy_file(src / "kshim" / "runtime" / (pick ? "glue_pick.c" : "glue_cpudl.c"), dir / "glue.c",
                fs::copy_options::overwrite_existing, ec);
  fs::copy_file(spec.file, dir / "candidate.c", fs::copy_options::overwrite_existing, ec);
  const fs::path header =
      spec.header.empty() ? src / "kshim" / "cpudeadline" /
                                fmt::format("cpudeadline-{}.h", kernel_api_name(pick ? KernelApi::kV4_9 : spec.api))
                          : spec.header;
  fs::copy_file(header, dir / "cpudeadline.h", fs::copy_options::overwrite_existing, ec);
  if (ec) {
    *error = fmt::format("cannot stage the module in {}: {}", dir.string(), ec.message());
    return false;
  }
  std::string glue_flags, cand_flags;
  const std::string source = fmt::format("-DKCHECK_SOURCE='\"{}\"'", spec.file.filename().string());
  if (pick) {
    // Kernels before v6.6 lack cpumask_first_and_and(): kbuild asks the
    // headers it builds against (kc_pick.h has the stand-in).
    (void)headers;
    const std::string need = " $(KC_FAA)";
    glue_flags = fmt::format("-D__NO_FORTIFY -DKCHECK_FUNCTION={} {}{}", spec.function, source, need);
    cand_flags = fmt::format("-include $(src)/kc_pick.h{}", need);
  } else {
    const int api = spec.api == KernelApi::kV4_8 ? 48 : spec.api == KernelApi::kV4_9 ? 49 : 619;
    glue_flags = fmt::format("-D__NO_FORTIFY -DKCHECK_API={} -DKCHECK_FIND_RETURNS_CPU={} {}", api,
                             spec.find_return == FindReturn::kCpu ? 1 : 0, source);
    cand_flags = "-include $(src)/sched.h";
  }
  std::string own;
  for (const auto& name : shim_helpers_defined_by(read_text(spec.file) + "\n" + read_text(header)))
    own += " -DKSHIM_OWN_" + name;
  const std::string rename = pick ? fmt::format(" -D{}=kc_{}", spec.function, spec.function) : "";
  const std::string kbuild = fmt::format(
      "# kernel-check --in-kernel: the candidate, unmodified, in a module (diffsched).\n"
      "LINUXINCLUDE := -I$(src)/kc_inc $(LINUXINCLUDE)\n"
      "KC_FAA := $(shell grep -qs cpumask_first_and_and $(srctree)/include/linux/cpumask.h || "
      "echo -DKC_NEED_FIRST_AND_AND)\n"
      "obj-m := kcheck.o\n"
      "kcheck-y := kc_module.o kc_driver.o glue.o candidate.o\n"
      "ccflags-y := -I$(src) -include $(src)/kc_rename.h{}{} -Wno-missing-prototypes "
      "-Wno-missing-declarations\n"
      "CFLAGS_glue.o := {}\n"
      "CFLAGS_candidate.o := {}\n",
      rename, own, glue_flags, cand_flags);
  if (!write_text(dir / "Kbuild", kbuild)) {
    *error = fmt::format("cannot write {}", (dir / "Kbuild").string());
    return false;
  }
  return true;
}

bool is_static_elf(const fs::path& file) {
  const std::string head = read_text(file).substr(0, 8192);
  return head.size() > 4 && head.compare(0, 4, "\x7f" "ELF") == 0 &&
         head.find("/lib64/ld-linux") == std::string::npos && head.find("/lib/ld-linux") == std::string::npos;
}

}  // namespace

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
  k.headers = headers_of(k.version);
  if (k.headers.empty()) {
    *error = fmt::format("--in-kernel needs the headers of kernel {} (package linux-headers-{}; run "
                         "scripts/install-deps.sh)", k.version, k.version);
    return std::nullopt;
  }
  return k;
}

bool export_kmod(const CandidateSpec& spec, const std::string& program_text, const fs::path& dir,
                 std::string* error) {
  if (!stage_module(spec, dir, {}, error)) return false;
  std::error_code ec;
  fs::remove(dir / "init.sh", ec);
  std::string why;
  auto program = io::parse_program(program_text, &why);
  if (!program) {
    *error = why;
    return false;
  }
  HostProgram p;
  const std::string subject = spec.api == KernelApi::kPick ? "pick" : "cpudl";
  if (!to_host(*program, subject, "the program", &p, error)) return false;
  std::vector<HostProgram> ps = {p};
  write_text(dir / "program.ops", program_text);
  write_text(dir / "program.txt", programs_text(ps, {0}, true) + "Q\n");
  write_text(dir / "README",
             "Build: make -C /lib/modules/$(uname -r)/build M=$PWD modules  (a kernel with CONFIG_NR_CPUS >= cpus, booted with nr_cpu_ids == cpus of program.ops)\n"
             "Run:   sudo insmod kcheck.ko && sudo sh -c 'cat program.txt > /proc/kcheck' && sudo dmesg | grep -E 'KC|WARNING'\n"
             "Read:  one 'KC S id op STATE' line per op of program.ops; 'KC V' is a failed check, a WARNING/BUG the finding (diffsched kernel-check --in-kernel).\n");
  return true;
}

int run_in_kernel(const InKernelOptions& o) {
  const auto start = Clock::now();
  if (o.subject != "cpudl" && o.subject != "pick")
    return fail(fmt::format("--in-kernel: no in-kernel driver for subject {}", o.subject));
  if (o.spec.api == KernelApi::kV3_14)
    return fail(fmt::format("--in-kernel does not support the v3.14 API form of {} (its own "
                            "dl_time_before() clashes with the kernel's); supported: v4.8, v4.9, v6.19, pick",
                            o.spec.file.string()));
  // The programs first: a bad --replay file is said before anything is built.
  std::vector<HostProgram> programs;
  std::string why;
  std::size_t checked_in = 0, skipped_nr = 0;
  if (!o.replay.empty()) {
    HostProgram p;
    if (!load_ops_file(o.replay, o.subject, &p, &why)) return fail(why);
    programs.push_back(std::move(p));
  } else {
    const fs::path corpus = source_dir() / "corpus";
    for (const auto& dir : {corpus / "seeds" / o.subject, corpus / "regressions" / o.subject})
      for (const auto& f : ops_files(dir)) {
        HostProgram p;
        if (!load_ops_file(f, o.subject, &p, &why)) return fail(why);
        // --nr-cpus bounds the boots (one per nr_cpu_ids): the checked-in
        // programs at other nr_cpu_ids are left out, and counted.
        if (!o.nr_cpus.empty() &&
            std::find(o.nr_cpus.begin(), o.nr_cpus.end(), p.nr) == o.nr_cpus.end()) {
          ++skipped_nr;
          continue;
        }
        programs.push_back(std::move(p));
      }
    checked_in = programs.size();
    std::vector<unsigned> nrs = o.nr_cpus;
    if (nrs.empty()) {
      std::set<unsigned> seen;
      for (const auto& p : programs) seen.insert(p.nr);
      nrs.assign(seen.begin(), seen.end());
    }
    if (nrs.empty()) nrs.push_back(o.subject == "pick" ? 64 : 8);
    std::mt19937_64 rng(o.seed);
    for (unsigned i = 0; i < o.runs; ++i) {
      const unsigned nr = nrs[i % nrs.size()];
      std::string name = fmt::format("random program {} (--seed {}, nr_cpu_ids {})", i + 1, o.seed, nr);
      HostProgram p = o.subject == "pick"
                          ? random_program<pick::Subject>(rng, nr, o.max_ops, std::move(name))
                          : random_program<cpudl::Subject>(rng, nr, o.max_ops, std::move(name));
      if (!p.ops.empty()) programs.push_back(std::move(p));
    }
  }

  auto pieces = find_kernel_pieces(o.kernel, &why);
  if (!pieces) return fail(why);
  Env env;
  env.pieces = *pieces;
  env.work = o.work_dir;
  env.subject = o.subject;
  std::error_code ec;
  fs::create_directories(env.work, ec);

  // The candidate against the shim, and the twin that drives it.
  CandidateSpec shim_spec = o.spec;
  shim_spec.role = "candidate";
  shim_spec.extra_flags = o.shim_flags;
  auto t = Clock::now();
  BuildResult b = build_candidate(shim_spec, env.work);
  if (!b.ok) {
    if (!b.compiler_output.empty()) fmt::print(stderr, "{}", b.compiler_output);
    return fail(fmt::format("{} does not build against the kernel shim: {}", o.spec.file.string(),
                            b.summary.empty() ? "see the compiler's messages above" : b.summary));
  }
  env.shim_so = b.shared_object;
  fs::path clang = find_program("clang-14");
  if (clang.empty()) clang = find_program("clang");
  if (clang.empty()) return fail("clang-14 not found on PATH (run scripts/install-deps.sh)");
  env.twin = env.work / "kcheck_twin";
  const fs::path kmod_src = source_dir() / "kshim" / "kmod";
  if (run({clang.string(), "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
           "-I", (source_dir() / "kshim" / "abi").string(), "-I", kmod_src.string(),
           (kmod_src / "twin.c").string(), (kmod_src / "kc_driver.c").string(), "-ldl", "-o",
           env.twin.string()},
          RunOptions{.log = env.work / "twin-build.log"}) != 0)
    return fail(fmt::format("could not build the shim twin: {}", tail_file(env.work / "twin-build.log", 3)));
  const double shim_seconds = since(t);

  // The module, against the kernel's headers.
  t = Clock::now();
  const fs::path mod = env.work / "kmod";
  if (!stage_module(o.spec, mod, env.pieces.headers, &why)) return fail(why);
  const fs::path make = find_program("make");
  if (make.empty()) return fail("make not found on PATH (run scripts/install-deps.sh)");
  const fs::path mlog = env.work / "kmod-build.log";
  if (run({make.string(), "-C", env.pieces.headers.string(), "M=" + mod.string(), "modules"},
          RunOptions{.log = mlog}) != 0 ||
      !fs::exists(mod / "kcheck.ko")) {
    std::string log = read_text(mlog);
    for (std::size_t at = 0; (at = log.find((mod / "candidate.c").string(), at)) != std::string::npos;)
      log.replace(at, (mod / "candidate.c").string().size(), o.spec.file.string());
    fmt::print(stderr, "{}", log);
    return fail(fmt::format("{} does not build as a kernel module against the {} headers (see the "
                            "compiler's messages above; log {})",
                            o.spec.file.string(), env.pieces.version, mlog.string()));
  }
  env.module = mod / "kcheck.ko";
  const double module_seconds = since(t);

  fmt::print("kernel-check {} --in-kernel: candidate {} ({}), kernel {} ({}), QEMU TCG\n"
             "  work directory {}\n  built: the shim twin in {:.1f} s, the module in {:.1f} s\n",
             o.subject, o.spec.file.string(),
             o.subject == "pick" ? "function " + o.spec.function
                                 : describe_cpudl_form(o.spec.api, o.spec.find_return),
             env.pieces.version, env.pieces.vmlinuz.string(), env.work.string(), shim_seconds,
             module_seconds);
  if (o.replay.empty())
    fmt::print("  programs: {} checked-in (corpus/seeds/{}, corpus/regressions/{}){} + {} random (--seed {})\n",
               checked_in, o.subject, o.subject,
               skipped_nr ? fmt::format(", {} more at other nr_cpu_ids left out by --nr-cpus", skipped_nr) : "",
               programs.size() - checked_in, o.seed);
  std::fflush(stdout);

  std::vector<int> ids(programs.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  Outcome out = run_all(env, programs, ids, !o.replay.empty(), "run", true);

  if (!o.replay.empty()) {
    // The trace, op by op, like `diffsched replay`'s.
    const HostProgram& p = programs[0];
    const RunResult g = parse_output(read_text(env.work / fmt::format("guest-run-{}.log", p.nr)), true);
    const RunResult s = parse_output(read_text(env.work / "shim-run.txt"), false);
    const auto gi = g.traces.find(0);
    const auto si = s.traces.find(0);
    for (std::size_t k = 0; k < p.ops.size(); ++k) {
      fmt::print("#{} {}\n", k + 1, p.ops[k]);
      const std::string gs = gi != g.traces.end() && k < gi->second.states.size() ? gi->second.states[k] : "(none)";
      const std::string ss = si != s.traces.end() && k < si->second.states.size() ? si->second.states[k] : "(none)";
      fmt::print("  kernel: {}\n", gs);
      if (ss != gs) fmt::print("  shim:   {}\n", ss);
      if (gi != g.traces.end() && gi->second.warnings.count(static_cast<int>(k + 1)))
        fmt::print("  kernel WARNING at {}\n", gi->second.warnings.at(static_cast<int>(k + 1)));
      if (gi != g.traces.end() && gi->second.violations.count(static_cast<int>(k + 1)))
        fmt::print("  check failed: {}\n", gi->second.violations.at(static_cast<int>(k + 1)));
    }
  }

  auto figures_now = [&] {
    return fmt::format("{} programs, {} ops compared op by op; {} boot{} ({:.1f} s in guests); {:.1f} s in all",
                  out.programs, out.ops, env.boots, env.boots == 1 ? "" : "s", env.boot_seconds, since(start));
  };
  const std::string figures = figures_now();
  if (out.finding) {
    const Finding& f = *out.finding;
    const HostProgram& p = programs[static_cast<std::size_t>(f.id)];
    fmt::print("FINDING ({}) in {} at op #{}: {}\n  signature {}\n", f.kind, p.name, f.op,
               p.ops.size() >= static_cast<std::size_t>(f.op) && f.op > 0 ? p.ops[static_cast<std::size_t>(f.op - 1)] : "",
               f.signature);
    for (const auto& d : f.details) fmt::print("  {}\n", d);
    if (f.kind == "kernel-vs-shim")
      fmt::print("  (either the shim models this kernel API differently, or the candidate depends on "
                 "something the shim models differently)\n");
    if (o.replay.empty()) {
      std::fflush(stdout);
      Minimized m = minimize(env, p, f, o.minimize_boots);
      const fs::path repro = o.output.empty() ? env.work / "minimized.ops" : o.output;
      const std::string text = reproducer_text(o.subject, m.program, m.finding ? *m.finding : f, m.minimal, o.spec);
      if (!write_text(repro, text)) return fail(fmt::format("cannot write {}", repro.string()));
      fmt::print("minimised{}: {} ops -> {} ops ({} variants; {} guest boot{}), written to {}\n",
                 m.minimal ? "" : " (NOT MINIMAL: the boot budget ran out)", f.op, m.program.ops.size(),
                 m.variants, m.rounds, m.rounds == 1 ? "" : "s", repro.string());
      if (m.finding)
        for (const auto& d : m.finding->details) fmt::print("  {}\n", d);
      fmt::print("{}", text);
      fmt::print("replay: diffsched kernel-check {} --candidate {} --in-kernel --replay {}\n", o.subject,
                 o.spec.file.string(), repro.string());
    }
    fmt::print("verdict: FINDING {} ({})\n", f.signature, figures_now());
    return kExitFinding;
  }
  if (!out.not_run.empty()) {
    for (std::size_t i = 0; i < out.not_run.size() && i < 5; ++i) fmt::print("  not run: {}\n", out.not_run[i]);
    fmt::print("verdict: INCOMPLETE ({}; {} program{} did not run)\n", figures, out.not_run.size(),
               out.not_run.size() == 1 ? "" : "s");
    return fail(fmt::format("{} of {} programs could not run in the guest or the shim twin (first: {})",
                            out.not_run.size(), programs.size(), out.not_run.front()));
  }
  fmt::print("verdict: SAME in the kernel and the shim, no check failed in the guest ({})\n", figures);
  return kExitOk;
}

}  // namespace diffsched::tools
