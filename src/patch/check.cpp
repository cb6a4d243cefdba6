// patch::check_patch: stage, route, run the checks, one report (check.h).
#include <algorithm>
#include <map>
#include <chrono>
#include <optional>
#include <cstdlib>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/exit_status.h"
#include "engine/verdict.h"
#include "kcheck/options.h"
#include "patch/apply.h"
#include "patch/check.h"
#include "patch/patch.h"
#include "patch/workdir.h"
#include "subject_tools.h"
#include "tools/process.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::patch {

namespace {

// Which check takes a file, by its path in the tree: the descriptors'
// (SubjectTool::tree_file).
struct Route {
  std::string_view file;
  const SubjectTool* tool;
  bool whole_file;  // true: one run checks the file; false: one run per changed function
};
std::optional<Route> route_of(const std::string& path) {
  for (const SubjectTool* t : kSubjectTools)
    if (path == t->tree_file) return Route{t->tree_file, t, t->patch_whole_file};
  return std::nullopt;
}

constexpr std::string_view kFnMissing =
    "diffsched fn is not available for this function yet";
constexpr std::string_view kFileScope = "(file scope)";

// The functions the hunks of `f` change: '-' lines looked up in the base
// text, '+' lines in the patched text; in first-seen order.
std::vector<std::string> changed_functions(const FileDiff& f, const std::string& base,
                                           const std::string& patched) {
  std::vector<std::size_t> old_lines, new_lines;
  for (const Hunk& h : f.hunks) {
    std::size_t o = h.old_start, n = h.new_start;
    for (const std::string& l : h.lines) {
      const char c = l.empty() ? ' ' : l[0];
      // A blank line changed changes no function: counted, not looked up.
      const bool blank = l.find_first_not_of(" \t", 1) == std::string::npos;
      if (c == '-' && !blank) old_lines.push_back(o);
      if (c == '+' && !blank) new_lines.push_back(n);
      if (c == '-') ++o;
      else if (c == '+') ++n;
      else if (c == ' ') ++o, ++n;
    }
  }
  std::vector<std::string> names;
  auto add = [&](const std::vector<std::string>& found) {
    for (const std::string& s : found) {
      const std::string name = s.empty() ? std::string(kFileScope) : s;
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  };
  add(enclosing_functions(base, old_lines));
  add(enclosing_functions(patched, new_lines));
  return names;
}

// The declaration of `function` in `text` up to its body, spaces folded.
std::string declaration_of(const std::string& text, const std::string& function) {
  for (std::size_t at = text.find(function + "("); at != std::string::npos;
       at = text.find(function + "(", at + 1)) {
    const std::size_t line = text.rfind('\n', at) + 1;  // npos + 1 == 0
    const std::size_t body = text.find('{', at);
    const std::size_t semi = text.find(';', at);
    if (body == std::string::npos || (semi != std::string::npos && semi < body)) continue;
    if (line != at && text[line] == ' ') continue;
    std::string d;
    for (char c : text.substr(line, body - line)) {
      if (c == '\n' || c == '\t') c = ' ';
      if (c == ' ' && (d.empty() || d.back() == ' ')) continue;
      d += c;
    }
    return d;
  }
  return {};
}

// A destination pick, as kernel-check pick takes it: int F(three cpumask pointers).
bool is_pick_shaped(const std::string& text, const std::string& function) {
  const std::string d = declaration_of(text, function);
  std::size_t masks = 0;
  for (std::size_t at = d.find("struct cpumask *"); at != std::string::npos;
       at = d.find("struct cpumask *", at + 1))
    ++masks;
  const std::size_t commas = static_cast<std::size_t>(std::count(d.begin(), d.end(), ','));
  return (d.starts_with("int ") || d.starts_with("static int ")) && masks == 3 && commas == 2;
}

// What a kernel-check verdict file says, into `run`; false if it is not one.
bool read_verdict(const fs::path& file, CheckRun* run) {
  const nlohmann::json j = nlohmann::json::parse(util::read_text(file), nullptr, false);
  if (!j.is_object() || !j.contains("exit") || !j["exit"].is_number_integer()) return false;
  run->status = j.value("exit", 2);
  run->verdict = j.value("verdict", "error");
  run->kind = j.value("kind", "");
  run->signature = j.value("signature", "");
  run->detail = j.value("detail", "");
  run->reproducer = j.value("reproducer", "");
  run->found_in = j.value("found_in", "");
  run->seconds = j.value("seconds", 0.0);
  run->programs = j.value("programs", std::uint64_t{0});
  run->ops = j.value("ops", std::uint64_t{0});
  run->executions = j.value("executions", std::uint64_t{0});
  if (j.contains("forms") && j["forms"].is_string()) run->forms = j["forms"].get<std::string>();
  if (j.contains("forms") && j["forms"].is_array())
    for (const auto& f : j["forms"])
      if (f.is_string()) run->forms += (run->forms.empty() ? "" : "; ") + f.get<std::string>();
  return true;
}

// The last non-empty line of a log, shown to a person (never judged).
std::string last_line(const std::string& log) {
  std::string t = util::read_text(log);
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  const auto nl = t.rfind('\n');
  t = nl == std::string::npos ? t : t.substr(nl + 1);
  return t.size() > 200 ? t.substr(0, 200) + "..." : t;
}

struct Context {
  const CheckPatchOptions& o;
  const Staged& staged;
  ChecksDir checks;  // work/checks
};

// One `diffsched kernel-check` child: base -> baseline, patched -> candidate;
// or a stage of that check: "exhaustive", the same pair with --exhaustive
// at the subject's default bounds instead of the seeds and random programs
// (no fuzzing); "in-kernel", the patched file in the booted kernel against
// the same file in the shim (kernel-check --in-kernel takes no baseline).
CheckRun run_kernel_check(const Context& c, const Route& r, const std::string& id,
                          const std::string& file, const fs::path& base, std::size_t to,
                          const std::string& function, Stage stage = Stage::kCheck) {
  const bool in_kernel = stage == Stage::kInKernel, exhaustive = stage == Stage::kExhaustive;
  CheckRun run;
  run.subject = std::string(r.tool->name);
  run.file = file;
  run.function = function;
  run.stage = stage;
  run.time = stage == Stage::kCheck ? c.o.time : 0;
  run.runs = stage == Stage::kCheck ? c.o.runs : 0;
  run.nr_cpus = c.o.nr_cpus;
  run.level = std::string(level_name(r.tool->default_level));
  tools::KernelCheckOptions k;
  k.tool = r.tool;
  k.candidate = (c.staged.state(to) / file).string();
  std::error_code ec;
  // A new file: the built-in reference.
  if (fs::exists(base, ec) && !in_kernel) k.baseline = base.string();
  if (!function.empty()) k.function = function;
  k.in_kernel = in_kernel;
  if (in_kernel) {  // its own count of random programs; no fuzzing, no harness
    k.nr_cpus = c.o.nr_cpus;
  } else if (exhaustive) {  // every program within the bounds: no nr_cpus, runs or fuzzing
    k.exhaustive.assign(r.tool->equiv_bounds.begin(), r.tool->equiv_bounds.end());
    k.time = 0;
  } else {
    k.nr_cpus = c.o.nr_cpus;
    k.time = c.o.time;
    k.runs = c.o.runs;
    k.runs_given = true;
  }
  if (!in_kernel) {
    k.harness = c.o.harness;
    k.no_build = c.o.no_build;
  }
  k.work_dir = c.checks.kernel_check(id).string();
  k.verdict_json = c.checks.verdict(id).string();
  k.output = c.checks.minimized(id).string();
  std::vector<std::string> argv = tools::cli_args(k);
  run.command = c.o.self_command + " " + util::shell_join(argv);
  argv.insert(argv.begin(), c.o.self.string());
  run.log = c.checks.log(id).string();
  // The fuzzing, the property run, minimisation and the watchdogs' slack,
  // and a first build of the harness (fuzz preset: minutes on a busy machine).
  const double deadline = c.o.time + c.o.runs / 100.0 + 1800 + (stage == Stage::kCheck ? 0 : 1800);
  const int rc = tools::run({.argv = argv, .log = run.log, .new_process_group = true,
                             .deadline = deadline, .stdin_null = true});
  const bool read = read_verdict(k.verdict_json, &run);
  // The forms name the staged copies (removed after a clean run): the
  // tree's paths instead, patched and base (state-N/ dropped).
  const fs::path base_rel = base.lexically_relative(c.staged.root);
  const std::string base_shown =
      fs::path(base_rel.string().substr(base_rel.begin()->string().size() + 1)).string() + " (base)";
  for (const auto& [staged, shown] : {std::pair{k.candidate, file + " (patched)"},
                                      std::pair{base.string(), base_shown}})
    for (std::size_t at; (at = run.forms.find(staged)) != std::string::npos;)
      run.forms.replace(at, staged.size(), shown);
  if (!read) {
    run.status = kExitBadInput;
    run.verdict = "error";
    run.detail = rc == tools::kExitTimedOut
                     ? fmt::format("kernel-check ran out of its {:.0f} s deadline", deadline)
                     : fmt::format("kernel-check wrote no verdict (exit {}; its last line: {}); its "
                                   "output: {}",
                                   rc, last_line(run.log), run.log);
    return run;
  }
  if (rc != run.status) {
    // The record and the process disagree (it ended after writing it):
    // neither is trusted.
    run.detail = fmt::format("kernel-check exited {} but its verdict file says {} (exit {}); its "
                             "output: {}", rc, run.verdict, run.status, run.log);
    run.status = kExitBadInput;
    run.verdict = "error";
    return run;
  }
  if (run.verdict == "error" && run.detail.empty()) run.detail = fmt::format("see {}", run.log);
  if (!run.reproducer.empty() && fs::exists(run.reproducer, ec)) {
    run.trace = util::read_text(run.reproducer);
    std::vector<std::string> replay = tools::replay_args(k, run.reproducer, false);
    if (in_kernel) replay.insert(replay.end() - 2, "--in-kernel");
    run.replay = c.o.self_command + " " + util::shell_join(replay);
  }
  return run;
}

// The checks of the change from state `from` to state `to`, for `files`.
// The change as applied (`diff -u -N` of the two states): its hunks carry
// the line numbers of this tree, where the patch's own may be offset.
std::optional<FileDiff> applied_diff(const Context& c, const fs::path& base, const fs::path& patched,
                                     const std::string& path) {
  const fs::path out = c.checks.applied_diff();
  const int rc = tools::run({.argv = {"diff", "-u", "-N", "--label", "a/" + path, "--label", "b/" + path,
                                      base.string(), patched.string()},
                             .log = out, .deadline = 60, .stdin_null = true});
  if (rc != 0 && rc != 1) return std::nullopt;
  if (rc == 0) return FileDiff{};  // the same text: nothing changed
  const Parsed p = parse_patch(util::read_text(out));
  if (!p.ok() || p.series.patches.empty() || p.series.patches[0].files.empty()) return std::nullopt;
  return p.series.patches[0].files[0];
}

// Each file diff with the state its patch leaves (k: patch k of the series).
using Touched = std::vector<std::pair<const FileDiff*, std::size_t>>;

Unit check_unit(const Context& c, const FnCheck& fn, const std::string& name,
                const Touched& files, std::size_t from, std::size_t to) {
  Unit u;
  u.name = name;
  for (const auto& [f, k] : files) {
    const std::string path = f->path();
    if (std::find(u.files.begin(), u.files.end(), path) == u.files.end()) u.files.push_back(path);
  }
  // A renamed or copied file's base is its old path (the first rename wins).
  std::map<std::string, std::string> base_of;
  for (const auto& [f, k] : files)
    if (f->is_rename || f->is_copy) base_of.try_emplace(f->new_path, f->old_path);
  for (const std::string& path : u.files) {
    const std::string base_rel = base_of.count(path) ? base_of.at(path) : path;
    const fs::path base = c.staged.state(from) / base_rel, patched = c.staged.state(to) / path;
    const std::string base_text = util::read_text(base), patched_text = util::read_text(patched);
    std::vector<std::string> functions;
    auto add = [&](const std::vector<std::string>& names) {
      for (const std::string& s : names)
        if (std::find(functions.begin(), functions.end(), s) == functions.end()) functions.push_back(s);
    };
    if (const std::optional<FileDiff> d = applied_diff(c, base, patched, path)) {
      add(changed_functions(*d, base_text, patched_text));
    } else {
      // diff could not run: the patch's own hunks, each on its patch's states.
      for (const auto& [f, k] : files)
        if (f->path() == path)
          add(changed_functions(*f, util::read_text(c.staged.state(k - 1) / f->old_path),
                                util::read_text(c.staged.state(k) / f->path())));
    }
    std::error_code ec;
    const std::optional<Route> route = c.o.fn_only ? std::nullopt : route_of(path);
    const Route* r = route ? &*route : nullptr;
    if (!fs::exists(patched, ec)) {
      u.unchecked.push_back({path, "", "the patch deletes the file"});
      continue;
    }
    if (functions.empty()) {  // a rename, copy or mode change alone
      u.unchecked.push_back({path, "", base_rel != path
                                           ? fmt::format("renamed or copied from {}; no line changed", base_rel)
                                           : "no line changed (a mode change)"});
      continue;
    }
    // kernel-check, and its stages: --exhaustive, --in-kernel.
    const auto kernel_checks = [&](const std::string& id, const std::string& function,
                                   const std::vector<std::string>& covers) {
      CheckRun run = run_kernel_check(c, *r, id, path, base, to, function);
      run.functions = covers;
      for (const Stage stage : {Stage::kExhaustive, Stage::kInKernel}) {
        if (!(stage == Stage::kExhaustive ? c.o.exhaustive : c.o.in_kernel)) continue;
        run.stages.push_back(run_kernel_check(c, *r, fmt::format("{}-{}", id, stage_name(stage)), path,
                                              base, to, function, stage));
        run.stages.back().functions = covers;
      }
      u.checks.push_back(std::move(run));
    };
    if (r && r->whole_file) {
      kernel_checks(fmt::format("{}-{}", name, r->tool->name), "", functions);
      continue;
    }
    for (const std::string& function : functions) {
      if (function == kFileScope) {
        u.unchecked.push_back({path, function, "a change outside any function (declarations, macros)"});
        continue;
      }
      if (r && is_pick_shaped(patched_text, function) && is_pick_shaped(base_text, function)) {
        kernel_checks(fmt::format("{}-{}-{}", name, r->tool->name, function), function, {function});
        continue;
      }
      CheckRun run;
      std::string why = std::string(kFnMissing);
      const FnCall call{base, patched, path, function, c.checks.fn(name, function).dir};
      if (fn && fn(call, &run, &why)) {
        if (c.o.exhaustive) {  // fn --exhaustive beside it; one it refuses is a skipped stage
          FnCall all = call;
          all.work = FnCheckDir{call.work}.exhaustive().dir;
          all.exhaustive = true;
          CheckRun stage;
          std::string refused;
          if (!fn(all, &stage, &refused)) stage = {.tool = "fn", .subject = "fn", .file = path,
                                                   .function = function, .skip = refused};
          stage.stage = Stage::kExhaustive;
          run.stages.push_back(std::move(stage));
        }
        u.checks.push_back(std::move(run));
        continue;
      }
      if (r) why = fmt::format("kernel-check {} takes only a destination pick, int F(const struct "
                               "cpumask *, const struct cpumask *, const struct cpumask *), and {} "
                               "has another signature; {}",
                               r->tool->name, function, why);
      u.unchecked.push_back({path, function, why});
    }
  }
  // The worst status; anything not checked is at least "no verdict".
  int status = kExitOk;
  for (const CheckRun& run : u.checks) status = worse_status(status, check_status(run));
  if (!u.unchecked.empty() || u.checks.empty()) status = worse_status(status, kExitOutOfDomain);
  u.status = status;
  return u;
}

// What `diffsched fn --verdict-json` wrote, into `run`; false if it is not one.
// False without a verdict; then *error is fn's one error line, if it wrote one.
bool read_fn_verdict(const fs::path& file, CheckRun* run, std::string* error) {
  const nlohmann::json j = nlohmann::json::parse(util::read_text(file), nullptr, false);
  if (!j.is_object() || !j.contains("verdict") || !j["verdict"].is_string()) return false;
  const std::string v = j["verdict"];
  if (v == "error") {
    *error = j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "";
    return false;
  }
  run->verdict = v == "finding" ? "finding" : "equivalent";
  run->status = v == "finding" ? kExitFinding : kExitOk;
  run->level = j.value("level", "exact");
  run->inputs = j.value("inputs", std::uint64_t{0});
  run->compared = j.value("compared", std::uint64_t{0});
  if (j.contains("fuzz") && j["fuzz"].is_object() && j["fuzz"].contains("runs") && j["fuzz"]["runs"].is_number_unsigned())
    run->fuzzed = j["fuzz"]["runs"].get<std::uint64_t>();
  if (j.contains("shim_era") && j["shim_era"].is_string()) run->era = j["shim_era"].get<std::string>();
  run->detail = j.value("detail", j.value("weaker", ""));
  if (v == "intended") run->detail = "only the differences the spec declares intended";
  if (v == "finding") {
    run->kind = "fn";
    run->signature = fmt::format("fn:{}:{}", run->function, run->detail == "perf" ? "perf" : "differ");
  }
  if (j.contains("first_divergence") && j["first_divergence"].is_object()) {
    const auto& d = j["first_divergence"];
    run->trace = "input: " + d.value("input", "");
    run->replay = d.value("replay", "");
  }
  if (j.contains("minimized") && j["minimized"].is_object())  // the finding's input made smaller
    run->trace = "input (minimised): " + j["minimized"].value("input", "");
  return true;
}

}  // namespace

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::kExhaustive: return "exhaustive";
    case Stage::kInKernel: return "in-kernel";
    case Stage::kCheck: break;
  }
  return "";
}

int check_status(const CheckRun& c) {
  int status = c.skip.empty() ? c.status : kExitOutOfDomain;
  for (const CheckRun& s : c.stages) status = worse_status(status, check_status(s));
  return status;
}

FnCheck fn_child(const CheckPatchOptions& o) {
  return [o](const FnCall& call, CheckRun* run, std::string* why) {
    run->tool = "fn";
    run->subject = "fn";
    run->file = call.file;
    run->function = call.function;
    run->functions = {call.function};
    run->runs = o.runs;
    run->nr_cpus = o.nr_cpus;
    std::error_code ec;
    fs::create_directories(call.work, ec);
    const FnCheckDir dir{call.work};
    const fs::path verdict = dir.verdict();
    std::vector<std::string> argv = {"fn", "--old", call.base.string(), "--new", call.patched.string(),
                                     "--function", call.function, "--verdict-json", verdict.string()};
    if (call.exhaustive) {
      argv.emplace_back("--exhaustive");
      run->runs = 0;
    } else {
      argv.insert(argv.end(), {"--runs", std::to_string(o.runs)});
      if (o.nr_cpus.size() == 1) argv.insert(argv.end(), {"--nr-cpus", std::to_string(o.nr_cpus[0])});
    }
    argv.insert(argv.end(), o.fn_args.begin(), o.fn_args.end());
    run->command = o.self_command + " " + util::shell_join(argv);
    argv.insert(argv.begin(), o.self.string());
    run->log = dir.log().string();
    // Two harness builds (clang, ASan) and the inputs: far below this here;
    // with --fuzz S, fn's own bound for its fuzzer (S + 240 s) on top.
    const double deadline = 600 + o.runs / 10.0 + (o.fn_fuzz_seconds ? o.fn_fuzz_seconds + 240.0 : 0.0);
    const auto t = std::chrono::steady_clock::now();
    const int rc = tools::run({.argv = argv, .log = run->log, .new_process_group = true,
                               .deadline = deadline, .stdin_null = true});
    run->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    if (std::string error; !read_fn_verdict(verdict, run, &error)) {
      if (rc == kExitBadInput) {  // fn cannot take it: no verdict, with fn's reason (whole)
        *why = fmt::format("diffsched fn cannot check it: {}", error.empty() ? last_line(run->log) : error);
        return false;
      }
      run->status = kExitBadInput;
      run->verdict = "error";
      run->detail = rc == tools::kExitTimedOut
                        ? fmt::format("fn ran out of its {:.0f} s deadline", deadline)
                        : fmt::format("fn wrote no verdict (exit {}); its output: {}", rc, run->log);
      return true;
    }
    if (rc != run->status) {
      run->detail = fmt::format("fn exited {} but its verdict file says {}; its output: {}", rc,
                                run->verdict, run->log);
      run->status = kExitBadInput;
      run->verdict = "error";
    }
    return true;
  };
}

namespace {

// A new, empty work directory: the user's (refused unless new or empty), or a temporary one.
std::string make_work(const CheckPatchOptions& o, fs::path* out) {
  std::error_code ec;
  if (!o.work_dir.empty()) {
    if (fs::exists(o.work_dir, ec) && !(fs::is_directory(o.work_dir, ec) && fs::is_empty(o.work_dir, ec)))
      return fmt::format("the work directory {} exists and is not empty", o.work_dir.string());
    fs::create_directories(o.work_dir, ec);
    if (ec) return fmt::format("cannot create {}: {}", o.work_dir.string(), ec.message());
    *out = fs::absolute(o.work_dir);
    return {};
  }
  const fs::path templ = util::temp_template(WorkDir::kTemplate);
  *out = util::make_dir_from_template(templ);
  if (out->empty()) return fmt::format("cannot create a temporary directory {}", templ.string());
  return {};
}

}  // namespace

Report check_patch(const CheckPatchOptions& o, const FnCheck& fn) {
  tools::stop_children_on_signal();  // SIGINT/SIGTERM: a running kernel-check goes too
  Report r;
  r.patch = o.patch == "-" ? "standard input" : o.patch;
  r.tree = o.tree.string();
  r.version = o.version;
  const Parsed parsed = read_patch_file(o.patch);
  if (!parsed.ok()) {
    r.error = parsed.error;
    return r;
  }
  r.form = parsed.series.form;
  std::error_code ec;
  if (!fs::is_directory(o.tree, ec)) {
    r.error = fmt::format("the tree {} is not a directory", o.tree.string());
    return r;
  }
  fs::path work;
  if (std::string e = make_work(o, &work); !e.empty()) {
    r.error = e;
    return r;
  }
  Staged staged;
  const std::string staged_error =
      stage(parsed.series, {.tree = fs::absolute(o.tree), .base = o.base, .root = WorkDir{work}.states().dir}, &staged);
  r.base = staged.base_desc;
  r.notes = staged.notes;
  r.work = work.string();
  if (!staged_error.empty()) {
    r.error = staged_error;
    if (o.work_dir.empty()) fs::remove_all(work, ec), r.work.clear();
    return r;
  }
  const Context c{o, staged, WorkDir{work}.checks()};
  fs::create_directories(c.checks.dir, ec);
  const auto& patches = parsed.series.patches;
  Touched all;
  for (std::size_t k = 0; k < patches.size(); ++k) {
    Touched files;
    for (const FileDiff& f : patches[k].files) files.emplace_back(&f, k + 1), all.emplace_back(&f, k + 1);
    Unit u = check_unit(c, fn, fmt::format("patch-{}", k + 1), files, k, k + 1);
    u.subject = patches[k].subject;
    u.author = patches[k].author;
    r.units.push_back(std::move(u));
  }
  if (patches.size() > 1) {
    Unit u = check_unit(c, fn, "series", all, 0, patches.size());
    u.subject = fmt::format("the series of {} patches as a whole", patches.size());
    r.units.push_back(std::move(u));
  }
  r.status = kExitOk;
  for (const Unit& u : r.units) r.status = worse_status(r.status, u.status);
  // The states and the checks' files stay for a finding or an error (its
  // replay command names them); a clean run's temporary directory goes.
  bool replayable = false;
  for (const Unit& u : r.units)
    for (const CheckRun& run : u.checks) replayable = replayable || !run.replay.empty();
  if (o.work_dir.empty() && !replayable && (r.status == kExitOk || r.status == kExitOutOfDomain)) {
    fs::remove_all(work, ec);
    r.work.clear();
  }
  return r;
}

}  // namespace diffsched::patch
