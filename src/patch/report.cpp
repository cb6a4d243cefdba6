// patch::format_report and format_b4: text, KTAP, mail, JSON (check.h).
#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/exit_status.h"
#include "patch/check.h"
#include "patch/patch.h"
#include "util/text.h"

namespace diffsched::patch {

namespace {

std::string_view verdict_word(int status) {
  switch (status) {
    case kExitOk: return "EQUIVALENT";
    case kExitFinding: return "FINDING";
    case kExitOutOfDomain: return "NO VERDICT";
    default: return "ERROR";
  }
}

// What a status means for a unit, in words.
std::string_view verdict_meaning(int status) {
  switch (status) {
    case kExitOk: return "every touched function checked, all equivalent";
    case kExitFinding: return "a check found a bug";
    case kExitOutOfDomain: return "not everything the patch touches was checked";
    default: return "could not check";
  }
}

std::string nr_cpus_text(const std::vector<unsigned>& nr) {
  if (nr.empty()) return "each input picks one of 1..8192";
  std::string s;
  for (unsigned n : nr) s += (s.empty() ? "" : " ") + std::to_string(n);
  return s;
}

// A finding or an error stops the run: the record then has no fuzzing count.
bool stopped_early(const CheckRun& c) { return c.status != kExitOk; }

// "properties (2013 programs, 30512 ops), fuzzing 2 s (11843 inputs), ...".
std::string what_ran(const CheckRun& c) {
  if (c.tool == "fn")
    return fmt::format("diffsched fn{}: {} generated inputs ({} compared){}; level {}; nr_cpu_ids: {}; "
                       "{}{:.1f} s in all",
                       c.stage == Stage::kExhaustive ? " --exhaustive (every input within its default bounds)" : "",
                       c.inputs, c.compared, c.fuzzed ? fmt::format(", then {} fuzzed (libFuzzer)", c.fuzzed) : "",
                       c.level, c.nr_cpus.size() == 1 ? std::to_string(c.nr_cpus[0]) : "drawn per input",
                       c.era.empty() ? "" : fmt::format("shim era v{}; ", c.era), c.seconds);
  if (c.stage == Stage::kInKernel)
    return fmt::format("in the booted kernel (QEMU) and in the shim, op by op: {} programs, {} ops; "
                       "nr_cpu_ids: {}; {:.1f} s in all",
                       c.programs, c.ops, c.nr_cpus.empty() ? "the programs' own" : nr_cpus_text(c.nr_cpus),
                       c.seconds);
  if (c.stage == Stage::kExhaustive)
    return fmt::format("every program within the subject's default bounds (kernel-check --exhaustive): "
                       "{} programs, {} ops; level {}; {:.1f} s in all",
                       c.programs, c.ops, c.level, c.seconds);
  std::string s = c.programs > 0                   ? fmt::format("properties ({} programs, {} ops)", c.programs, c.ops)
                  : c.found_in == "properties"   ? "properties (stopped at the finding; no count recorded)"
                  : c.runs == 0                  ? "no property run (--runs 0)"
                                                 : "no property run completed";
  s += c.executions > 0                 ? fmt::format(", fuzzing {:g} s ({} inputs)", c.time, c.executions)
       : c.found_in == "fuzzing"          ? ", fuzzing (stopped at the finding; no count recorded)"
       : c.time > 0 && stopped_early(c)   ? ", no fuzzing (the run stopped before it)"
                                          : ", no fuzzing";
  s += fmt::format("; level {}; nr_cpu_ids: {}; {:.1f} s in all", c.level, nr_cpus_text(c.nr_cpus),
                   c.seconds);
  return s;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

std::string check_name(const CheckRun& c) {
  return c.function.empty() ? fmt::format("{} {}", c.subject, c.file)
                            : fmt::format("{} {} {}", c.subject, c.file, c.function);
}

// The stage of `c` named `stage`, or null when it was not asked for.
const CheckRun* stage_of(const CheckRun& c, Stage stage) {
  for (const CheckRun& s : c.stages)
    if (s.stage == stage) return &s;
  return nullptr;
}

std::vector<std::string> lines_of(const std::string& text, std::size_t max = 200) {
  std::vector<std::string> out = util::split(text, '\n');
  while (!out.empty() && out.back().empty()) out.pop_back();
  if (out.size() > max) {
    out.resize(max);
    out.push_back(fmt::format("... (the rest in the file)"));
  }
  return out;
}

// A KTAP test name: no '#', no line end.
std::string ktap_name(std::string s) {
  for (char& c : s)
    if (c == '#' || c == '\n' || c == '\r') c = '_';
  return s;
}

void text_check(std::string& out, const CheckRun& c, const std::string& pad) {
  const int status = check_status(c);
  if (c.stage != Stage::kCheck)
    out += fmt::format("{}{}: {}{}\n", pad, stage_name(c.stage), c.skip.empty() ? verdict_word(status) : "NOT RUN",
                       c.signature.empty() ? "" : " " + c.signature);
  else
    out += fmt::format("{}{}: {}{}\n", pad, check_name(c), verdict_word(status),
                       c.signature.empty() ? "" : " " + c.signature);
  if (!c.skip.empty()) {
    out += fmt::format("{}  not run: {}\n", pad, c.skip);
    return;
  }
  if (!c.functions.empty() && c.stage == Stage::kCheck)
    out += fmt::format("{}  functions: {}\n", pad, joined(c.functions));
  out += fmt::format("{}  ran: {}\n", pad, what_ran(c));
  if (c.stage == Stage::kCheck)
    for (const std::string& l : lines_of(c.forms)) out += fmt::format("{}  {}\n", pad, l);
  if (!c.detail.empty()) out += fmt::format("{}  detail: {}\n", pad, c.detail);
  if (!c.trace.empty()) {
    out += c.reproducer.empty() ? fmt::format("{}  first diverging input:\n", pad)
                                : fmt::format("{}  minimised trace ({}):\n", pad, c.reproducer);
    for (const std::string& l : lines_of(c.trace)) out += fmt::format("{}    {}\n", pad, l);
  }
  if (!c.replay.empty()) out += fmt::format("{}  reproduce: {}\n", pad, c.replay);
  if (c.status == kExitBadInput) out += fmt::format("{}  its output: {}\n", pad, c.log);
  for (const CheckRun& st : c.stages) text_check(out, st, pad + "  ");
}

std::string format_text(const Report& r, bool mail) {
  std::string out;
  // The subject of the first patch with the report's verdict (the one a
  // reader must look at), else the first's, else the file's name.
  std::string subject = r.patch;
  for (const Unit& u : r.units)
    if (!u.subject.empty() && u.name != "series" && (u.status == r.status || subject == r.patch)) {
      subject = u.subject;
      if (u.status == r.status) break;
    }
  if (mail) out += fmt::format("diffsched check-patch: {}: {}\n\n", verdict_word(r.status), subject);
  out += fmt::format("verdict: {} ({}), exit {}\n", verdict_word(r.status),
                     r.error.empty() ? std::string(verdict_meaning(r.status)) : r.error, r.status);
  out += fmt::format("patch:   {} ({})\n", r.patch, r.form.empty() ? "unread" : r.form);
  out += fmt::format("tree:    {}\nbase:    {}\n", r.tree, r.base.empty() ? "-" : r.base);
  for (const std::string& n : r.notes) out += fmt::format("note:    {}\n", n);
  if (!r.work.empty()) out += fmt::format("work:    {} (kept: the states and the checks' files)\n", r.work);
  for (const Unit& u : r.units) {
    out += fmt::format("\n[{}] {}: {}\n", u.name, u.subject.empty() ? "(a plain diff)" : u.subject,
                       verdict_word(u.status));
    if (!u.author.empty() && !mail) out += fmt::format("  author: {}\n", u.author);
    out += fmt::format("  files: {}\n", joined(u.files));
    for (const CheckRun& c : u.checks) text_check(out, c, "  ");
    for (const Unchecked& n : u.unchecked)
      out += fmt::format("  not checked: {}{}: {}\n", n.file,
                         n.function.empty() ? "" : " " + n.function, n.reason);
  }
  if (mail) out += fmt::format("\n-- \n{} (check-patch)\n", r.version);
  return out;
}

// KTAP version 1 (Documentation/dev-tools/ktap.rst), nested 4 spaces as KUnit does.
class Ktap {
 public:
  std::string out;
  void line(int depth, const std::string& s) { out += std::string(4 * depth, ' ') + s + "\n"; }
  void diag(int depth, const std::string& s) {
    for (const std::string& l : lines_of(s)) line(depth, "# " + l);
  }
  void result(int depth, int n, bool ok, const std::string& name, const std::string& skip = {}) {
    line(depth, fmt::format("{} {} {}{}", ok ? "ok" : "not ok", n, ktap_name(name),
                            skip.empty() ? "" : " # SKIP " + ktap_name(skip)));
  }
  void header(int depth, const std::string& name, std::size_t tests) {
    line(depth, "KTAP version 1");
    if (!name.empty()) line(depth, "# Subtest: " + ktap_name(name));
    line(depth, fmt::format("1..{}", tests));
  }
};

// A finding's or an error's diagnostic lines: signature, detail, trace, replay.
void ktap_diag_result(Ktap& k, int depth, const CheckRun& c) {
  if (!c.detail.empty()) k.diag(depth, fmt::format("{} {}: {}", verdict_word(c.status), c.signature, c.detail));
  if (!c.trace.empty()) {
    k.diag(depth, c.reproducer.empty() ? "first diverging input:" : "minimised trace:");
    k.diag(depth, c.trace);
  }
  if (!c.replay.empty()) k.diag(depth, "reproduce: " + c.replay);
  if (c.status == kExitBadInput) k.diag(depth, "its output: " + c.log);
}

// A stage's subtest: SKIP when not asked for (`flag` names how) or when it
// could not run; else ok unless it found something or failed.
void ktap_stage(Ktap& k, int depth, int n, const CheckRun& c, Stage stage, std::string_view flag) {
  const std::string name = stage == Stage::kInKernel ? "in_kernel" : std::string(stage_name(stage));
  const CheckRun* s = stage_of(c, stage);
  if (!s) return k.result(depth, n, true, name, fmt::format("not asked for ({})", flag));
  if (!s->skip.empty()) return k.result(depth, n, true, name, "could not run: " + s->skip);
  k.diag(depth, fmt::format("{}: {}", name, what_ran(*s)));
  ktap_diag_result(k, depth, *s);
  k.result(depth, n, s->status == kExitOk || s->status == kExitOutOfDomain, name,
           s->status == kExitOutOfDomain ? "out of domain (no verdict)" : "");
}

// One check: subtests for what ran (properties, fuzzing, exhaustive,
// in-kernel; fn: inputs, exhaustive) and its verdict, the worst of them.
void ktap_check(Ktap& k, int depth, int n, const CheckRun& c) {
  const std::string name = check_name(c);
  const bool fn = c.tool == "fn";
  const int d = depth + 1;
  int i = 0;
  if (fn) {
    k.header(d, name, 3);
    k.result(d, ++i, c.status != kExitFinding, "inputs", c.inputs > 0 ? "" : "no inputs compared");
  } else {
    k.header(d, name, 5);
    // A stage is not ok when the finding is its.
    const bool in_properties = c.found_in == "properties", in_fuzzing = c.found_in == "fuzzing";
    if (c.programs > 0) k.diag(d, fmt::format("{} programs, {} ops", c.programs, c.ops));
    k.result(d, ++i, !in_properties, "properties",
             c.programs > 0 || in_properties ? "" : c.runs == 0 ? "--runs 0" : "no property run completed");
    if (c.executions > 0 || in_fuzzing)
      k.result(d, ++i, !in_fuzzing, "fuzzing");
    else
      k.result(d, ++i, true, "fuzzing",
               c.time <= 0        ? "--time 0"
               : stopped_early(c) ? "the run stopped at the verdict below; no fuzzing count recorded"
                                  : "not run");
  }
  k.diag(d, fmt::format("ran: {}", what_ran(c)));
  if (!c.functions.empty()) k.diag(d, "functions: " + joined(c.functions));
  ktap_diag_result(k, d, c);
  ktap_stage(k, d, ++i, c, Stage::kExhaustive, "check-patch --exhaustive");
  if (!fn) ktap_stage(k, d, ++i, c, Stage::kInKernel, "check-patch --in-kernel");
  const int status = check_status(c);
  const bool ok = status == kExitOk || status == kExitOutOfDomain;
  k.result(d, ++i, ok, "verdict", status == kExitOutOfDomain ? "out of domain (no verdict)" : "");
  k.result(depth, n, ok, name, status == kExitOutOfDomain ? "out of domain (no verdict)" : "");
}

std::string format_ktap(const Report& r) {
  Ktap k;
  if (!r.error.empty()) {
    k.header(0, "", 1);
    k.diag(0, r.error);
    k.result(0, 1, false, "check_patch");
    return k.out;
  }
  k.header(0, "", r.units.size());
  k.diag(0, fmt::format("diffsched check-patch of {} on {} (base: {})", r.patch, r.tree, r.base));
  int n = 0;
  for (const Unit& u : r.units) {
    k.header(1, u.name, u.checks.size() + u.unchecked.size());
    if (!u.subject.empty()) k.diag(1, "subject: " + u.subject);
    int t = 0;
    for (const CheckRun& c : u.checks) ktap_check(k, 1, ++t, c);
    for (const Unchecked& x : u.unchecked)
      k.result(1, ++t, true, x.function.empty() ? x.file : x.file + " " + x.function,
               "not checked: " + x.reason);
    const bool ok = u.status == kExitOk || u.status == kExitOutOfDomain;
    k.result(0, ++n, ok, u.name, u.status == kExitOutOfDomain && u.checks.empty() ? "nothing checkable" : "");
  }
  return k.out;
}

nlohmann::json check_json(const CheckRun& c) {
  nlohmann::json stages = nlohmann::json::array();
  for (const CheckRun& s : c.stages) stages.push_back(check_json(s));
  return {{"tool", c.tool},         {"inputs", c.inputs},     {"compared", c.compared},
          {"subject", c.subject},   {"file", c.file},         {"function", c.function},
          {"functions", c.functions}, {"status", c.status},   {"verdict", c.verdict},
          {"kind", c.kind},         {"signature", c.signature}, {"detail", c.detail},
          {"found_in", c.found_in},
          {"forms", c.forms},       {"reproducer", c.reproducer}, {"trace", c.trace},
          {"replay", c.replay},     {"command", c.command},   {"log", c.log},
          {"seconds", c.seconds},   {"time", c.time},         {"runs", c.runs},
          {"nr_cpus", c.nr_cpus},   {"level", c.level},       {"stage", stage_name(c.stage)},
          {"skip", c.skip},         {"status_with_stages", check_status(c)},
          {"stages", stages},       {"programs", c.programs},
          {"ops", c.ops},           {"executions", c.executions}, {"shim_era", c.era}};
}

nlohmann::json report_json(const Report& r) {
  nlohmann::json units = nlohmann::json::array();
  for (const Unit& u : r.units) {
    nlohmann::json checks = nlohmann::json::array(), unchecked = nlohmann::json::array();
    for (const CheckRun& c : u.checks) checks.push_back(check_json(c));
    for (const Unchecked& x : u.unchecked)
      unchecked.push_back({{"file", x.file}, {"function", x.function}, {"reason", x.reason}});
    units.push_back({{"name", u.name}, {"subject", u.subject}, {"author", u.author},
                     {"files", u.files}, {"status", u.status},
                     {"verdict", verdict_word(u.status)}, {"checks", checks},
                     {"unchecked", unchecked}});
  }
  return {{"diffsched_check_patch", 1}, {"version", r.version}, {"patch", r.patch},
          {"form", r.form}, {"tree", r.tree}, {"base", r.base}, {"notes", r.notes},
          {"work", r.work}, {"status", r.status}, {"verdict", verdict_word(r.status)},
          {"error", r.error}, {"units", units}};
}

}  // namespace

std::string format_report(const Report& r, Format f) {
  switch (f) {
    case Format::kKtap: return format_ktap(r);
    case Format::kMail: return format_text(r, true);
    case Format::kJson:
      return report_json(r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case Format::kText: break;
  }
  return format_text(r, false);
}

std::string format_listing(const Series& s, const std::string& name) {
  std::string out = fmt::format("patch: {} ({}, {} patch{})\n", name, s.form, s.patches.size(),
                                s.patches.size() == 1 ? "" : "es");
  for (std::size_t k = 0; k < s.patches.size(); ++k) {
    const Patch& p = s.patches[k];
    out += fmt::format("\n[patch-{}] {}\n", k + 1, p.subject.empty() ? "(a plain diff)" : p.subject);
    if (!p.author.empty()) out += fmt::format("  author: {}\n", p.author);
    if (!p.base_commit.empty()) out += fmt::format("  base-commit: {}\n", p.base_commit);
    for (const FileDiff& f : p.files) {
      std::vector<std::string> names;
      for (const Hunk& h : f.hunks)
        for (std::string n : hunk_functions(h)) {
          if (n.empty()) n = "(file scope)";
          if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
        }
      std::string joined;
      for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
      out += fmt::format("  {}{}: {} hunk{}; functions: {}\n", f.path(),
                         f.is_new ? " (new)" : f.is_deleted ? " (deleted)" : "", f.hunks.size(),
                         f.hunks.size() == 1 ? "" : "s", joined.empty() ? "-" : joined);
    }
  }
  return out;
}

std::string format_b4(const Report& r) {
  auto status = [](int s) { return s == kExitOk ? "pass" : s == kExitFinding ? "fail" : "warn"; };
  nlohmann::json out = nlohmann::json::array();
  if (!r.error.empty())
    out.push_back({{"tool", "diffsched"}, {"status", "warn"},
                   {"summary", "could not check: " + r.error}, {"details", format_text(r, false)}});
  for (const Unit& u : r.units) {
    Report one = r;
    one.units = {u};
    one.status = u.status;
    out.push_back({{"tool", "diffsched"}, {"status", status(u.status)},
                   {"summary", fmt::format("{}: {} ({} checked, {} not checked)", u.name,
                                           verdict_word(u.status), u.checks.size(), u.unchecked.size())},
                   {"details", format_text(one, false)}});
  }
  return out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace diffsched::patch
