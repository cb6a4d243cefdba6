// The parts of a kernel-check run every step shares (kcheck/session.h): the
// replay command, the verdict file's note, the one-line error.
#include <fmt/format.h>

#include "engine/exit_status.h"
#include "kcheck/session.h"
#include "util/text.h"

namespace diffsched::kcheck {

std::string replay_command(const KernelCheckOptions& o, const fs::path& input, bool raw) {
  std::vector<std::string> words = tools::replay_args(o, input.string(), raw);
  return fmt::format("{} {}", util::self_command(), util::shell_join(words));
}

VerdictNote& verdict_note() {
  static VerdictNote note;
  return note;
}

int error(const std::string& kind, const std::string& message) {
  fmt::print(stderr, "diffsched: error: {}\n", message);
  VerdictNote& n = verdict_note();
  if (n.detail.empty()) {  // the first error is the reason
    n.verdict = "error";
    n.kind = kind;
    n.detail = message;
  }
  return kExitBadInput;
}

int error(const std::string& message) { return error("error", message); }

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace diffsched::kcheck
