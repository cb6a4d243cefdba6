// diffsched fn: the run (check.h): extract, lay out, build, run, compare.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "fn/check.h"
#include "fn/sides.h"
#include "tools/process.h"
#include "util/text.h"

namespace diffsched::fn {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kOk = 0, kFinding = 1, kBad = 2;

int bad(const std::string& message) {
  fmt::print(stderr, "diffsched: error: {}\n", message);
  return kBad;
}

bool parse_level(const std::string& name, FnLevel* level) {
  if (name == "exact") *level = FnLevel::kExact;
  else if (name == "sorted") *level = FnLevel::kSorted;
  else if (name == "multiset") *level = FnLevel::kMultiset;
  else return false;
  return true;
}

const char* level_name(FnLevel l) {
  return l == FnLevel::kExact ? "exact" : l == FnLevel::kSorted ? "sorted" : "multiset";
}

// A temporary directory, removed when it goes.
struct WorkDir {
  fs::path path;
  WorkDir() {
    std::string t = (fs::temp_directory_path() / "diffsched-fn-XXXXXX").string();
    if (mkdtemp(t.data())) path = t;
  }
  ~WorkDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

std::string replay_command(const FnOptions& o, std::uint64_t runs) {
  std::string c = fmt::format("{} fn --old {} --new {}", o.replay_prefix, util::shell_quote(o.old_file),
                              util::shell_quote(o.new_file));
  if (o.old_function == o.new_function)
    c += " --function " + util::shell_quote(o.old_function);
  else
    c += fmt::format(" --old-function {} --new-function {}", util::shell_quote(o.old_function),
                     util::shell_quote(o.new_function));
  c += fmt::format(" --level {} --seed {} --runs {}", o.level.empty() ? "exact" : o.level, o.seed, runs);
  if (o.nr_cpus) c += fmt::format(" --nr-cpus {}", o.nr_cpus);
  if (!o.spec_file.empty()) c += " --spec " + util::shell_quote(o.spec_file);
  return c;
}

struct Outcome {
  std::size_t compared = 0;          // inputs compared
  long first = -1;                   // the first input that differs at the level
  long first_exact = -1;             // the first that differs at exact
  FnLevel strongest = FnLevel::kExact;  // every input compared is equal at this level
  bool all_multiset = true;
};

Outcome compare_all(const Layout& layout, const std::vector<Observation>& a,
                    const std::vector<Observation>& b, FnLevel level) {
  Outcome r;
  bool all_sorted = true;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!a[k].run || !b[k].run) break;
    ++r.compared;
    const bool exact = equal_at(layout, a[k], b[k], FnLevel::kExact);
    if (!exact && r.first_exact < 0) r.first_exact = static_cast<long>(k);
    if (!exact) {
      all_sorted = all_sorted && equal_at(layout, a[k], b[k], FnLevel::kSorted);
      r.all_multiset = r.all_multiset && equal_at(layout, a[k], b[k], FnLevel::kMultiset);
    }
    if (r.first < 0 && !equal_at(layout, a[k], b[k], level)) r.first = static_cast<long>(k);
    if (a[k].fault || b[k].fault) break;  // nothing after a fault is compared
  }
  r.strongest = r.first_exact < 0 ? FnLevel::kExact
                : all_sorted      ? FnLevel::kSorted
                                  : FnLevel::kMultiset;
  return r;
}

// The verdict, printed; the exit status.
int report(const FnOptions& o, const Layout& layout, const std::vector<Input>& inputs,
           const std::vector<Observation>& a, const std::vector<Observation>& b, FnLevel level) {
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
  } else {
    verdict = r.first_exact >= 0 ? weaker : "equivalent";
  }
  j["verdict"] = r.first >= 0 ? "finding" : r.first_exact >= 0 ? "equivalent-at-" + std::string(level_name(r.strongest)) : "equivalent";
  if (!detail.empty()) j["detail"] = detail;
  if (!weaker.empty()) j["weaker"] = weaker;
  std::string text = fmt::format("diffsched fn: old {} {}(), new {} {}(); {} inputs (seed {}), level {}\n",
                                 o.old_file, o.old_function, o.new_file, o.new_function,
                                 inputs.size(), o.seed, level_name(level));
  if (shown >= 0) {
    const auto k = static_cast<std::size_t>(shown);
    const std::string in = show_input(layout, inputs[k]);
    j["first_divergence"] = {{"index", k}, {"input", in}, {"old", a[k].record},
                             {"new", b[k].record}, {"old_fault", a[k].fault_what},
                             {"new_fault", b[k].fault_what},
                             {"replay", replay_command(o, k + 1)}};
    text += fmt::format("first divergence{}: input {}\n  input: {}\n{}",
                        r.first >= 0 ? "" : " at `exact`", k, in,
                        show_observations(layout, a[k], b[k], inputs[k].nr_cpu_ids));
    text += fmt::format("replay: {}\n", replay_command(o, k + 1));
  }
  if (r.first >= 0 && !weaker.empty()) text += "note: " + weaker + "\n";
  if (r.first >= 0)
    text += fmt::format("verdict: finding: {}\n", detail);
  else if (r.first_exact >= 0)
    text += fmt::format("verdict: {} ({} inputs compared)\n", verdict, r.compared);
  else
    text += fmt::format("verdict: equivalent ({} inputs, level {})\n", r.compared, level_name(level));
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

int run_fn(const FnOptions& o) {
  Spec spec;
  if (!o.spec_file.empty()) {
    std::ifstream f(o.spec_file);
    if (!f) return bad(fmt::format("cannot read the spec {}", o.spec_file));
    std::stringstream text;
    text << f.rdbuf();
    std::string error;
    if (!parse_spec(text.str(), o.spec_file, &spec, &error)) return bad(error);
  }
  FnLevel level = FnLevel::kExact;
  const std::string level_text = !o.level.empty() ? o.level : spec.level;
  if (!level_text.empty() && !parse_level(level_text, &level))
    return bad(fmt::format("unknown level `{}` (exact, multiset, sorted)", level_text));
  WorkDir work;
  if (work.path.empty()) return bad("cannot make a temporary directory");
  Side old_side{"old", o.old_file, o.old_function, work.path / "old"};
  Side new_side{"new", o.new_file, o.new_function, work.path / "new"};
  old_side.runtime_cache = new_side.runtime_cache = work.path;
  for (Side* s : {&old_side, &new_side})
    if (std::string error; !prepare_side(*s, spec, &error)) return bad(error);
  if (const std::string why = same_inputs(old_side.layout, new_side.layout); !why.empty())
    return bad(fmt::format("the two versions take different inputs: {}", why));
  if (const std::string why = spec_unused(spec, old_side, new_side); !why.empty()) return bad(why);
  std::mt19937_64 rng(o.seed);
  std::vector<Input> inputs;
  for (std::uint64_t k = 0; k < o.runs; ++k)
    inputs.push_back(generate_input(old_side.layout, rng, o.nr_cpus));
  const fs::path batch = work.path / "inputs.bin";
  if (!write_batch(batch.string(), inputs)) return bad("cannot write the batch file");
  for (Side* s : {&old_side, &new_side})
    if (std::string error; !build_side(*s, &error)) return bad(error);
  std::vector<Observation> a, b;
  for (auto [s, out] : {std::pair{&old_side, &a}, std::pair{&new_side, &b}})
    if (std::string error; !run_side(*s, batch, inputs.size(), out, &error)) return bad(error);
  return report(o, old_side.layout, inputs, a, b, level);
}

}  // namespace diffsched::fn
