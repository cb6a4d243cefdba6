#include "engine/minimize.h"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "subjects/cpudl/ops.h"
#include "engine/runner.h"
#include "io/binary.h"
#include "subjects.h"
#include "util/ddmin.h"

namespace diffsched::tools {

namespace {

using kernel::Cpumask;
using kernel::u64;

// The try budget of one minimisation: counted and checked before every try.
class Budget {
 public:
  explicit Budget(const MinimizeBudget& b)
      : limits_(b), start_(std::chrono::steady_clock::now()) {}

  // Whether one more try may run; once false, stays false.
  bool allow() {
    if (!stopped_.empty()) return false;
    if (limits_.max_tries > 0 && tries_ >= limits_.max_tries) {
      stopped_ = fmt::format("tries budget ({} runs)", limits_.max_tries);
      return false;
    }
    if (limits_.stop && *limits_.stop) {
      stopped_ = "interrupt";
      return false;
    }
    if (limits_.max_seconds > 0 && seconds() >= limits_.max_seconds) {
      stopped_ = fmt::format("time budget ({:g} s)", limits_.max_seconds);
      return false;
    }
    ++tries_;
    return true;
  }
  void charge() { ++tries_; }  // a run that happens whatever the budget (the first)
  bool exhausted() const { return !stopped_.empty(); }
  const std::string& stopped() const { return stopped_; }
  std::size_t tries() const { return tries_; }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  MinimizeBudget limits_;
  std::chrono::steady_clock::time_point start_;
  std::size_t tries_ = 0;
  std::string stopped_;
};

template <class S>
class Minimizer {
 public:
  using Program = io::Program<S>;
  using Op = typename S::Op;

  Minimizer(typename S::Lockstep& lockstep, Level level, std::string signature, Budget& budget,
            const ProgramCheck* check)
      : lockstep_(lockstep), level_(level), signature_(std::move(signature)), budget_(budget),
        check_(check) {}

  // The verdict a try is judged by: the caller's check, else the lockstep.
  Verdict verdict(const Program& p) {
    if (check_) return (*check_)(io::AnyProgram(p));
    return run_lockstep<S>(lockstep_, p.config, std::span<const Op>(p.ops), level_);
  }

  // Whether p still fails with the same signature; false once the budget is
  // spent (so every pass keeps what it has and winds down).
  bool fails(const Program& p) {
    for (const auto& op : p.ops)
      if (!valid_for(op, p.config.nr_cpu_ids)) return false;
    if (!budget_.allow()) return false;
    const Verdict v = verdict(p);
    return v.finding && v.finding->signature() == signature_;
  }

  // Repeats the passes until a fixpoint; returns whether one was reached.
  bool run(Program& p) {
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      changed |= truncate_after_finding(p);
      changed |= ddmin(p);
      changed |= shrink_nr(p);
      changed |= shrink_capacity(p);
      if constexpr (io::kHasDeadlines<S>) changed |= shift_deadlines(p);
      changed |= simplify_fields(p);
      if (budget_.exhausted()) return false;
      if (!changed) return true;
    }
    return false;
  }

 private:
  // Every field of `op` is in range for nr (CPUs and mask bits below it).
  static bool valid_for(const Op& op, unsigned nr) {
    bool ok = true;
    std::visit(
        [&](const auto& o) {
          for_each_field(o, [&](std::string_view, const auto& f) {
            ok = ok && io::FieldTraits<std::decay_t<decltype(f)>>::in_range(f, nr);
          });
        },
        op);
    return ok;
  }

  bool truncate_after_finding(Program& p) {
    if (!budget_.allow()) return false;
    const Verdict v = verdict(p);
    if (!v.finding || v.finding->signature() != signature_ ||
        v.finding->op_index + 1 >= p.ops.size())
      return false;
    if (!check_) {  // the lockstep stops at its first finding: the ops after it are moot
      p.ops.resize(v.finding->op_index + 1);
      return true;
    }
    // A caller's check (a reader analysis) may judge the whole program: keep
    // the cut only if it still fails the same way.
    Program cut = p;
    cut.ops.resize(v.finding->op_index + 1);
    if (!fails(cut)) return false;
    p = std::move(cut);
    return true;
  }

  // ddmin on the op list (util/ddmin.h, the project's one ddmin).
  bool ddmin(Program& p) {
    Program candidate = p;
    return util::ddmin(
        p.ops,
        [&](const std::vector<Op>& ops) {
          candidate.ops = ops;
          return fails(candidate);
        },
        [&] { return budget_.exhausted(); });
  }

  // The smallest nr_cpu_ids that still fails: the small ones and the
  // decoder's table first, then a binary search below the current value.
  bool shrink_nr(Program& p) {
    const unsigned current = p.config.nr_cpu_ids;
    std::set<unsigned> candidates;
    for (unsigned n : io::kNrCpusTable)
      if (n < current) candidates.insert(n);
    for (unsigned n = 1; n < std::min(current, 9u); ++n) candidates.insert(n);
    auto with_nr = [&](unsigned n) {
      Program candidate = p;
      candidate.config.nr_cpu_ids = n;
      return candidate;
    };
    for (unsigned n : candidates) {  // ascending: the smallest that still fails
      if (budget_.exhausted()) return false;
      Program candidate = with_nr(n);
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
    }
    // None of those: between the largest one below and the current value.
    const unsigned below = candidates.empty() ? 0 : *candidates.rbegin();
    return bisect<unsigned>(p, below, current, with_nr);
  }

  // The program's capacity list (`capacity 1024,512`, cpudl: CPU c has
  // capacity[c % size]): the whole line first (every CPU then has
  // SCHED_CAPACITY_SCALE), then ddmin over its values (entries no CPU below
  // nr_cpu_ids reads, and repetitions, go), then each value towards 1024,
  // the capacity of a CPU without asymmetry: 1024 itself, else the value
  // nearest 1024 that still fails, by bisection. O(n log n + n log 1024)
  // tries for n values.
  bool shrink_capacity(Program& p) {
    if constexpr (requires { p.config.capacity; }) {
      if (p.config.capacity.empty() || budget_.exhausted()) return false;
      Program candidate = p;
      candidate.config.capacity.clear();
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
      candidate = p;
      bool changed = util::ddmin(
          p.config.capacity,
          [&](const std::vector<std::uint16_t>& fewer) {
            candidate.config.capacity = fewer;
            return fails(candidate);
          },
          [&] { return budget_.exhausted(); });
      for (std::size_t i = 0; i < p.config.capacity.size() && !budget_.exhausted(); ++i)
        changed |= shrink_capacity_value(p, i);
      return changed;
    } else {
      return false;
    }
  }

  bool shrink_capacity_value(Program& p, std::size_t i) {
    constexpr unsigned kScale = cpudl::kCapacityScale;
    const unsigned v = p.config.capacity[i];
    if (v >= kScale) return false;
    auto make = [&](unsigned distance) {
      Program candidate = p;
      candidate.config.capacity[i] = static_cast<std::uint16_t>(kScale - distance);
      return candidate;
    };
    Program full = make(0);
    if (fails(full)) {
      p = std::move(full);
      return true;
    }
    // The smallest distance below 1024 - v (which fails) that still fails.
    return bisect<unsigned>(p, 0, kScale - v, make);
  }

  // Moves every deadline by the same amount, so that the smallest (circular
  // order from the first) becomes a small value; keeps their relative order.
  bool shift_deadlines(Program& p) {
    std::vector<u64*> fields;
    for (auto& op : p.ops)
      std::visit([&](auto& o) {
        for_each_field(o, [&](std::string_view, auto& f) {
          if constexpr (io::OnDeadlineCircle<std::decay_t<decltype(f)>>) fields.push_back(&f.value);
        });
      }, op);
    if (fields.empty()) return false;
    const u64 first = *fields.front();
    u64 lowest = first;
    for (u64* f : fields)
      if (kernel::dl_time_before(*f, lowest)) lowest = *f;
    if (lowest == 0) return false;
    for (u64 target : {u64{0}, u64{1}, u64{100}}) {
      if (target >= lowest || budget_.exhausted()) break;
      Program candidate = p;
      std::size_t k = 0;
      for (auto& op : candidate.ops)
        std::visit([&](auto& o) {
          for_each_field(o, [&](std::string_view, auto& f) {
            if constexpr (io::OnDeadlineCircle<std::decay_t<decltype(f)>>)
              f = *fields[k++] - lowest + target;
          });
        }, op);
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
    }
    return false;
  }

  // Binary search for the smallest value in (known_ok, failing) at which
  // make(value) still fails, knowing that make(failing) fails and
  // make(known_ok) does not (or was not worth trying): O(log range) tries. Where the
  // failure is not monotone the result still fails, it is only perhaps not
  // the smallest. Leaves p at the smallest failing value found.
  template <class T, class Make>
  bool bisect(Program& p, T known_ok, T failing, Make&& make) {
    bool changed = false;
    T lo = known_ok, hi = failing;
    while (hi > lo && hi - lo > 1 && !budget_.exhausted()) {
      const T mid = lo + (hi - lo) / 2;
      Program candidate = make(mid);
      if (fails(candidate)) {
        hi = mid;
        p = std::move(candidate);
        changed = true;
      } else {
        lo = mid;
      }
    }
    return changed;
  }

  // Field k of op i of a copy of p, set to `value`.
  template <class T>
  static Program with_field(const Program& p, std::size_t i, std::size_t k, const T& value) {
    Program candidate = p;
    std::visit([&](auto& co) {
      std::size_t j = 0;
      for_each_field(co, [&](std::string_view, auto& cf) {
        if constexpr (std::is_same_v<std::decay_t<decltype(cf)>, T>)
          if (j == k) cf = value;
        ++j;
      });
    }, candidate.ops[i]);
    return candidate;
  }

  // Tries `anchors` (ascending, each below v) in order and keeps the first
  // that fails; if none does, bisects between the largest anchor and v.
  template <class T>
  bool shrink_integer(Program& p, std::size_t i, std::size_t k, T v,
                      const std::vector<T>& anchors) {
    auto make = [&](T value) { return with_field(p, i, k, value); };
    for (const T& a : anchors) {
      if (budget_.exhausted()) return false;
      if (a == v) continue;  // not a change: counting it as one kept the passes from a fixpoint
      Program candidate = make(a);
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
    }
    if (anchors.empty()) return false;
    return bisect<T>(p, anchors.back(), v, make);
  }

  // The values of type T in the program (shrink anchors for T's traits);
  // only integer-shrunk (StrongValue) types ask.
  template <class T>
  static std::set<T> program_values(const Program& p) {
    // Deadlines of any kind share one circle: each anchors the others.
    std::set<T> seen;
    for (const auto& op : p.ops)
      std::visit([&](const auto& o) {
        for_each_field(o, [&](std::string_view, const auto& f) {
          using F = std::decay_t<decltype(f)>;
          if constexpr (std::is_same_v<F, T> ||
                        (io::OnDeadlineCircle<F> && io::OnDeadlineCircle<T>))
            seen.insert(T(f.value));
        });
      }, op);
    return seen;
  }

  // Simplifies field k of op i once; returns whether it changed.
  bool simplify_field(Program& p, std::size_t i, std::size_t k) {
    bool changed = false;
    std::visit([&](const auto& o) {
      std::size_t j = 0;
      for_each_field(o, [&](std::string_view, const auto& f) {
        if (j++ != k) return;
        using T = std::decay_t<decltype(f)>;
        using Traits = io::FieldTraits<T>;
        const T current = f;  // p changes below; f may dangle after that
        if constexpr (Traits::kShrink == io::Shrink::kInteger) {
          if (current == T{}) return;
          changed = shrink_integer<T>(p, i, k, current,
                                      Traits::anchors(current, program_values<T>(p)));
        } else {
          // Small domains: each accepted candidate is strictly simpler; try
          // again from the new value until none fails.
          T value = current;
          for (bool improved = true; improved && !budget_.exhausted();) {
            improved = false;
            for (const T& c : Traits::candidates(value, p.config.nr_cpu_ids)) {
              if (budget_.exhausted()) break;
              Program candidate = with_field(p, i, k, c);
              if (fails(candidate)) {
                p = std::move(candidate);
                value = c;
                improved = changed = true;
                break;
              }
            }
          }
        }
      });
    }, Op(p.ops[i]));  // a copy: the visitor replaces p
    return changed;
  }

  bool simplify_fields(Program& p) {
    bool changed = false;
    for (std::size_t i = 0; i < p.ops.size() && !budget_.exhausted(); ++i) {
      std::size_t field_count = 0;
      std::visit([&](const auto& o) {
        for_each_field(o, [&](std::string_view, const auto&) { ++field_count; });
      }, p.ops[i]);
      for (std::size_t k = 0; k < field_count && !budget_.exhausted(); ++k)
        changed |= simplify_field(p, i, k);
    }
    return changed;
  }

  typename S::Lockstep& lockstep_;
  Level level_;
  std::string signature_;
  Budget& budget_;
  const ProgramCheck* check_;
};

}  // namespace

std::optional<MinimizeResult> minimize(const io::AnyProgram& program, Level level,
                                       std::string* error, const MinimizeBudget& limits,
                                       const LockstepSource* sides, const ProgramCheck* check) {
  return std::visit(
      [&](const auto& original) -> std::optional<MinimizeResult> {
        using P = std::decay_t<decltype(original)>;
        using S = typename P::Subject;
        Budget budget(limits);
        // One lockstep for every try: each run resets it (sides, model,
        // snapshots) instead of building new sides. Kernel C sides (kcheck)
        // come from the harness's source and are reset by re-running cpudl_init().
        auto lockstep = make_lockstep<S>(sides);
        budget.charge();  // the first run always happens
        const Verdict v = check ? (*check)(io::AnyProgram(original))
                                : run_lockstep<S>(*lockstep, original.config,
                                                  std::span<const typename S::Op>(original.ops),
                                                  level);
        if (!v.finding) {
          *error = check ? fmt::format("nothing to minimise: no finding after {} ops", v.ops_run)
                         : fmt::format("nothing to minimise: equivalent at level {} after {} ops",
                                       level_name(level), v.ops_run);
          return std::nullopt;
        }
        Minimizer<S> m(*lockstep, level, v.finding->signature(), budget, check);
        P p = original;
        const bool fixpoint = m.run(p);
        p.level = level;
        MinimizeResult r{io::AnyProgram(p), v.finding->signature(), original.ops.size(),
                         budget.tries()};
        r.seconds = budget.seconds();
        r.minimal = fixpoint;
        r.stopped = fixpoint ? std::string()
                    : budget.exhausted() ? budget.stopped()
                                         : std::string("round limit (64 rounds)");
        return r;
      },
      program);
}

}  // namespace diffsched::tools
