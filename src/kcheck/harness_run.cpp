// Running the kcheck harness: its options as arguments (tools::harness_args),
// the sanitizers' options in the environment, in the sandbox (bubblewrap:
// the tree read-only, only the work directory writable, no network), under
// a deadline; then its result record (kcheck/record.h) is read.
// The record is the only thing a verdict rests on: its exit status says how
// the process ended, never what the checks found.
#include <sys/stat.h>

#include <cstdio>

#include <fmt/format.h>

#include "kcheck/session.h"
#include "io/load.h"
#include "kcheck/work.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::kcheck {

KernelCheckOptions Harness::with_mode(const std::string& mode) const {
  KernelCheckOptions o = base;
  o.mode = mode;
  return o;
}

std::string file_identity(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return {};
  return fmt::format("{}:{}:{}:{}.{}", st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec);
}

HarnessRun Harness::run(const KernelCheckOptions& options,
                        const std::vector<std::string>& fuzzer_args, const fs::path& log,
                        double limit,
                        const std::vector<std::pair<std::string, std::string>>& extra_env) const {
  HarnessRun out;
  if (!identity.empty() && file_identity(binary) != identity) {
    out.why = fmt::format("the harness {} changed after its hash was checked", binary.string());
    return out;
  }
  const tools::KcheckWork w{work};
  const fs::path record = w.record(), current = w.current_input();
  std::error_code ec;
  fs::remove(record, ec);
  fs::remove(current, ec);
  const std::string token = tools::new_token();
  tools::Command ro;
  ro.env = env;
  ro.env.insert(ro.env.end(), extra_env.begin(), extra_env.end());
  ro.env.insert(ro.env.end(), {{tools::kRecordEnv, record.string()},
                               {tools::kTokenEnv, token},
                               {tools::kCurrentInputEnv, current.string()}});
  ro.log = log;
  ro.cwd = work;
  ro.stdin_null = true;
  ro.new_process_group = true;
  ro.deadline = limit;
  std::vector<std::string> argv = {binary.string()};
  for (auto& a : tools::harness_args(options)) argv.push_back(std::move(a));
  argv.insert(argv.end(), fuzzer_args.begin(), fuzzer_args.end());
  ro.argv = tools::sandboxed(argv, {work}, &out.why);
  if (ro.argv.empty()) return out;
  std::fflush(stdout);
  const int rc = tools::run(ro);
  out.status = rc == tools::kExitTimedOut ? kcheck::kHarnessTimedOut
               : rc < 0                   ? kcheck::kHarnessNotRun
                                          : rc;
  out.record = tools::read_record(record, token, &out.why);
  if (out.record && out.record->mode != options.mode) {
    out.why = fmt::format("the result record is of mode {}, not {}", out.record->mode,
                          options.mode);
    out.record.reset();
  }
  if (!out.record) {
    const tools::StoppedInput in = tools::read_current_input(current);
    if (in.kind != tools::InputKind::kNone) {
      const bool raw = in.kind == tools::InputKind::kRaw;
      const fs::path saved = w.stopped_input(raw);
      std::string error;
      if (io::write_file(saved.string(), in.bytes, &error)) {
        out.stopped_input = saved;
        out.stopped_raw = raw;
      }
    }
  }
  fs::remove(current, ec);
  return out;
}

fs::path find_crash(const fs::path& dir) {
  std::error_code ec;  // a missing or unreadable directory holds no artifact (never an abort)
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    const std::string name = e.path().filename().string();
    for (const char* prefix : {"crash-", "leak-", "timeout-", "oom-"})
      if (name.starts_with(prefix)) return e.path();
  }
  return {};
}

}  // namespace diffsched::kcheck
