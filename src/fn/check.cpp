// diffsched fn: the run (check.h): extract, lay out, build, run, compare.
#include <array>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "fn/check.h"
#include "fn/era.h"
#include "fn/exhaustive.h"
#include "fn/fuzz.h"
#include "fn/input_tree.h"
#include "fn/minimize.h"
#include "fn/minimize_run.h"
#include "fn/sides.h"
#include "fn/workdir.h"
#include "fn/worst.h"
#include "tools/process.h"
#include "util/temp_dir.h"
#include "util/text.h"

namespace diffsched::fn {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kOk = 0, kFinding = 1, kBad = 2, kOutOfDomain = 3;

std::string g_last_error;  // last_fn_error()

int bad(const std::string& message) {
  fmt::print(stderr, "diffsched: error: {}\n", message);
  g_last_error = message;
  return kBad;
}

// `diffsched fn --old A --new B --function F --level L [--spec S]`, quoted.
std::string base_command(const FnOptions& o) {
  std::string c = fmt::format("{} fn --old {} --new {}", o.replay_prefix, util::shell_quote(o.old_file),
                              util::shell_quote(o.new_file));
  if (o.old_function == o.new_function)
    c += " --function " + util::shell_quote(o.old_function);
  else
    c += fmt::format(" --old-function {} --new-function {}", util::shell_quote(o.old_function),
                     util::shell_quote(o.new_function));
  c += fmt::format(" --level {}", o.level.empty() ? "exact" : o.level);
  if (!o.spec_file.empty()) c += " --spec " + util::shell_quote(o.spec_file);
  for (const std::string& k : o.config) c += " --config " + util::shell_quote(k);
  if (!o.kernel_version.empty()) c += " --kernel-version " + o.kernel_version;
  return c;
}

// Replays one call given as text (the minimised input, or --input's).
std::string replay_input_command(const FnOptions& o, const Layout& layout, const Input& input) {
  return base_command(o) + " --input " + util::shell_quote(show_input(layout, input));
}

// Regenerates the first `runs` inputs of the seed (an exhaustive run: input
// k's own text).
std::string replay_command(const FnOptions& o, std::uint64_t runs, const Layout& layout,
                           const std::vector<Input>& inputs) {
  // an input of --exhaustive or --search-worst: not the seed's
  if (o.exhaustive || runs > o.runs) return replay_input_command(o, layout, inputs[runs - 1]);
  std::string c = base_command(o) + fmt::format(" --seed {} --runs {}", o.seed, runs);
  if (o.nr_cpus) c += fmt::format(" --nr-cpus {}", o.nr_cpus);
  return c;
}

struct Outcome {
  std::size_t compared = 0;          // inputs compared
  long first = -1;                   // the first input that differs at the level
  long first_exact = -1;             // the first that differs at exact
  FnLevel strongest = FnLevel::kExact;  // every input compared is equal at this level
  bool all_multiset = true;
  std::size_t intended = 0;          // inputs that differ only in the spec's intended rows
  long first_intended = -1;
};

Outcome compare_all(const Layout& layout, const std::vector<Observation>& a,
                    const std::vector<Observation>& b, FnLevel level) {
  Outcome r;
  bool all_sorted = true;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!a[k].run || !b[k].run) break;
    ++r.compared;
    const bool but = !layout.intended.empty();  // the intended rows are left out of all below
    const bool exact = equal_at(layout, a[k], b[k], FnLevel::kExact, but);
    if (!exact && r.first_exact < 0) r.first_exact = static_cast<long>(k);
    if (!exact) {
      all_sorted = all_sorted && equal_at(layout, a[k], b[k], FnLevel::kSorted, but);
      r.all_multiset = r.all_multiset && equal_at(layout, a[k], b[k], FnLevel::kMultiset, but);
    }
    const bool same = equal_at(layout, a[k], b[k], level, but);
    if (r.first < 0 && !same) r.first = static_cast<long>(k);
    if (but && same && !equal_at(layout, a[k], b[k], level)) {
      if (r.first_intended < 0) r.first_intended = static_cast<long>(k);
      ++r.intended;
    }
    if (a[k].fault || b[k].fault) break;  // nothing after a fault is compared
  }
  r.strongest = r.first_exact < 0 ? FnLevel::kExact
                : all_sorted      ? FnLevel::kSorted
                                  : FnLevel::kMultiset;
  return r;
}

// What the harness counts per call, never compared at any level: the
// callbacks' calls ("cost" in a record) and the memory operations of the
// call itself ("mem": its loads and stores, the shim's runtime included).
// A perf finding is an input where new's count is above the option's
// multiple of old's (an old count of 0 counts as 1), the results agreeing.
struct Metric {
  const char* key;   // in each record and in the JSON verdict
  const char* what;  // in the text
  double FnOptions::*limit;
  const char* flag;
};
constexpr std::array<Metric, 2> kMetrics{{
    {"cost", "callback calls", &FnOptions::max_cost_ratio, "--max-cost-ratio"},
    {"mem", "memory operations", &FnOptions::max_mem_ratio, "--max-mem-ratio"},
}};

// A metric over both sides' inputs compared, and the input where new's
// count is the largest multiple of old's.
struct Cost {
  bool counted = false;
  std::uint64_t old_total = 0, new_total = 0;
  long worst = -1;  // the input of the largest ratio
  std::uint64_t worst_old = 0, worst_new = 0;
  static double of(std::uint64_t o, std::uint64_t n) {  // new/old: 1 if equal, new/1 if old is 0
    return o == n ? 1.0 : static_cast<double>(n) / static_cast<double>(std::max<std::uint64_t>(o, 1)); }
  double ratio() const { return of(worst_old, worst_new); }
  static std::string text(std::uint64_t o, std::uint64_t n) {  // "1.20x", or "old makes none"
    return o == 0 && n > 0 ? "old makes none" : fmt::format("{:.2f}x", of(o, n)); }
};

// The metric's count of one observation (false: not counted, or a fault).
bool count_of(const Observation& o, const Metric& m, std::uint64_t* n) { return cost_count(o, m.key, n); }

// new's count above `limit` times old's (an old count of 0 counts as 1).
bool above(std::uint64_t old_count, std::uint64_t new_count, double limit) {
  return static_cast<double>(new_count) > limit * static_cast<double>(std::max<std::uint64_t>(old_count, 1));
}

Cost cost_of(const std::vector<Observation>& a, const std::vector<Observation>& b, std::size_t compared,
             const Metric& m) {
  Cost c;
  for (std::size_t k = 0; k < compared; ++k) {
    std::uint64_t x = 0, y = 0;
    if (!count_of(a[k], m, &x) || !count_of(b[k], m, &y)) continue;
    c.counted = true;
    c.old_total += x;
    c.new_total += y;
    if (c.worst < 0 || larger_ratio(x, y, c.worst_old, c.worst_new)) {
      c.worst = static_cast<long>(k);
      c.worst_old = x;
      c.worst_new = y;
    }
  }
  return c;
}

// Makes a perf finding's input smaller, keeping new above the limit.
using PerfShrink = std::function<Minimized(std::size_t, const Metric&, double)>;

// The metric's line (appended to *lines), and a perf finding's block (exit
// 1) when its limit is exceeded on some input, minimised; "" when nothing
// was counted or nothing is above the limit.
std::string cost_text(const FnOptions& o, const Layout& layout, const std::vector<Input>& inputs,
                      const Cost& c, const Metric& m, const PerfShrink& shrink, json* j, int* status,
                      std::string* lines) {
  if (!c.counted) return "";
  const auto k = static_cast<std::size_t>(c.worst);
  (*j)[m.key] = {{"old", c.old_total}, {"new", c.new_total}, {"worst_input", k},
                 {"worst_old", c.worst_old}, {"worst_new", c.worst_new}, {"worst_ratio", c.ratio()}};
  *lines += fmt::format(
      "cost ({}): old {}, new {} in all ({}); the most for new: input {}, old {}, new {} ({})\n", m.what,
      c.old_total, c.new_total, Cost::text(c.old_total, c.new_total), k, c.worst_old, c.worst_new,
      Cost::text(c.worst_old, c.worst_new));
  const double limit = o.*m.limit;
  if (*status != kOk || limit <= 0 || !above(c.worst_old, c.worst_new, limit)) return "";
  const Minimized mm = shrink(k, m, limit);
  std::uint64_t x = c.worst_old, y = c.worst_new;
  count_of(mm.old_obs, m, &x);
  count_of(mm.new_obs, m, &y);
  std::string text = fmt::format("perf: input {}\n  input: {}\n", k, show_input(layout, inputs[k]));
  if (mm.rounds > 0)
    text += fmt::format("minimised ({} round{}, {} candidates run, new still above {}x old):\n  input: {}\n",
                        mm.rounds, mm.rounds == 1 ? "" : "s", mm.tried, limit, show_input(layout, mm.input));
  text += fmt::format("replay: {} {} {}\n", replay_input_command(o, layout, mm.input), m.flag, limit);
  text += fmt::format("verdict: finding: perf: new makes {} {} where old makes {} ({:.2f}x > {}) on input {}{}\n",
                      y, m.what, x, static_cast<double>(y) / static_cast<double>(std::max<std::uint64_t>(x, 1)),
                      limit, k, mm.rounds > 0 ? ", minimised" : "");
  (*j)["verdict"] = "finding";
  (*j)["detail"] = "perf";
  (*j)["perf"] = {{"metric", m.key}, {"input", show_input(layout, mm.input)}, {"old", x}, {"new", y},
                  {"rounds", mm.rounds}, {"tried", mm.tried}};
  *status = kFinding;
  return text;
}

// --clock: both sides' timing builds over the inputs neither faulted on.
struct Clock {
  bool run = false;
  std::size_t inputs = 0;
  std::uint64_t old_ns = 0, new_ns = 0;
  std::uint64_t old_whole = 0, new_whole = 0;  // the harness's whole work per input
  long worst = -1;  // the input (its index in the run) of new's largest multiple of old's
  std::uint64_t worst_old = 0, worst_new = 0;
};

// Times the inputs both sides ran without a fault; false with *error when a
// timing build does not build or run.
bool run_clock(const FnOptions& o, Side& old_side, Side& new_side, const WorkDir& work,
               const std::vector<Input>& inputs, const std::vector<Observation>& a,
               const std::vector<Observation>& b, Clock* c, std::string* error) {
  std::vector<std::size_t> index;  // timed input -> its index in the run
  std::vector<Input> timed;
  for (std::size_t k = 0; k < inputs.size(); ++k)
    if (a[k].run && !a[k].fault && b[k].run && !b[k].fault) {
      index.push_back(k);
      timed.push_back(inputs[k]);
    }
  if (timed.empty()) return true;
  if (!write_batch(work.clock_inputs().string(), timed)) {
    *error = "cannot write the clock batch file";
    return false;
  }
  std::vector<Observation> x, y;
  for (auto [s, out] : {std::pair{&old_side, &x}, std::pair{&new_side, &y}}) {
    if (!build_side(*s, error, o.clock_reps)) return false;
    Side timing = *s;
    timing.exe = s->clock_exe;
    if (!run_side(timing, work.clock_inputs(), timed.size(), out, error)) return false;
  }
  c->run = true;
  for (std::size_t t = 0; t < timed.size(); ++t) {
    if (!x[t].run || x[t].fault || !y[t].run || y[t].fault || !x[t].record.contains("ns") ||
        !y[t].record.contains("ns"))
      continue;
    const auto p = x[t].record["ns"].get<std::uint64_t>(), q = y[t].record["ns"].get<std::uint64_t>();
    ++c->inputs;
    c->old_ns += p;
    c->new_ns += q;
    c->old_whole += x[t].record.value("whole_ns", std::uint64_t{0});
    c->new_whole += y[t].record.value("whole_ns", std::uint64_t{0});
    if (c->worst < 0 || larger_ratio(p, q, c->worst_old, c->worst_new)) {
      c->worst = static_cast<long>(index[t]);
      c->worst_old = p;
      c->worst_new = q;
    }
  }
  return true;
}

std::string clock_text(const FnOptions& o, const Clock& c, json* j) {
  if (o.clock_reps == 0) return "";
  if (!c.run || c.inputs == 0) {
    (*j)["clock"] = {{"inputs", 0}, {"reps", o.clock_reps}};
    return "clock: not timed (no input that both sides ran without a fault)\n";
  }
  auto ratio = [](std::uint64_t p, std::uint64_t q) {
    return static_cast<double>(q) / static_cast<double>(std::max<std::uint64_t>(p, 1));
  };
  (*j)["clock"] = {{"inputs", c.inputs}, {"reps", o.clock_reps}, {"old_ns", c.old_ns},
                   {"new_ns", c.new_ns}, {"ratio", ratio(c.old_ns, c.new_ns)},
                   {"worst_input", c.worst}, {"worst_old_ns", c.worst_old}, {"worst_new_ns", c.worst_new},
                   {"harness_old_ns", c.old_whole}, {"harness_new_ns", c.new_whole},
                   {"harness_overhead", ratio(c.old_ns + c.new_ns, c.old_whole + c.new_whole)}};
  return fmt::format("clock (-O2 without sanitizers, the least of {} runs of each call, {} inputs): "
                     "old {} ns, new {} ns in all ({:.2f}x); the most for new: input {}, old {} ns, "
                     "new {} ns ({:.2f}x)\nclock, the harness's whole work per input (arguments "
                     "drawn, the call, its record made): old {} ns, new {} ns in all, {:.2f}x the "
                     "calls alone\n",
                     o.clock_reps, c.inputs, c.old_ns, c.new_ns, ratio(c.old_ns, c.new_ns), c.worst,
                     c.worst_old, c.worst_new, ratio(c.worst_old, c.worst_new), c.old_whole,
                     c.new_whole, ratio(c.old_ns + c.new_ns, c.old_whole + c.new_whole));
}

// The verdict, printed; the exit status.
// The first input where the sides differ as intended, side by side.
std::string intended_text(const Layout& layout, const std::vector<Input>& inputs,
                          const std::vector<Observation>& a, const std::vector<Observation>& b,
                          std::size_t k) {
  return fmt::format("first intended difference: input {}\n  input: {}\n{}", k, show_input(layout, inputs[k]),
                     show_observations(layout, a[k], b[k], inputs[k].nr_cpu_ids));
}

// A finding where both sides fault on a CPU-named integer parameter (`cpu`,
// `this_cpu`, ...) outside 0..nr_cpu_ids-1 that no spec line bounds: the
// spec line that says the function takes only CPUs, if it does. "" else.
std::string cpu_hint(const Layout& layout, const Input& input) {
  tree::Tree t;
  if (!tree::decode_input(layout, input, &t)) return {};
  std::size_t at = layout.globals.size();
  for (const Slot& s : layout.params) {
    if (s.is_length) continue;
    const std::size_t k = at++;
    const Node& n = s.node;
    const bool cpu_name = s.name == "cpu" || s.name.ends_with("_cpu");
    if (!cpu_name || n.kind != NodeKind::kScalar || n.is_bool || n.spec.lo || n.spec.hi || k >= t.values.size())
      continue;
    const tree::I128 v = scalar_of(n, t.values[k].scalar);
    if (v >= 0 && v < static_cast<tree::I128>(input.nr_cpu_ids)) continue;
    return fmt::format("hint: `{}` = {} is no CPU at nr_cpu_ids {}: if {}() takes only CPUs there, the "
                       "spec line `param {} range 0 nr_cpu_ids-1` says so\n",
                       s.name, static_cast<long long>(v), input.nr_cpu_ids, layout.function, s.name);
  }
  return {};
}

// The finding's block: the first diverging input, and its minimised form with
// both sides' observations (or the input's own when nothing smaller keeps
// the signature); one replay command that needs no seed.
std::string finding_text(const FnOptions& o, const Layout& layout, FnLevel level, std::size_t k,
                         const Input& input, const Minimized& m, json* j) {
  std::string text = fmt::format("first divergence: input {}\n  input: {}\n", k, show_input(layout, input));
  const std::string replay = replay_input_command(o, layout, m.input);
  if (m.rounds > 0)
    text += fmt::format("minimised ({} round{}, {} candidates run, the same finding `{}`):\n  input: {}\n",
                        m.rounds, m.rounds == 1 ? "" : "s", m.tried, finding_signature(layout, m.old_obs, m.new_obs, level),
                        show_input(layout, m.input));
  text += show_observations(layout, m.old_obs, m.new_obs, m.input.nr_cpu_ids);
  if (m.old_obs.fault && m.new_obs.fault) text += cpu_hint(layout, m.input);
  (*j)["minimized"] = {{"input", show_input(layout, m.input)}, {"rounds", m.rounds}, {"tried", m.tried},
                       {"old", m.old_obs.record}, {"new", m.new_obs.record},
                       {"old_fault", m.old_obs.fault_what}, {"new_fault", m.new_obs.fault_what}};
  (*j)["first_divergence"]["replay"] = replay;
  return text + fmt::format("replay: {}\n", replay);
}

// The bounds of an exhaustive run (exit 2 on a bad --int-range).
bool bounds_of(const FnOptions& o, Bounds* b, std::string* error) {
  b->max_nr_cpus = o.max_nr_cpus;
  b->only_nr_cpus = o.nr_cpus;
  b->max_array_len = o.max_array_len;
  b->max_inputs = o.max_inputs;
  return parse_int_range(o.int_range, b, error);
}

// "seed 1", or "exhaustive: nr_cpu_ids 1..4, ..." (and the bounds in j);
// then what the fuzzer ran (fuzz.h).
std::string run_kind(const FnOptions& o, const FuzzRun& fuzz, json* j) {
  if (o.fuzz_seconds > 0) return fmt::format("seed {}; then {}", o.seed, fuzz_text(o, fuzz, j));
  if (!o.exhaustive) return fmt::format("seed {}", o.seed);
  Bounds b;
  std::string error;
  bounds_of(o, &b, &error);
  (*j)["bounds"] = bounds_json(b);
  (*j)["bounds"]["text"] = bounds_text(b);
  j->erase("seed");
  return "exhaustive: " + bounds_text(b);
}

int report(const FnOptions& o, const Layout& layout, const std::vector<Input>& inputs,
           const std::vector<Observation>& a, const std::vector<Observation>& b, FnLevel level,
           const std::function<Minimized(std::size_t)>& shrink, const PerfShrink& perf_shrink,
           const Clock& clock, const WorstSearch& search, const FuzzRun& fuzz) {
  const Outcome r = compare_all(layout, a, b, level);
  std::string weaker;  // "equivalent at `sorted`, divergent at `exact`"
  if (r.first_exact >= 0 && (r.strongest != FnLevel::kMultiset || r.all_multiset))
    weaker = fmt::format("equivalent at `{}`, divergent at `exact`", level_name(r.strongest));
  json j = {{"function", o.old_function}, {"level", level_name(level)},
            {"inputs", inputs.size()}, {"compared", r.compared}, {"seed", o.seed}};
  const long shown = r.first >= 0 ? r.first : r.first_exact;
  std::string verdict, detail;
  int status = kOk;
  if (r.first >= 0) {
    status = kFinding;
    const Observation &x = a[static_cast<std::size_t>(r.first)], &y = b[static_cast<std::size_t>(r.first)];
    if (x.fault && y.fault)
      detail = fmt::format("both sides fault on input {} (old: {}; new: {})", r.first, x.fault_what, y.fault_what);
    else if (x.fault || y.fault)
      detail = fmt::format("{} faults where {} does not, on input {} ({})", x.fault ? "old" : "new",
                           x.fault ? "new" : "old", r.first, x.fault ? x.fault_what : y.fault_what);
    else
      detail = fmt::format("the sides differ at level `{}` on input {}", level_name(level), r.first);
    verdict = "finding";
  } else if (!fuzz.stopped_on.empty()) {  // never claim more than ran
    status = kFinding;
    detail = fmt::format("the fuzzer stopped on {} (input {}), which the harness processes do not show again",
                         fuzz.stopped_on, o.runs);
    verdict = "finding";
  } else {
    verdict = r.first_exact >= 0 ? weaker : "equivalent";
  }
  j["verdict"] = r.first >= 0 || status == kFinding ? "finding" : r.first_exact >= 0 ? "equivalent-at-" + std::string(level_name(r.strongest)) : o.exhaustive ? "equivalent-within-bounds" : "equivalent";
  std::string declared;  // "`return`, `*s`"
  for (const std::string& row : layout.intended) declared += (declared.empty() ? "`" : ", `") + row + "`";
  if (r.first < 0 && r.first_exact < 0 && r.intended > 0 && status == kOk) {
    verdict = fmt::format("intended: the sides differ only in what the spec declares intended ({}), on {} of {} inputs",
                          declared, r.intended, r.compared);
    j["verdict"] = "intended";
    j["intended_inputs"] = r.intended;
  }
  if (!detail.empty()) j["detail"] = detail;
  if (!weaker.empty()) j["weaker"] = weaker;
  std::string text = fmt::format("diffsched fn: old {} {}(), new {} {}(); {} inputs ({}), level {}\n",
                                 o.old_file, o.old_function, o.new_file, o.new_function,
                                 inputs.size(), run_kind(o, fuzz, &j), level_name(level));
  text += outside_text(layout, &j);
  if (shown >= 0) {
    const auto k = static_cast<std::size_t>(shown);
    const std::string in = show_input(layout, inputs[k]);
    j["first_divergence"] = {{"index", k}, {"input", in}, {"old", a[k].record},
                             {"new", b[k].record}, {"old_fault", a[k].fault_what},
                             {"new_fault", b[k].fault_what},
                             {"replay", replay_command(o, k + 1, layout, inputs)}};
    if (r.first >= 0) {
      text += finding_text(o, layout, level, k, inputs[k], shrink(k), &j);
    } else {
      text += fmt::format("first divergence at `exact`: input {}\n  input: {}\n{}", k, in,
                          show_observations(layout, a[k], b[k], inputs[k].nr_cpu_ids));
      text += fmt::format("replay: {}\n", replay_command(o, k + 1, layout, inputs));
    }
  }
  if (r.first >= 0 && !weaker.empty()) text += "note: " + weaker + "\n";
  std::string perf;  // judged if no other finding: the first metric above its limit
  for (const Metric& m : kMetrics)
    perf += cost_text(o, layout, inputs, cost_of(a, b, r.compared, m), m, perf_shrink, &j, &status, &text);
  text += clock_text(o, clock, &j) + search_text(o, search, &j) + perf;
  if (r.first >= 0 || !detail.empty())
    text += fmt::format("verdict: finding: {}\n", detail);
  else if (status == kFinding)
    ;  // the perf finding's verdict line is cost_text's
  else if (r.first_exact >= 0)
    text += fmt::format("verdict: {} ({} inputs compared{})\n", verdict, r.compared,
                        fuzz.counted ? fmt::format(", and {} fuzzed", fuzz.runs) : "");
  else if (r.intended > 0)
    text += intended_text(layout, inputs, a, b, static_cast<std::size_t>(r.first_intended)) +
            fmt::format("verdict: {}\n", verdict);
  else if (o.exhaustive)
    text += fmt::format("verdict: equivalent within bounds ({} inputs, every one with {}; level {})\n",
                        r.compared, j["bounds"]["text"].get<std::string>(), level_name(level));
  else
    text += fmt::format("verdict: equivalent ({} inputs{}, level {})\n", r.compared,
                        fuzz.counted ? fmt::format(", and {} fuzzed", fuzz.runs) : "", level_name(level));
  if (!o.verdict_json.empty()) {
    std::ofstream out(o.verdict_json, std::ios::binary | std::ios::trunc);
    out << j.dump() << "\n";
    out.flush();
    if (!out) {
      fmt::print(stderr, "diffsched: error: cannot write {}\n", o.verdict_json);
      return kBad;
    }
  }
  if (o.json)
    std::cout << j.dump() << "\n";
  else
    std::cout << text;
  return status;
}

}  // namespace

bool cost_count(const Observation& o, const std::string& key, std::uint64_t* n) {
  if (!o.run || o.fault || !o.record.is_object() || !o.record.contains(key) ||
      !o.record[key].is_number_unsigned())
    return false;
  *n = o.record[key].get<std::uint64_t>();
  return true;
}

const std::string& last_fn_error() { return g_last_error; }

int run_fn(const FnOptions& o) {
  g_last_error.clear();
  Spec spec;
  if (!o.spec_file.empty()) {
    std::ifstream f(o.spec_file);
    if (!f) return bad(fmt::format("cannot read the spec {}", o.spec_file));
    std::stringstream text;
    text << f.rdbuf();
    std::string error;
    if (!parse_spec(text.str(), o.spec_file, &spec, &error)) return bad(error);
  }
  if (std::string error; !add_config_options(o.config, &spec, &error)) return bad(error);
  if (!o.kernel_version.empty()) {
    if (const std::string why = check_fn_kernel_version(o.kernel_version); !why.empty())
      return bad(fmt::format("--kernel-version {}", why));
    if (!spec.kernel.empty() && spec.kernel != o.kernel_version)
      return bad(fmt::format("--kernel-version {}: the spec says `kernel {}`", o.kernel_version, spec.kernel));
    spec.kernel = o.kernel_version;
    spec.kernel_from = "--kernel-version";
  }
  FnLevel level = FnLevel::kExact;
  const std::string level_text = !o.level.empty() ? o.level : spec.level;
  if (!level_text.empty() && !parse_level(level_text, &level))
    return bad(fmt::format("unknown level `{}` (exact, multiset, sorted)", level_text));
  if (Bounds b; o.exhaustive) {
    if (std::string error; !bounds_of(o, &b, &error)) return bad(error);  // before anything is built
  }
  if (o.print_spec) return print_spec(o, spec, level_text);
  const util::TempDir temp(WorkDir::kTemplate);  // removed when the check ends
  const WorkDir work{temp.path};
  if (work.dir.empty()) return bad("cannot make a temporary directory");
  Side old_side{"old", o.old_file, o.old_function, work.side("old").dir};
  Side new_side{"new", o.new_file, o.new_function, work.side("new").dir};
  old_side.runtime_cache = new_side.runtime_cache = work.dir;
  if (std::string error; !prepare_pair(spec, old_side, new_side, &error)) return bad(error);
  std::vector<Input> inputs;
  if (!o.input.empty() || !o.replay_file.empty()) {  // one call, given as text
    std::string text = o.input;
    if (!o.replay_file.empty()) {
      std::ifstream f(o.replay_file);
      if (!f) return bad(fmt::format("cannot read the input {}", o.replay_file));
      std::stringstream all;
      all << f.rdbuf();
      text = all.str();
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    }
    Input in;
    bool outside = false;
    if (std::string error; !parse_input(old_side.layout, text, &in, &error, &outside)) {
      bad(fmt::format("{}: {}", o.replay_file.empty() ? "--input" : o.replay_file, error));
      return outside ? kOutOfDomain : kBad;
    }
    inputs.push_back(std::move(in));
  }
  std::mt19937_64 rng(o.seed);
  const bool given = !inputs.empty();
  if (!given && o.exhaustive) {
    Bounds bounds;
    std::string error;
    if (!bounds_of(o, &bounds, &error)) return bad(error);
    const Count count = exhaustive_count(old_side.layout, bounds);
    if (count.saturated || count.total > bounds.max_inputs)
      return bad(too_many_line(old_side.layout, bounds, count));
    inputs = exhaustive_inputs(old_side.layout, bounds);
  }
  for (std::uint64_t k = 0; !given && !o.exhaustive && k < o.runs; ++k)
    inputs.push_back(generate_input(old_side.layout, rng, o.nr_cpus));
  const fs::path batch = work.inputs();
  if (!write_batch(batch.string(), inputs)) return bad("cannot write the batch file");
  for (Side* s : {&old_side, &new_side})
    if (std::string error; !build_side(*s, &error)) return bad(error);
  std::vector<Observation> a, b;
  for (auto [s, out] : {std::pair{&old_side, &a}, std::pair{&new_side, &b}})
    if (std::string error; !run_side(*s, batch, inputs.size(), out, &error)) return bad(error);
  FuzzRun fuzz;  // not past a finding of the generated inputs
  if (o.fuzz_seconds > 0 && !given && !(fuzz.skipped = compare_all(old_side.layout, a, b, level).first >= 0))
    if (std::string error; !fuzz_stage(o, old_side, new_side, work, &inputs, &a, &b, &fuzz, &error)) return bad(error);
  WorstSearch search;
  if (o.search_worst > 0 && !given)
    if (std::string error; !search_worst(o, old_side, new_side, work, level, &inputs, &a, &b, &search, &error))
      return bad(error);
  auto shrink = [&](std::size_t k) {
    if (!o.minimize || given) return Minimized{inputs[k], a[k], b[k]};
    return minimize(old_side, new_side, work, inputs[k], a[k], b[k], level, o.nr_cpus != 0);
  };
  auto perf_shrink = [&](std::size_t k, const Metric& m, double limit) {
    if (!o.minimize || given) return Minimized{inputs[k], a[k], b[k]};
    return minimize_while(old_side, new_side, work, inputs[k], a[k], b[k], o.nr_cpus != 0,
                          [&](const Observation& x, const Observation& y) {
                            std::uint64_t cx = 0, cy = 0;
                            return count_of(x, m, &cx) && count_of(y, m, &cy) && above(cx, cy, limit) &&
                                   equal_at(old_side.layout, x, y, level);
                          });
  };
  Clock clock;
  if (o.clock_reps > 0)
    if (std::string error; !run_clock(o, old_side, new_side, work, inputs, a, b, &clock, &error))
      return bad(error);
  return report(o, old_side.layout, inputs, a, b, level, shrink, perf_shrink, clock, search, fuzz);
}

}  // namespace diffsched::fn
