#include "subjects/cpudl/model.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::cpudl {

using kernel::dl_time_before;
using kernel::s64;

namespace {
unsigned cpu_of(int cpu) { return static_cast<unsigned>(cpu); }
}  // namespace

void Model::reset(unsigned nr_cpu_ids) {
  nr_cpu_ids_ = nr_cpu_ids;
  cpus_.assign(nr_cpu_ids, Entry{});
  size_ = 0;
  max_.reset();
  max_valid_ = true;
  max_holders_ = Cpumask{};
  always_in_domain_ = true;
  free_ = Cpumask{};
  down_ = Cpumask{};
  anchor_.reset();
  env_lo_ = env_hi_ = 0;
}

template <class T>
void Model::contract_one(const T& o, ContractCheck* c) const {
  // CPU hotplug: what the kernel never does to a CPU that is down (or up).
  c->rule = Rule::kKept;
  c->cpu = -1;
  c->op_name = T::kName;
  if constexpr (requires { o.cpu; }) {
    c->cpu = o.cpu;
    if (o.cpu >= 0 && o.cpu < static_cast<int>(nr_cpu_ids_)) {
      const bool down = is_down(o.cpu);
      if constexpr (std::is_same_v<T, CpuUp>) {
        if (!down) c->rule = Rule::kUpNotDown;
        return;
      }
      if (down) {
        c->rule = Rule::kNamesDownCpu;
        return;
      }
    }
    if constexpr (std::is_same_v<T, SetFreecpu>)
      if (contains(o.cpu)) c->rule = Rule::kFreecpuInHeap;
  }
}

void Model::contract(const Op& op, ContractCheck* c) const {
  std::visit([&](const auto& o) { contract_one(o, c); }, op);
}

std::string Model::describe(const ContractCheck& c) {
  switch (c.rule) {
    case Rule::kKept:
      return {};
    case Rule::kUpNotDown:
      return fmt::format("cpu_up {}: CPU {} is not down", c.cpu, c.cpu);
    case Rule::kNamesDownCpu:
      return fmt::format("{} names CPU {}, which is down (cpu_down): no task runs or is queued "
                         "on an offline CPU, and hotplug takes a CPU down once",
                         c.op_name, c.cpu);
    case Rule::kFreecpuInHeap:
      return fmt::format(
          "cpudl_set_freecpu({}) while CPU {} is in the heap: rq_online_dl() only "
          "runs for a CPU that rq_offline_dl() removed",
          c.cpu, c.cpu);
  }
  return {};
}

void Model::drop_holder(int cpu) {
  kernel::cpumask_clear_cpu(cpu_of(cpu), &max_holders_);
  // Other holders keep the maximum where dl_time_before is an order (the
  // live deadlines fit a 2^63 window); else (or with none left) rescan, in
  // CPU order, as before.
  if (!always_in_domain_ || kernel::cpumask_empty(&max_holders_)) max_valid_ = false;
}

void Model::erase(int cpu) {
  Entry& e = cpus_[static_cast<std::size_t>(cpu)];
  if (!e.present) return;
  e.present = false;
  --size_;
  if (max_valid_ && max_ && e.dl == *max_) drop_holder(cpu);
}

template <class T>
void Model::apply_one(const T& o) {
  if constexpr (std::is_same_v<T, Set>) {
    Entry& e = cpus_[static_cast<std::size_t>(o.cpu)];
    // The CPU's old deadline: the op compares it with the new one
    // (v4.8's cpudl_change_key() picks up or down that way).
    const u64 old_dl = e.present ? e.dl : o.dl.value;
    // A holder of the maximum moved: handled below, once the domain is known.
    const bool holder_moved = e.present && max_valid_ && max_ && e.dl == *max_ && o.dl != e.dl;
    if (!e.present) {
      kernel::cpumask_clear_cpu(cpu_of(o.cpu), &free_);
      ++size_;
    }
    e.present = true;
    e.dl = o.dl;
    // The envelope of every deadline set since reset, as signed
    // offsets from the first: while it spans less than 2^63 the live
    // deadlines (a subset) fit in a window, without a scan.
    if (!anchor_) anchor_ = o.dl.value;
    const auto env_off = static_cast<s64>(o.dl.value - *anchor_);
    env_lo_ = std::min(env_lo_, env_off);
    env_hi_ = std::max(env_hi_, env_off);
    const bool envelope_fits =
        static_cast<u64>(env_hi_) - static_cast<u64>(env_lo_) < (u64{1} << 63);
    if (always_in_domain_ && !envelope_fits) {
      // Signed offsets from a member are exact inside a 2^63 window:
      // the set fits iff their spread is below 2^63. The set is the
      // union of the state before and after the op: the live deadlines
      // and the changed CPU's old one.
      const auto old_off = static_cast<s64>(old_dl - o.dl);
      s64 lo = std::min<s64>(0, old_off), hi = std::max<s64>(0, old_off);
      for_each([&](int, u64 dl) {
        const auto off = static_cast<s64>(dl - o.dl);
        lo = std::min(lo, off);
        hi = std::max(hi, off);
      });
      always_in_domain_ = static_cast<u64>(hi) - static_cast<u64>(lo) < (u64{1} << 63);
    }
    if (holder_moved) drop_holder(o.cpu);
    if (max_valid_ && (!max_ || dl_time_before(*max_, o.dl))) {
      max_ = o.dl;
      kernel::cpumask_clear(&max_holders_);
    }
    if (max_valid_ && o.dl == *max_) kernel::cpumask_set_cpu(cpu_of(o.cpu), &max_holders_);
  } else if constexpr (std::is_same_v<T, Clear>) {
    if (contains(o.cpu)) {
      erase(o.cpu);
      kernel::cpumask_set_cpu(cpu_of(o.cpu), &free_);
    }
  } else if constexpr (std::is_same_v<T, ClearOnline>) {
    erase(o.cpu);
    if (o.online)
      kernel::cpumask_set_cpu(cpu_of(o.cpu), &free_);
    else
      kernel::cpumask_clear_cpu(cpu_of(o.cpu), &free_);
  } else if constexpr (std::is_same_v<T, SetFreecpu>) {
    kernel::cpumask_set_cpu(cpu_of(o.cpu), &free_);
  } else if constexpr (std::is_same_v<T, ClearFreecpu>) {
    kernel::cpumask_clear_cpu(cpu_of(o.cpu), &free_);
  } else if constexpr (std::is_same_v<T, CpuDown>) {
    // rq_offline_dl(): out of the heap, not free.
    erase(o.cpu);
    kernel::cpumask_clear_cpu(cpu_of(o.cpu), &free_);
    kernel::cpumask_set_cpu(cpu_of(o.cpu), &down_);
  } else if constexpr (std::is_same_v<T, CpuUp>) {
    // rq_online_dl() of a runqueue without -dl tasks: free.
    kernel::cpumask_clear_cpu(cpu_of(o.cpu), &down_);
    kernel::cpumask_set_cpu(cpu_of(o.cpu), &free_);
  } else if constexpr (FindOp<T>) {
    // A find does not change the state.
  } else {
    static_assert(kUnhandled<T>, "Model::apply_one: a new cpudl op needs a case here");
  }
}

void Model::apply(const Op& op) {
  std::visit([this](const auto& o) { apply_one(o); }, op);
}

bool Model::contract_and_apply(const Op& op, ContractCheck* c, FindArgs* find) {
  return std::visit(
      [&]<class T>(const T& o) {
        contract_one(o, c);
        if (c->rule == Rule::kKept) apply_one(o);
        if constexpr (FindOp<T>) {
          const FindArgs a = o.find_args();
          find->dl = a.dl;
          find->affinity = a.affinity;
          find->with_mask = a.with_mask;
          // Field by field here too: copying the optional whole read back
          // 16-byte words of `a` that were just stored in smaller parts.
          if (a.cap)
            find->cap.emplace(CapTask{a.cap->cpu, a.cap->dl_runtime, a.cap->dl_deadline});
          else
            find->cap.reset();
        }
        return FindOp<T>;
      },
      op);
}

std::optional<u64> Model::rescan_max() const {
  max_.reset();
  for_each([&](int, u64 dl) {
    if (!max_ || dl_time_before(*max_, dl)) max_ = dl;
  });
  kernel::cpumask_clear(&max_holders_);
  for_each([&](int c, u64 dl) {
    if (dl == *max_) kernel::cpumask_set_cpu(cpu_of(c), &max_holders_);
  });
  max_valid_ = true;
  return max_;
}

bool Model::in_domain() const {
  boost::container::static_vector<u64, kernel::NR_CPUS> dls;
  for_each([&](int, u64 dl) { dls.push_back(dl); });
  return kernel::dl_window_fits(std::span<const u64>(dls.data(), dls.size()));
}

bool Model::find_takes_free_branch(const Cpumask& affinity, bool with_mask) const {
  Cpumask both;
  return with_mask && kernel::cpumask_and(&both, &free_, &affinity);
}

void Model::capacity_pick(const Cpumask& candidates, const CapTask& task, Cpumask* out) const {
  // Written from the meaning, bit by bit: the CPUs with enough capacity for
  // the task's bandwidth (floor(d * c / 1024) >= r  <=>  d * c >= r * 1024).
  auto cap = [&](unsigned c) -> unsigned long {
    return capacity_.empty() ? 1024 : capacity_[c % capacity_.size()];
  };
  auto has = [](const Cpumask& m, unsigned c) { return ((m.bits[c / 64] >> (c % 64)) & 1UL) != 0; };
  // Visits the candidates below nr_cpu_ids, set bit by set bit.
  auto for_each_candidate = [&](auto&& f) {
    for (unsigned w = 0; w < kernel::BITS_TO_LONGS(nr_cpu_ids_); ++w)
      for (unsigned long b = candidates.bits[w]; b; b &= b - 1) {
        const unsigned c = w * 64 + static_cast<unsigned>(std::countr_zero(b));
        if (c >= nr_cpu_ids_ || !f(c)) return;
      }
  };
  // Only out's words below nr_cpu_ids are written (the 1 KiB mask is never
  // cleared whole: this runs on every find_cap).
  const unsigned words = kernel::BITS_TO_LONGS(nr_cpu_ids_);
  if (capacity_.empty()) {
    // Every CPU's capacity is 1024: every candidate fits (d * 1024 >= r *
    // 1024), or none does and all tie for the largest (the bit by bit pass
    // below gives the same; this is the common case, on every find_cap).
    std::copy_n(candidates.bits, words, out->bits);
    if (task.dl_deadline >= task.dl_runtime) return;
    std::fill_n(out->bits, words, 0UL);
    const auto own = static_cast<unsigned>(task.cpu);
    unsigned pick = own < nr_cpu_ids_ && has(candidates, own) ? own : nr_cpu_ids_;
    for (unsigned w = 0; pick == nr_cpu_ids_ && w < words; ++w)
      if (candidates.bits[w]) pick = w * 64 + static_cast<unsigned>(std::countr_zero(candidates.bits[w]));
    if (pick < nr_cpu_ids_) out->bits[pick / 64] |= 1UL << (pick % 64);
    return;
  }
  std::fill_n(out->bits, words, 0UL);
  Cpumask& fit = *out;
  bool any_fit = false;
  unsigned long largest = 0;
  const auto need = static_cast<unsigned __int128>(task.dl_runtime) * 1024;
  for_each_candidate([&](unsigned c) {
    if (static_cast<unsigned __int128>(task.dl_deadline) * cap(c) >= need) {
      fit.bits[c / 64] |= 1UL << (c % 64);
      any_fit = true;
    }
    largest = std::max(largest, cap(c));
    return true;
  });
  if (any_fit) return;
  // None fits: the largest capacity; the task's CPU among those, else the lowest.
  const auto own = static_cast<unsigned>(task.cpu);
  unsigned pick = own < nr_cpu_ids_ && has(candidates, own) && cap(own) == largest ? own : nr_cpu_ids_;
  if (pick == nr_cpu_ids_)
    for_each_candidate([&](unsigned c) {
      if (cap(c) == largest) pick = c;
      return pick == nr_cpu_ids_;
    });
  if (pick < nr_cpu_ids_) out->bits[pick / 64] |= 1UL << (pick % 64);
}

bool Model::find_permits(const FindArgs& a, const FindResult& r, std::string* why,
                         bool* stale) const {
  *stale = false;
  const u64 task_dl = a.dl;
  const Cpumask& aff = *a.affinity;
  if (find_takes_free_branch(aff, r.with_mask)) {
    // Words below nr_cpu_ids only (cpumask_and() and capacity_pick() write
    // no others, and cpumask_equal() reads no others).
    Cpumask free_allowed, picked;
    kernel::cpumask_and(&free_allowed, &free_, &aff);
    if (a.cap) capacity_pick(free_allowed, *a.cap, &picked);
    const Cpumask& want = a.cap ? picked : free_allowed;
    if (r.ret != 1 || !kernel::cpumask_equal(&r.later_mask, &want)) {
      Cpumask shown{};
      kernel::cpumask_copy(&shown, &want);
      *why = fmt::format("a free CPU is in the affinity: expected 1 with later_mask {}{}",
                         io::format_value(shown),
                         a.cap ? " (the free CPUs the task fits by capacity, else the largest)"
                               : "");
      return false;
    }
    return true;
  }
  // The max branch: later_mask ends up empty or holding the one CPU chosen.
  const unsigned later_count = r.with_mask ? kernel::cpumask_weight(&r.later_mask) : 0;
  if (later_count > (r.ret == 1 ? 1u : 0u) || (r.with_mask && r.ret == 1 && later_count != 1)) {
    *why = fmt::format("later_mask must hold exactly {} CPU after return {}", r.ret, r.ret);
    return false;
  }
  const unsigned chosen = r.with_mask && r.ret == 1 ? kernel::cpumask_first(&r.later_mask)
                                                     : kernel::nr_cpu_ids;
  if (size_ == 0) {
    if (r.ret == 1) {
      *stale = true;
      if (chosen < kernel::nr_cpu_ids && !kernel::cpumask_test_cpu(chosen, &aff)) {
        *why = "the chosen CPU is not in the affinity";
        return false;
      }
    }
    return true;
  }
  const u64 max = *max_dl();
  const bool later_task = dl_time_before(task_dl, max);
  // M: the CPUs holding the maximum. A chosen CPU is checked on its own
  // (O(1)); "some CPU of M allowed" and "every CPU of M allowed" from M's
  // bits and the affinity's.
  bool any_allowed = false, all_allowed = true, chosen_ok = chosen >= kernel::nr_cpu_ids;
  if (!chosen_ok) {
    chosen_ok = chosen < nr_cpu_ids_ && has_dl(static_cast<int>(chosen), max) &&
                kernel::cpumask_test_cpu(chosen, &aff);
    any_allowed = chosen_ok;
  }
  // M is max_holders_ (kept with the maximum): word by word, O(nr_cpu_ids / 64).
  for (unsigned w = 0; w < kernel::BITS_TO_LONGS(nr_cpu_ids_); ++w) {
    any_allowed |= (max_holders_.bits[w] & aff.bits[w]) != 0;
    all_allowed &= (max_holders_.bits[w] & ~aff.bits[w]) == 0;
  }
  if (r.ret == 1) {
    if (!later_task) {
      *why = fmt::format("task deadline {} is not before the maximum {}: expected 0",
                         io::format_value(task_dl), io::format_value(max));
      return false;
    }
    if (!any_allowed) {
      *why = "no CPU with the maximum deadline is in the affinity: expected 0";
      return false;
    }
    if (!chosen_ok) {
      *why = fmt::format("CPU {} does not hold the maximum deadline {} or is not allowed",
                         chosen, io::format_value(max));
      return false;
    }
    return true;
  }
  if (r.ret == 0) {
    if (later_task && all_allowed) {
      *why = "every CPU with the maximum deadline is allowed and later: expected 1";
      return false;
    }
    return true;
  }
  *why = fmt::format("return value {} is neither 0 nor 1", r.ret);
  return false;
}

}  // namespace diffsched::cpudl
