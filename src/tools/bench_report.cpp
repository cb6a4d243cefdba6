#include "tools/bench_report.h"

#include <algorithm>
#include <array>
#include <climits>
#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace diffsched::tools {

namespace {

constexpr std::string_view kCpudlPrefix = "cpudl_set/";
constexpr std::string_view kPickPrefix = "pick/";
constexpr std::string_view kCountsPrefix = "cpudl_counts/";
// The seed's own settings: 256 CPUs and 100K ops (000), the i7-2600's 8 CPUs
// with its own test's masks (004).
constexpr std::string_view kCpudlHeadline = "cpus:256/ops:100000";
// The author's workload (bench/workload.h, author_cpudl_ops), optional.
constexpr std::string_view kCpudlAuthorPrefix = "cpudl_author/";
constexpr std::string_view kCpudlAuthorHeadline = "cpus:256/ops:10000";
constexpr std::string_view kPickHeadline = "seed/nr:8";
constexpr int kMaxLevels = 14;

std::string ratio_str(double r) { return fmt::format("{:.3f}x", r); }

// "cpus:256/ops:100000" -> "256 CPUs, 100K ops"; "seed/nr:8" -> "seed masks, 8 CPUs".
std::string long_size(std::string_view size) {
  const std::string s = short_size(size);
  const size_t slash = s.find('/');
  if (size.starts_with("cpus:")) return fmt::format("{} CPUs, {} ops", s.substr(0, slash), s.substr(slash + 1));
  return fmt::format("{} masks, {} CPUs", s.substr(0, slash), s.substr(slash + 1));
}

std::string join(const std::vector<std::string>& xs, std::string_view sep) {
  std::string out;
  for (const auto& x : xs) {
    if (!out.empty()) out += sep;
    out += x;
  }
  return out;
}

std::optional<std::vector<double>> series(const std::vector<CounterMap>& reps,
                                          const std::string& key) {
  std::vector<double> out;
  for (const CounterMap& c : reps) {
    const auto it = c.find(key);
    if (it == c.end()) return std::nullopt;
    out.push_back(it->second);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

class Analyser {
 public:
  Analyser(const BenchInputs& in, std::string* error) : in_(in), error_(error) {
    for (const CallgrindPart& p : in.icount)
      ir_[p.name] = static_cast<double>(p.ir) / static_cast<double>(p.calls);
  }

  std::optional<Report> run() {
    Report r;
    r.repetitions = SIZE_MAX;
    if (!time_rows(in_.cpudl_time, kCpudlPrefix, "ratio", "ref_ns", "opt_ns", "swap", "hole",
                   &r.cpudl, &r.repetitions))
      return std::nullopt;
    if (!time_rows(in_.cpudl_time, kCpudlAuthorPrefix, "ratio", "ref_ns", "opt_ns", "swap",
                   "hole", &r.cpudl_author, &r.repetitions, /*optional=*/true))
      return std::nullopt;
    for (const char* v : {"optimized", "fused"}) {
      std::vector<TimeRow> rows;
      if (!time_rows(in_.pick_time, kPickPrefix, fmt::format("{}_ratio", v), "reference_ns",
                     fmt::format("{}_ns", v), "reference", v, &rows, &r.repetitions))
        return std::nullopt;
      r.pick.insert(r.pick.end(), rows.begin(), rows.end());
    }
    if (!count_rows(&r)) return std::nullopt;
    r.stack = in_.stack;
    for (const char* fn : {"pick_reference", "pick_optimized", "pick_fused"})
      if (!r.stack.contains(fn)) return fail(fmt::format("stack usage of {} missing", fn));
    r.claims = {claim_stores(r), claim_cpudl_time(r)};
    if (!r.cpudl_author.empty()) r.claims.push_back(claim_cpudl_author(r));
    r.claims.push_back(claim_pick(r, "optimized"));
    r.claims.push_back(claim_pick(r, "fused"));
    return r;
  }

 private:
  std::nullopt_t fail(std::string msg) {
    *error_ = std::move(msg);
    return std::nullopt;
  }

  bool time_rows(const GbenchRuns& runs, std::string_view prefix, const std::string& ratio_key,
                 const std::string& ref_key, const std::string& var_key, const std::string& ref_ir,
                 const std::string& variant, std::vector<TimeRow>* out, size_t* repetitions,
                 bool optional = false) {
    for (const std::string& name : runs.order) {
      if (!name.starts_with(prefix)) continue;
      const auto& reps = runs.reps.at(name);
      const auto ratio = series(reps, ratio_key);
      const auto ref = series(reps, ref_key);
      const auto var = series(reps, var_key);
      if (!ratio || !ref || !var) {
        fail(fmt::format("benchmark {} lacks counter {}, {} or {}", name, ratio_key, ref_key,
                         var_key));
        return false;
      }
      TimeRow row;
      row.size = name.substr(prefix.size());
      row.variant = variant;
      row.ratio = summarize(*ratio);
      row.ref_ns = summarize(*ref).median;
      row.var_ns = summarize(*var).median;
      row.direction = classify(row.ratio);
      const auto ir_ref = ir_.find(name + "/" + ref_ir);
      const auto ir_var = ir_.find(name + "/" + variant);
      if (ir_ref == ir_.end() || ir_var == ir_.end()) {
        fail(fmt::format("callgrind part {}/{} or /{} missing", name, ref_ir, variant));
        return false;
      }
      row.ref_ir = ir_ref->second;
      row.var_ir = ir_var->second;
      *repetitions = std::min(*repetitions, reps.size());
      out->push_back(std::move(row));
    }
    if (out->empty() && !optional) {
      fail(fmt::format("no {}* benchmarks in the wall-clock output", prefix));
      return false;
    }
    return true;
  }

  bool count_rows(Report* r) {
    std::array<LevelRow, kMaxLevels> levels{};
    std::array<double, kMaxLevels> swap_sum{}, hole_sum{};
    for (const std::string& name : in_.cpudl_counts.order) {
      if (!name.starts_with(kCountsPrefix)) continue;
      const auto& reps = in_.cpudl_counts.reps.at(name);
      if (reps.empty()) continue;
      const CounterMap& c = reps.front();
      bool ok = true;
      auto get = [&](const std::string& key) {
        const auto it = c.find(key);
        if (it == c.end()) {
          ok = false;
          return 0.0;
        }
        return it->second;
      };
      auto side = [&](const std::string& p) {
        HeapCounts h;
        h.loads_per_op = get(p + ".loads_per_op");
        h.stores_per_op = get(p + ".stores_per_op");
        h.compares_per_op = get(p + ".compares_per_op");
        h.nontrivial = get(p + ".nontrivial");
        h.nontrivial_loads = get(p + ".nontrivial_loads");
        h.nontrivial_stores = get(p + ".nontrivial_stores");
        h.nontrivial_compares = get(p + ".nontrivial_compares");
        h.trivial = get(p + ".trivial");
        h.trivial_stores = get(p + ".trivial_stores");
        return h;
      };
      CountRow row{std::string(name.substr(kCountsPrefix.size())), side("swap"), side("hole")};
      if (!ok) {
        fail(fmt::format("benchmark {} lacks a count counter", name));
        return false;
      }
      for (int k = 1; k < kMaxLevels; ++k) {
        const auto calls = c.find(fmt::format("swap.L{}.calls", k));
        if (calls == c.end()) continue;
        const size_t i = static_cast<size_t>(k);
        levels[i].levels = k;
        levels[i].calls += calls->second;
        swap_sum[i] += calls->second * get(fmt::format("swap.L{}.stores", k));
        hole_sum[i] += calls->second * get(fmt::format("hole.L{}.stores", k));
      }
      if (!ok) {
        fail(fmt::format("benchmark {} lacks a per-level counter", name));
        return false;
      }
      r->counts.push_back(std::move(row));
    }
    if (r->counts.empty()) {
      fail("no cpudl_counts/* benchmarks in the counting output");
      return false;
    }
    for (size_t i = 1; i < levels.size(); ++i) {
      if (levels[i].calls == 0) continue;
      levels[i].swap_stores = swap_sum[i] / levels[i].calls;
      levels[i].hole_stores = hole_sum[i] / levels[i].calls;
      r->levels.push_back(levels[i]);
    }
    return true;
  }

  // C1: "On a non-trivial heapify(), this performs roughly half stores wrt swaps."
  ClaimRow claim_stores(const Report& r) {
    ClaimRow c;
    c.id = "C1";
    c.claim = "hole heapify does roughly half the stores of swaps on a non-trivial heapify";
    c.seed_file = kSeedCpudl;
    c.seed_figure = "~0.5x stores";
    const CountRow* head = &r.counts.back();
    for (const CountRow& row : r.counts)
      if (row.size == kCpudlHeadline) head = &row;
    std::vector<std::string> by_level;
    std::vector<int> holding_levels, failing_levels;
    double total = 0, holding = 0, fail_lo = 1e300, fail_hi = 0;
    for (const LevelRow& l : r.levels) {
      by_level.push_back(fmt::format("{:.2f}", l.ratio()));
      total += l.calls;
      const std::string name = fmt::format("{} level{}", l.levels, l.levels == 1 ? "" : "s");
      if (l.ratio() <= kRoughlyHalf + 1e-9) {
        c.holds_at.push_back(name);
        holding_levels.push_back(l.levels);
        holding += l.calls;
      } else {
        c.fails_at.push_back(name);
        failing_levels.push_back(l.levels);
        fail_lo = std::min(fail_lo, l.ratio());
        fail_hi = std::max(fail_hi, l.ratio());
      }
    }
    c.measured = fmt::format(
        "{} ({:.2f} vs {:.2f} stores, exact) at {}; by levels moved 1..{}: {}",
        ratio_str(head->hole.nontrivial_stores / head->swap.nontrivial_stores),
        head->hole.nontrivial_stores, head->swap.nontrivial_stores, long_size(head->size),
        r.levels.empty() ? 0 : r.levels.back().levels, join(by_level, " "));
    c.instructions = cpudl_ir_summary(r);
    const double share = total > 0 ? 100.0 * holding / total : 0;
    if (c.fails_at.empty())
      c.verdict = "holds";
    else if (c.holds_at.empty())
      c.verdict = fmt::format("does not hold ({}-{} at every depth)", ratio_str(fail_lo),
                              ratio_str(fail_hi));
    else
      c.verdict = fmt::format(
          "holds only for some sizes: heapifies moving {} levels ({:.1f}% of the non-trivial "
          "heapifies of the seed workload); not at {} levels ({}-{})",
          level_ranges(holding_levels), share, level_ranges(failing_levels), ratio_str(fail_lo),
          ratio_str(fail_hi));
    return c;
  }

  // level_ranges({1, 2, 3, 5}) == "1-3, 5"
  static std::string level_ranges(const std::vector<int>& ks) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < ks.size();) {
      size_t j = i;
      while (j + 1 < ks.size() && ks[j + 1] == ks[j] + 1) ++j;
      parts.push_back(i == j ? fmt::format("{}", ks[i]) : fmt::format("{}-{}", ks[i], ks[j]));
      i = j + 1;
    }
    return join(parts, ", ");
  }

  static std::string cpudl_ir_summary(const Report& r) {
    const TimeRow* head = &r.cpudl.back();
    double lo = 1e300, hi = 0;
    for (const TimeRow& t : r.cpudl) {
      if (t.size == kCpudlHeadline) head = &t;
      lo = std::min(lo, t.ir_ratio());
      hi = std::max(hi, t.ir_ratio());
    }
    return fmt::format("{} at {}; {}-{} over {} sizes", ratio_str(head->ir_ratio()),
                       short_size(head->size), ratio_str(lo), ratio_str(hi), r.cpudl.size());
  }

  // Time claims: measured figure, instruction figure and verdict over rows.
  static void time_claim(ClaimRow* c, const std::vector<const TimeRow*>& rows,
                         std::string_view headline) {
    const TimeRow* head = rows.back();
    double lo = 1e300, hi = 0, ir_lo = 1e300, ir_hi = 0;
    std::vector<std::string> same, slower;
    for (const TimeRow* t : rows) {
      if (t->size == headline) head = t;
      lo = std::min(lo, t->ratio.median);
      hi = std::max(hi, t->ratio.median);
      ir_lo = std::min(ir_lo, t->ir_ratio());
      ir_hi = std::max(ir_hi, t->ir_ratio());
      const std::string s = short_size(t->size);
      switch (t->direction) {
        case Direction::kFaster: c->holds_at.push_back(s); break;
        case Direction::kNoClearDifference: same.push_back(s); c->fails_at.push_back(s); break;
        case Direction::kSlower: slower.push_back(s); c->fails_at.push_back(s); break;
      }
    }
    c->measured = fmt::format("{} (IQR {:.3f}-{:.3f}, {} reps) at {}; medians {}-{} over {} sizes",
                              ratio_str(head->ratio.median), head->ratio.p25, head->ratio.p75,
                              head->ratio.n, long_size(head->size), ratio_str(lo), ratio_str(hi),
                              rows.size());
    c->instructions = fmt::format("{} at {}; {}-{} over {} sizes", ratio_str(head->ir_ratio()),
                                  short_size(head->size), ratio_str(ir_lo), ratio_str(ir_hi),
                                  rows.size());
    std::vector<std::string> not_parts;
    if (!slower.empty()) not_parts.push_back(fmt::format("slower at {}", join(slower, ", ")));
    if (!same.empty())
      not_parts.push_back(same.size() == rows.size()
                              ? fmt::format("no clear difference at any of the {} sizes "
                                            "(resolution {:.0f}%)",
                                            rows.size(), 100 * kTimeFloor)
                              : fmt::format("no clear difference at {}", join(same, ", ")));
    if (c->fails_at.empty())
      c->verdict = fmt::format("holds: faster at all {} sizes", rows.size());
    else if (c->holds_at.empty())
      c->verdict = fmt::format("does not hold: {}", join(not_parts, "; "));
    else
      c->verdict = fmt::format("holds only for some sizes: faster at {}; {}",
                               join(c->holds_at, ", "), join(not_parts, "; "));
  }

  // C2: "up to 10% of speed-up for cpudl_set() calls".
  ClaimRow claim_cpudl_time(const Report& r) {
    ClaimRow c;
    c.id = "C2";
    c.claim = "hole heapify makes cpudl_set() up to 10% faster (75% set / 25% clear, random CPUs)";
    c.seed_file = kSeedCpudl;
    c.seed_figure = "up to 10% faster (>= 0.90x time), Core2 Duo, <= 256 CPUs, 1K-100K ops";
    std::vector<const TimeRow*> rows;
    for (const TimeRow& t : r.cpudl) rows.push_back(&t);
    time_claim(&c, rows, kCpudlHeadline);
    return c;
  }

  // C2, on the workload of the author's own harness (cpudl-bench): the scope
  // is in the claim's text, the sizes in the verdict.
  ClaimRow claim_cpudl_author(const Report& r) {
    ClaimRow c;
    c.id = "C2";
    c.claim = "the same, as the author's harness ran it (CPU i % n, LCG 75/25 set/clear, "
              "deadlines straddling 2^63)";
    c.seed_file = kSeedCpudl;
    c.seed_figure = "up to 10% faster; tomcucinotta/cpudl-bench stream";
    std::vector<const TimeRow*> rows;
    for (const TimeRow& t : r.cpudl_author) rows.push_back(&t);
    time_claim(&c, rows, kCpudlAuthorHeadline);
    return c;
  }

  // C3: "speed up from ~130ns to ~93ns"; C4: the merged v6.15 form, for context.
  ClaimRow claim_pick(const Report& r, const std::string& variant) {
    ClaimRow c;
    if (variant == "optimized") {
      c.id = "C3";
      c.claim = "can_migrate_task(): 2x cpumask_and() + cpumask_first() beats the "
                "for_each_cpu_and() loop";
      c.seed_file = kSeedPick;
      c.seed_figure = "~130 ns -> ~93 ns (0.72x time), i7-2600, its own test masks";
    } else {
      c.id = "C4";
      c.claim = "(context, no seed claim) fused cpumask_first_and_and() as merged in v6.15 vs "
                "the loop";
      c.seed_file = "-";
      c.seed_figure = "-";
    }
    std::vector<const TimeRow*> rows;
    for (const TimeRow& t : r.pick)
      if (t.variant == variant) rows.push_back(&t);
    time_claim(&c, rows, kPickHeadline);
    return c;
  }

  const BenchInputs& in_;
  std::string* error_;
  std::map<std::string, double> ir_;
};

// ---- output -----------------------------------------------------------------

void print_table(std::FILE* out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) width[i] = header[i].size();
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (size_t i = 0; i < width.size(); ++i)
      s += fmt::format(" {:<{}} |", i < cells.size() ? cells[i] : "", width[i]);
    fmt::print(out, "{}\n", s);
  };
  line(header);
  std::string sep = "|";
  for (size_t w : width) sep += std::string(w + 2, '-') + "|";
  fmt::print(out, "{}\n", sep);
  for (const auto& row : rows) line(row);
}

std::string spread_str(const Spread& s) {
  return fmt::format("{:.3f} ({:.3f}-{:.3f})", s.median, s.p25, s.p75);
}

nlohmann::json spread_json(const Spread& s) {
  return {{"n", s.n},       {"median", s.median}, {"p25", s.p25},
          {"p75", s.p75},   {"min", s.min},       {"max", s.max}};
}

}  // namespace

std::string short_size(std::string_view size) {
  std::string out;
  while (!size.empty()) {
    const size_t slash = size.find('/');
    std::string_view part = size.substr(0, slash);
    if (const size_t colon = part.find(':'); colon != std::string_view::npos)
      part.remove_prefix(colon + 1);
    std::string p(part);
    if (p.size() > 3 && p.ends_with("000")) p = p.substr(0, p.size() - 3) + "K";
    if (!out.empty()) out += '/';
    out += p;
    if (slash == std::string_view::npos) break;
    size.remove_prefix(slash + 1);
  }
  return out;
}

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::kFaster: return "faster";
    case Direction::kNoClearDifference: return "no clear difference";
    case Direction::kSlower: return "slower";
  }
  return "?";
}

Direction classify(const Spread& ratio) {
  if (ratio.p75 < 1.0 && ratio.median <= 1.0 - kTimeFloor) return Direction::kFaster;
  if (ratio.p25 > 1.0 && ratio.median >= 1.0 + kTimeFloor) return Direction::kSlower;
  return Direction::kNoClearDifference;
}

std::optional<Report> analyse(const BenchInputs& in, std::string* error) {
  return Analyser(in, error).run();
}

void print_report(std::FILE* out, const Report& r) {
  fmt::print(out, "Claims (ratios are optimized / reference: below 1 the optimization wins)\n\n");
  {
    std::vector<std::vector<std::string>> rows;
    for (const ClaimRow& c : r.claims)
      rows.push_back({c.id + " " + c.claim, c.seed_file, c.seed_figure, c.measured,
                      c.instructions, c.verdict});
    print_table(out,
                {"claim", "seed", "seed's figure", "measured (time: median ratio, IQR)",
                 "instructions (callgrind)", "verdict"},
                rows);
  }

  fmt::print(out, "\ncpudl_set(), hole / swap heapify: wall clock (ns per call, medians over {} "
                  "repetitions) and callgrind instructions per call\n\n",
             r.repetitions);
  {
    std::vector<std::vector<std::string>> rows;
    for (const TimeRow& t : r.cpudl)
      rows.push_back({long_size(t.size), fmt::format("{:.2f}", t.ref_ns),
                      fmt::format("{:.2f}", t.var_ns), spread_str(t.ratio),
                      fmt::format("{:.1f}", t.ref_ir), fmt::format("{:.1f}", t.var_ir),
                      fmt::format("{:.3f}", t.ir_ratio()), direction_name(t.direction)});
    print_table(out,
                {"size", "swap ns", "hole ns", "time ratio (IQR)", "swap Ir", "hole Ir",
                 "Ir ratio", "hole is"},
                rows);
  }

  if (!r.cpudl_author.empty()) {
    fmt::print(out, "\ncpudl_set(), hole / swap heapify, the author's workload (CPU i % n, LCG, "
                    "75/25, deadlines straddling 2^63; compact op stream, whole replay timed)\n\n");
    std::vector<std::vector<std::string>> rows;
    for (const TimeRow& t : r.cpudl_author)
      rows.push_back({long_size(t.size), fmt::format("{:.2f}", t.ref_ns),
                      fmt::format("{:.2f}", t.var_ns), spread_str(t.ratio),
                      fmt::format("{:.1f}", t.ref_ir), fmt::format("{:.1f}", t.var_ir),
                      fmt::format("{:.3f}", t.ir_ratio()), direction_name(t.direction)});
    print_table(out,
                {"size", "swap ns", "hole ns", "time ratio (IQR)", "swap Ir", "hole Ir",
                 "Ir ratio", "hole is"},
                rows);
  }

  fmt::print(out, "\ncan_migrate_task() pick, variant / reference: wall clock and callgrind "
                  "(per call)\n\n");
  {
    std::vector<std::vector<std::string>> rows;
    for (const TimeRow& t : r.pick)
      rows.push_back({long_size(t.size), t.variant, fmt::format("{:.2f}", t.ref_ns),
                      fmt::format("{:.2f}", t.var_ns), spread_str(t.ratio),
                      fmt::format("{:.1f}", t.ref_ir), fmt::format("{:.1f}", t.var_ir),
                      fmt::format("{:.3f}", t.ir_ratio()), direction_name(t.direction)});
    print_table(out,
                {"size", "variant", "ref ns", "variant ns", "time ratio (IQR)", "ref Ir",
                 "variant Ir", "Ir ratio", "variant is"},
                rows);
  }

  fmt::print(out, "\nExact element accesses (instrumented build, kernel::Counting), swap -> hole. "
                  "Non-trivial heapify: the item ends in another slot (moved >= 1 level)\n\n");
  {
    std::vector<std::vector<std::string>> rows;
    auto pair = [](double a, double b) { return fmt::format("{:.2f} -> {:.2f}", a, b); };
    for (const CountRow& c : r.counts)
      rows.push_back({long_size(c.size), pair(c.swap.loads_per_op, c.hole.loads_per_op),
                      pair(c.swap.stores_per_op, c.hole.stores_per_op),
                      pair(c.swap.compares_per_op, c.hole.compares_per_op),
                      fmt::format("{:.0f} / {:.0f}", c.swap.nontrivial, c.swap.trivial),
                      pair(c.swap.nontrivial_stores, c.hole.nontrivial_stores),
                      ratio_str(c.hole.nontrivial_stores / c.swap.nontrivial_stores),
                      pair(c.swap.trivial_stores, c.hole.trivial_stores)});
    print_table(out,
                {"size", "loads/op", "stores/op", "compares/op", "heapifies non-triv/triv",
                 "stores/non-triv", "ratio", "stores/trivial"},
                rows);
  }

  fmt::print(out, "\nStores per non-trivial heapify by levels moved (all sizes)\n\n");
  {
    std::vector<std::vector<std::string>> rows;
    for (const LevelRow& l : r.levels)
      rows.push_back({fmt::format("{}", l.levels), fmt::format("{:.0f}", l.calls),
                      fmt::format("{:.2f}", l.swap_stores), fmt::format("{:.2f}", l.hole_stores),
                      ratio_str(l.ratio()),
                      l.ratio() <= kRoughlyHalf + 1e-9 ? "yes" : "no"});
    print_table(out,
                {"levels", "heapifies", "swap stores", "hole stores", "ratio",
                 fmt::format("roughly half (<= {})", kRoughlyHalf)},
                rows);
  }

  fmt::print(out, "\nStack frames of the pick variants (gcc -fstack-usage, as linked)\n\n");
  {
    std::vector<std::vector<std::string>> rows;
    for (const char* fn : {"pick_reference", "pick_optimized", "pick_fused"})
      rows.push_back({fn, fmt::format("{}", r.stack.at(fn))});
    print_table(out, {"function", "bytes"}, rows);
  }
}

nlohmann::json report_json(const Report& r) {
  nlohmann::json j;
  j["repetitions"] = r.repetitions;
  j["rules"] = {{"time_floor", kTimeFloor}, {"roughly_half", kRoughlyHalf}};
  for (const ClaimRow& c : r.claims)
    j["claims"].push_back({{"id", c.id},
                           {"claim", c.claim},
                           {"seed_file", c.seed_file},
                           {"seed_figure", c.seed_figure},
                           {"measured", c.measured},
                           {"instructions", c.instructions},
                           {"verdict", c.verdict},
                           {"holds_at", c.holds_at},
                           {"fails_at", c.fails_at}});
  auto time_rows = [](const std::vector<TimeRow>& rows) {
    nlohmann::json a = nlohmann::json::array();
    for (const TimeRow& t : rows)
      a.push_back({{"size", t.size},
                   {"variant", t.variant},
                   {"time_ratio", spread_json(t.ratio)},
                   {"reference_ns", t.ref_ns},
                   {"variant_ns", t.var_ns},
                   {"reference_ir_per_call", t.ref_ir},
                   {"variant_ir_per_call", t.var_ir},
                   {"ir_ratio", t.ir_ratio()},
                   {"direction", direction_name(t.direction)}});
    return a;
  };
  j["cpudl"] = time_rows(r.cpudl);
  if (!r.cpudl_author.empty()) j["cpudl_author"] = time_rows(r.cpudl_author);
  j["pick"] = time_rows(r.pick);
  auto heap = [](const HeapCounts& h) {
    return nlohmann::json{{"loads_per_op", h.loads_per_op},
                          {"stores_per_op", h.stores_per_op},
                          {"compares_per_op", h.compares_per_op},
                          {"nontrivial_heapifies", h.nontrivial},
                          {"stores_per_nontrivial", h.nontrivial_stores},
                          {"loads_per_nontrivial", h.nontrivial_loads},
                          {"compares_per_nontrivial", h.nontrivial_compares},
                          {"trivial_heapifies", h.trivial},
                          {"stores_per_trivial", h.trivial_stores}};
  };
  for (const CountRow& c : r.counts)
    j["counts"].push_back({{"size", c.size}, {"swap", heap(c.swap)}, {"hole", heap(c.hole)}});
  for (const LevelRow& l : r.levels)
    j["levels"].push_back({{"levels", l.levels},
                           {"heapifies", l.calls},
                           {"swap_stores", l.swap_stores},
                           {"hole_stores", l.hole_stores},
                           {"ratio", l.ratio()}});
  j["stack_bytes"] = r.stack;
  return j;
}

}  // namespace diffsched::tools
