#include "tools/minimize.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "engine/runner.h"
#include "io/binary.h"

namespace diffsched::tools {

namespace {

using kernel::Cpumask;
using kernel::u64;

template <class S>
class Minimizer {
 public:
  using Program = io::Program<S>;
  using Op = typename S::Op;

  Minimizer(Level level, std::string signature) : level_(level), signature_(std::move(signature)) {}

  // Whether p still fails with the same signature.
  bool fails(const Program& p) {
    ++runs_;
    for (const auto& op : p.ops)
      if (!valid_for(op, p.config.nr_cpu_ids)) return false;
    const Verdict v = run_lockstep<S>(lockstep_, p.config, std::span<const Op>(p.ops), level_);
    return v.finding && v.finding->signature() == signature_;
  }

  void run(Program& p) {
    for (int round = 0; round < 8; ++round) {
      const std::size_t before_runs = runs_;
      bool changed = false;
      changed |= truncate_after_finding(p);
      changed |= ddmin(p);
      changed |= shrink_nr(p);
      if constexpr (io::kHasDeadlines<S>) changed |= shift_deadlines(p);
      changed |= simplify_fields(p);
      if (!changed || runs_ - before_runs > 200000) break;
    }
  }

  std::size_t runs() const { return runs_; }

 private:
  // Every CPU and mask bit of `op` is below nr.
  static bool valid_for(const Op& op, unsigned nr) {
    bool ok = true;
    std::visit(
        [&](const auto& o) {
          for_each_field(o, [&](std::string_view, const auto& f) {
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, int>) {
              ok = ok && f >= 0 && static_cast<unsigned>(f) < nr;
            } else if constexpr (std::is_same_v<T, Cpumask>) {
              for (unsigned w = nr / 64; w < kernel::BITS_TO_LONGS(kernel::NR_CPUS); ++w) {
                const unsigned long beyond = w * 64 >= nr ? ~0UL : ~0UL << (nr - w * 64);
                ok = ok && !(f.bits[w] & beyond);
              }
            }
          });
        },
        op);
    return ok;
  }

  bool truncate_after_finding(Program& p) {
    const Verdict v = run_lockstep<S>(lockstep_, p.config, std::span<const Op>(p.ops), level_);
    ++runs_;
    if (!v.finding || v.finding->op_index + 1 >= p.ops.size()) return false;
    p.ops.resize(v.finding->op_index + 1);
    return true;
  }

  // Zeller's ddmin on the op list, then a 1-minimality pass.
  bool ddmin(Program& p) {
    bool changed = false;
    std::size_t n = 2;
    while (p.ops.size() >= 2) {
      const std::size_t chunk = (p.ops.size() + n - 1) / n;
      bool reduced = false;
      for (std::size_t start = 0; start < p.ops.size(); start += chunk) {
        Program candidate = p;
        candidate.ops.erase(candidate.ops.begin() + static_cast<std::ptrdiff_t>(start),
                            candidate.ops.begin() +
                                static_cast<std::ptrdiff_t>(std::min(start + chunk, p.ops.size())));
        if (!candidate.ops.empty() && fails(candidate)) {
          p = std::move(candidate);
          n = std::max<std::size_t>(n - 1, 2);
          reduced = changed = true;
          break;
        }
      }
      if (!reduced) {
        if (n >= p.ops.size()) break;
        n = std::min(n * 2, p.ops.size());
      }
    }
    for (std::size_t i = 0; i < p.ops.size() && p.ops.size() > 1;) {
      Program candidate = p;
      candidate.ops.erase(candidate.ops.begin() + static_cast<std::ptrdiff_t>(i));
      if (fails(candidate)) {
        p = std::move(candidate);
        changed = true;
      } else {
        ++i;
      }
    }
    return changed;
  }

  bool shrink_nr(Program& p) {
    const unsigned current = p.config.nr_cpu_ids;
    std::set<unsigned> candidates;
    for (unsigned n : io::kNrCpusTable)
      if (n < current) candidates.insert(n);
    for (unsigned n = 1; n < std::min(current, 9u); ++n) candidates.insert(n);
    for (unsigned n : candidates) {  // ascending: the smallest that still fails
      Program candidate = p;
      candidate.config.nr_cpu_ids = n;
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
    }
    return false;
  }

  // Moves every deadline by the same amount, so that the smallest (circular
  // order from the first) becomes a small value; keeps their relative order.
  bool shift_deadlines(Program& p) {
    std::vector<u64*> fields;
    for (auto& op : p.ops)
      std::visit([&](auto& o) {
        for_each_field(o, [&](std::string_view, auto& f) {
          if constexpr (std::is_same_v<std::decay_t<decltype(f)>, u64>) fields.push_back(&f);
        });
      }, op);
    if (fields.empty()) return false;
    const u64 first = *fields.front();
    u64 lowest = first;
    for (u64* f : fields)
      if (kernel::dl_time_before(*f, lowest)) lowest = *f;
    if (lowest == 0) return false;
    for (u64 target : {u64{0}, u64{1}, u64{100}}) {
      Program candidate = p;
      std::size_t k = 0;
      for (auto& op : candidate.ops)
        std::visit([&](auto& o) {
          for_each_field(o, [&](std::string_view, auto& f) {
            if constexpr (std::is_same_v<std::decay_t<decltype(f)>, u64>) {
              f = *fields[k++] - lowest + target;
            }
          });
        }, op);
      if (fails(candidate)) {
        p = std::move(candidate);
        return true;
      }
    }
    return false;
  }

  template <class T>
  std::vector<T> candidates_for(const T& v, const Program& p) {
    std::vector<T> out;
    if constexpr (std::is_same_v<T, int>) {
      for (int c : {0, 1, 2, 3, v / 2, v - 1})
        if (c >= 0 && c < v) out.push_back(c);
    } else if constexpr (std::is_same_v<T, u64>) {
      std::set<u64> seen;
      for (const auto& op : p.ops)
        std::visit([&](const auto& o) {
          for_each_field(o, [&](std::string_view, const auto& f) {
            if constexpr (std::is_same_v<std::decay_t<decltype(f)>, u64>) seen.insert(f);
          });
        }, op);
      for (u64 c = 0; c < 8; ++c) seen.insert(c);
      seen.insert(v / 2);
      seen.insert(v - 1);
      for (u64 c : seen)
        if (c < v) out.push_back(c);  // towards small values and other deadlines
    } else if constexpr (std::is_same_v<T, bool>) {
      if (v) out.push_back(false);
    } else if constexpr (std::is_same_v<T, cpumask::Reg>) {
      for (unsigned r = 0; r < v.r; ++r) out.push_back(cpumask::Reg{r});
    } else if constexpr (std::is_same_v<T, Cpumask>) {
      const unsigned nr = p.config.nr_cpu_ids;
      kernel::NrCpuIdsScope scope(nr);
      if (!kernel::cpumask_empty(&v)) out.push_back(Cpumask{});
      unsigned count = 0;
      for (unsigned c = kernel::cpumask_first(&v); c < nr && count < 64;
           c = kernel::cpumask_next(static_cast<int>(c), &v), ++count) {
        Cpumask one{};
        kernel::cpumask_set_cpu(c, &one);
        if (kernel::cpumask_weight(&v) > 1) out.push_back(one);
        Cpumask without = v;
        kernel::cpumask_clear_cpu(c, &without);
        out.push_back(without);
      }
    }
    return out;
  }

  bool simplify_fields(Program& p) {
    bool changed = false;
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      std::size_t field_count = 0;
      std::visit([&](const auto& o) {
        for_each_field(o, [&](std::string_view, const auto&) { ++field_count; });
      }, p.ops[i]);
      for (std::size_t k = 0; k < field_count; ++k) {
        bool improved = true;
        while (improved) {
          improved = false;
          // Copy the field's current value, then try each candidate.
          std::visit([&](const auto& o) {
            std::size_t j = 0;
            for_each_field(o, [&](std::string_view, const auto& f) {
              if (j++ != k || improved) return;
              using T = std::decay_t<decltype(f)>;
              const T current = f;
              for (const T& c : candidates_for(current, p)) {
                Program candidate = p;
                std::visit([&](auto& co) {
                  std::size_t jj = 0;
                  for_each_field(co, [&](std::string_view, auto& cf) {
                    if constexpr (std::is_same_v<std::decay_t<decltype(cf)>, T>)
                      if (jj == k) cf = c;
                    ++jj;
                  });
                }, candidate.ops[i]);
                if (fails(candidate)) {
                  p = std::move(candidate);
                  improved = changed = true;
                  return;
                }
              }
            });
          }, p.ops[i]);
        }
      }
    }
    return changed;
  }

  Level level_;
  std::string signature_;
  typename S::Lockstep lockstep_;
  std::size_t runs_ = 0;
};

}  // namespace

std::optional<MinimizeResult> minimize(const io::AnyProgram& program, Level level,
                                       std::string* error) {
  return std::visit(
      [&](const auto& original) -> std::optional<MinimizeResult> {
        using P = std::decay_t<decltype(original)>;
        using S = typename P::Subject;
        auto lockstep = std::make_unique<typename S::Lockstep>();
        const Verdict v = run_lockstep<S>(*lockstep, original.config,
                                          std::span<const typename S::Op>(original.ops), level);
        if (!v.finding) {
          *error = fmt::format("nothing to minimise: equivalent at level {} after {} ops",
                               level_name(level), v.ops_run);
          return std::nullopt;
        }
        auto m = std::make_unique<Minimizer<S>>(level, v.finding->signature());
        P p = original;
        m->run(p);
        p.level = level;
        MinimizeResult r{io::AnyProgram(p), v.finding->signature(), original.ops.size(),
                         m->runs()};
        return r;
      },
      program);
}

}  // namespace diffsched::tools
