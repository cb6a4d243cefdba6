// `diffsched fn --patch`/`--git`: check_patch's report (fn_only) as the list
// of changed functions, `checked` or `not checkable`, and its exit status
// (check.h). The patch reading, staging and routing are check_patch's.
#include <fmt/format.h>

#include "engine/exit_status.h"
#include "patch/check.h"
#include "util/text.h"

namespace diffsched::patch {

namespace {

std::size_t count_checks(const Report& r) {
  std::size_t n = 0;
  for (const Unit& u : r.units) n += u.checks.size();
  return n;
}

std::string function_of(const std::string& file, const std::string& function) {
  return function.empty() ? file : fmt::format("{} {}", file, function);
}

// "equivalent (300 inputs, 300 compared, level exact)", "finding: ...";
// "..., level exact, shim era v5.10)" when the era is not the default.
std::string checked_verdict(const CheckRun& c) {
  const std::string ran = fmt::format("{} inputs, {} compared{}, level {}{}", c.inputs, c.compared,
                                      c.fuzzed ? fmt::format(", {} fuzzed", c.fuzzed) : "", c.level,
                                      c.era.empty() ? "" : ", shim era v" + c.era);
  if (c.status == kExitOk)
    return fmt::format("{} ({}){}", c.verdict, ran, c.detail.empty() ? "" : "; " + c.detail);
  if (c.status == kExitFinding) return fmt::format("finding: {} ({})", c.detail, ran);
  return fmt::format("{}: {}", c.verdict, c.detail);
}

}  // namespace

int fn_patch_status(const Report& r) {
  if (!r.error.empty() || count_checks(r) == 0) return kExitBadInput;
  int status = kExitOk;
  for (const Unit& u : r.units) status = worse_status(status, u.status);
  return status;
}

std::string format_fn_patch(const Report& r) {
  std::string out = fmt::format("diffsched fn --patch: {} ({}), tree {}, base: {}\n", r.patch,
                                r.form, r.tree, r.base.empty() ? "-" : r.base);
  for (const std::string& n : r.notes) out += fmt::format("note: {}\n", n);
  if (!r.work.empty()) out += fmt::format("work: {} (kept: the states and the checks' files)\n", r.work);
  std::size_t functions = 0, unchecked = 0;
  for (const Unit& u : r.units) {
    out += fmt::format("[{}] {}\n", u.name, u.subject.empty() ? "(a plain diff)" : u.subject);
    for (const CheckRun& c : u.checks) {
      ++functions;
      out += fmt::format("  {}: checked: {}\n", function_of(c.file, c.function), checked_verdict(c));
      if (!c.trace.empty()) out += fmt::format("    {}\n", c.trace);
      if (!c.replay.empty()) out += fmt::format("    replay: {}\n", c.replay);
      if (c.status == kExitBadInput) out += fmt::format("    its output: {}\n", c.log);
    }
    for (const Unchecked& n : u.unchecked) {
      ++functions, ++unchecked;
      out += fmt::format("  {}: not checkable: {}\n", function_of(n.file, n.function), n.reason);
    }
  }
  const int status = fn_patch_status(r);
  const std::size_t checked = functions - unchecked;
  std::string verdict;
  switch (status) {
    case kExitOk: verdict = fmt::format("equivalent: every changed function checked ({})", checked); break;
    case kExitFinding: verdict = "finding: a checked function differs (above)"; break;
    case kExitOutOfDomain:
      verdict = fmt::format("no verdict for all: {} checked without a finding, {} not checkable",
                            checked, unchecked);
      break;
    default:
      verdict = checked == 0 ? fmt::format("nothing checkable: none of the {} changed functions "
                                           "(or changes) can be checked by diffsched fn", functions)
                             : "a check could not run (above)";
  }
  out += fmt::format("verdict: {}, exit {}\n", verdict, status);
  return out;
}

}  // namespace diffsched::patch
