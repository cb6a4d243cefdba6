#include "cpudl/model.h"

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::cpudl {

using kernel::dl_time_before;

Model::Bits to_bits(const Cpumask& m, unsigned nr_cpu_ids) {
  Model::Bits b;
  for (unsigned c = 0; c < nr_cpu_ids; ++c)
    if ((m.bits[c / 64] >> (c % 64)) & 1UL) b.set(c);
  return b;
}

void Model::reset(unsigned nr_cpu_ids) {
  nr_cpu_ids_ = nr_cpu_ids;
  dl_.clear();
  free_.reset();
}

bool Model::permits(const Op& op, std::string* why) const {
  if (const auto* o = std::get_if<SetFreecpu>(&op); o && contains(o->cpu)) {
    *why = fmt::format(
        "cpudl_set_freecpu({}) while CPU {} is in the heap: rq_online_dl() only "
        "runs for a CPU that rq_offline_dl() removed",
        o->cpu, o->cpu);
    return false;
  }
  return true;
}

void Model::apply(const Op& op) {
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Set>) {
          if (!contains(o.cpu)) free_.reset(static_cast<std::size_t>(o.cpu));
          dl_[o.cpu] = o.dl;
        } else if constexpr (std::is_same_v<T, Clear>) {
          if (dl_.erase(o.cpu)) free_.set(static_cast<std::size_t>(o.cpu));
        } else if constexpr (std::is_same_v<T, ClearOnline>) {
          dl_.erase(o.cpu);
          free_.set(static_cast<std::size_t>(o.cpu), o.online);
        } else if constexpr (std::is_same_v<T, SetFreecpu>) {
          free_.set(static_cast<std::size_t>(o.cpu));
        } else if constexpr (std::is_same_v<T, ClearFreecpu>) {
          free_.reset(static_cast<std::size_t>(o.cpu));
        }
        // Find and FindNomask do not change the state.
      },
      op);
}

std::optional<u64> Model::dl_of(int cpu) const {
  auto it = dl_.find(cpu);
  if (it == dl_.end()) return std::nullopt;
  return it->second;
}

std::optional<u64> Model::max_dl() const {
  std::optional<u64> best;
  for (const auto& [cpu, dl] : dl_)
    if (!best || dl_time_before(*best, dl)) best = dl;
  return best;
}

bool Model::in_domain() const {
  boost::container::static_vector<u64, kernel::NR_CPUS> dls;
  for (const auto& [cpu, dl] : dl_) dls.push_back(dl);
  return kernel::dl_window_fits(std::span<const u64>(dls.data(), dls.size()));
}

bool Model::find_takes_free_branch(const Cpumask& affinity, bool with_mask) const {
  return with_mask && (free_ & to_bits(affinity, nr_cpu_ids_)).any();
}

bool Model::find_permits(u64 task_dl, const Cpumask& affinity, const FindResult& r,
                         std::string* why, bool* stale) const {
  *stale = false;
  const Bits aff = to_bits(affinity, nr_cpu_ids_);
  const Bits later = to_bits(r.later_mask, nr_cpu_ids_);
  if (find_takes_free_branch(affinity, r.with_mask)) {
    const Bits want = free_ & aff;
    if (r.ret != 1 || later != want) {
      Cpumask w{};
      for (unsigned c = 0; c < nr_cpu_ids_; ++c)
        if (want[c]) kernel::cpumask_set_cpu(c, &w);
      *why = fmt::format("a free CPU is in the affinity: expected 1 with later_mask {}",
                         io::format_value(w));
      return false;
    }
    return true;
  }
  // The max branch: later_mask ends up empty or holding the one CPU chosen.
  if (r.with_mask && later.count() > (r.ret == 1 ? 1u : 0u)) {
    *why = fmt::format("later_mask must hold {} CPU after return {}", r.ret, r.ret);
    return false;
  }
  std::size_t chosen = kernel::NR_CPUS;
  if (r.with_mask && r.ret == 1) {
    if (later.count() != 1) {
      *why = "return 1 must leave the chosen CPU in later_mask";
      return false;
    }
    chosen = later._Find_first();
  }
  if (dl_.empty()) {
    if (r.ret == 1) {
      *stale = true;
      if (chosen != kernel::NR_CPUS && !aff[chosen]) {
        *why = "the chosen CPU is not in the affinity";
        return false;
      }
    }
    return true;
  }
  const u64 max = *max_dl();
  Bits at_max;
  for (const auto& [cpu, dl] : dl_)
    if (dl == max) at_max.set(static_cast<std::size_t>(cpu));
  const bool later_task = dl_time_before(task_dl, max);
  const Bits allowed = at_max & aff;
  if (r.ret == 1) {
    if (!later_task) {
      *why = fmt::format("task deadline {} is not before the maximum {}: expected 0",
                         io::format_value(task_dl), io::format_value(max));
      return false;
    }
    if (allowed.none()) {
      *why = "no CPU with the maximum deadline is in the affinity: expected 0";
      return false;
    }
    if (chosen != kernel::NR_CPUS && !allowed[chosen]) {
      *why = fmt::format("CPU {} does not hold the maximum deadline {} or is not allowed",
                         chosen, io::format_value(max));
      return false;
    }
    return true;
  }
  if (r.ret == 0) {
    if (later_task && allowed == at_max) {
      *why = "every CPU with the maximum deadline is allowed and later: expected 1";
      return false;
    }
    return true;
  }
  *why = fmt::format("return value {} is neither 0 nor 1", r.ret);
  return false;
}

}  // namespace diffsched::cpudl
