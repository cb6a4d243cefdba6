// The simple model of cpudl: a table cpu -> deadline and a free set, written
// from the API's meaning, not from the heap code. It is the third oracle:
// it catches bugs in code both heap sides share.
//
//   Model m;  m.reset(8);  m.apply(Set{3, 100});
//   m.find_permits(find_op, side_result, &why)  // is this answer allowed?
//
// Free-mask semantics modelled (kernel v4.9 .. v6.18 plus v6.19's clear):
//   set of a new CPU clears its free bit; set of a present CPU leaves it;
//   clear of a present CPU sets it, of an absent CPU leaves it;
//   clear_online(cpu, online) sets it to `online` whether or not present;
//   set_freecpu / clear_freecpu set / clear it.
// The kernel's callers only call cpudl_set_freecpu() for a CPU that is not in
// the heap (rq_online_dl runs after rq_offline_dl cleared it); with that
// contract, "in the heap => not free" always holds.
// CPU hotplug (cpu_down / cpu_up): the set of CPUs that are down is state.
// cpu_down is rq_offline_dl() (the CPU leaves the heap and the free set),
// cpu_up is rq_online_dl() of an empty runqueue (the CPU becomes free). The
// callers' contract: no op names a CPU that is down, except cpu_up; cpu_down
// needs an up CPU, cpu_up a down one. So a down CPU is never in the heap and
// never free, and cpudl_find() can never answer it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "subjects/cpudl/ops.h"
#include "subjects/cpudl/side.h"

namespace diffsched::cpudl {

class Model {
 public:
  void reset(unsigned nr_cpu_ids);
  // Which rule of the kernel callers' contract `op` breaks in this state, if
  // any: O(1) and allocation-free, so that the lockstep formats a reason only
  // when a trace asks for it (describe()).
  enum class Rule : std::uint8_t { kKept, kUpNotDown, kNamesDownCpu, kFreecpuInHeap };
  struct ContractCheck {
    Rule rule = Rule::kKept;
    int cpu = -1;              // the op's CPU, -1 if it names none (the lockstep reads it too)
    std::string_view op_name;  // the op's kName (static storage)
  };
  ContractCheck contract(const Op& op) const {
    ContractCheck c;
    contract(op, &c);
    return c;
  }
  void contract(const Op& op, ContractCheck* c) const;  // the same into *c
  static std::string describe(const ContractCheck& c);
  // Whether `op` keeps the kernel callers' contract in this state; if not,
  // `why` (when not null) says which.
  bool permits(const Op& op, std::string* why) const {
    const ContractCheck c = contract(op);
    if (c.rule == Rule::kKept) return true;
    if (why) *why = describe(c);
    return false;
  }
  void apply(const Op& op);
  // contract(op, c) and, when the op keeps the contract, apply(op), in one
  // dispatch on the op's type; for a find op also its find_args() into
  // *find, field by field. Returns whether `op` is a find. The lockstep's
  // per-op path: each dispatch on a random op's type is an indirect branch
  // that mostly mispredicts, and a struct returned through memory and read
  // back whole stalls store forwarding.
  bool contract_and_apply(const Op& op, ContractCheck* c, FindArgs* find);

  unsigned nr_cpu_ids() const { return nr_cpu_ids_; }
  std::size_t size() const { return size_; }
  bool contains(int cpu) const { return cpus_[static_cast<std::size_t>(cpu)].present; }
  std::optional<u64> dl_of(int cpu) const {
    const Entry& e = cpus_[static_cast<std::size_t>(cpu)];
    return e.present ? std::optional<u64>(e.dl) : std::nullopt;
  }
  bool has_dl(int cpu, u64 dl) const {
    const Entry& e = cpus_[static_cast<std::size_t>(cpu)];
    return e.present & (e.dl == dl);
  }
  // The maximum deadline under dl_time_before (latest), if not empty.
  // Cached with the CPUs holding it; a rescan (O(nr_cpu_ids)) only after the
  // last holder left (or any holder, while out of the 2^63 domain).
  std::optional<u64> max_dl() const { return max_valid_ ? max_ : rescan_max(); }
  bool is_down(int cpu) const { return (down_.bits[cpu / 64] >> (cpu % 64)) & 1UL; }
  bool is_free(int cpu) const {
    return (free_.bits[cpu / 64] >> (cpu % 64)) & 1UL;
  }
  const Cpumask& free_cpus() const { return free_; }
  // All live deadlines fit in a 2^63 window (dl_time_before is an order).
  bool in_domain() const;
  // Whether the live deadlines have fitted such a window after every op so
  // far (sticky: a heap built while they did not may break later, after the
  // far deadline left). Checked in O(nr_cpu_ids) on each set.
  bool always_in_domain() const { return always_in_domain_; }
  // Live (cpu, dl) pairs in CPU order.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t c = 0; c < cpus_.size(); ++c)
      if (cpus_[c].present) f(static_cast<int>(c), cpus_[c].dl);
  }

  // Is `result` an answer cpudl_find() may give in this state? The spec:
  //  - with a later_mask and a free CPU in the affinity: 1, later_mask = free & affinity;
  //  - else, with an empty heap: unspecified by the model (the kernel reads a
  //    stale slot 0); 0, or 1 with one CPU of the affinity, is accepted and
  //    `*stale` is set when it answered 1;
  //  - else: with M the CPUs holding the maximum deadline, 1 with one CPU of
  //    M & affinity is allowed iff task_dl is before the maximum and that set
  //    is not empty; 0 is allowed iff task_dl is not before the maximum or
  //    some CPU of M is outside the affinity (it may be the one at the root).
  //  - find_cap (a.cap), free branch: 1 with later_mask = the CPUs of
  //    free & affinity whose capacity runs dl_runtime within dl_deadline
  //    (dl_deadline * capacity >= dl_runtime * 1024); if there are none, the
  //    one of largest capacity, preferring the task's CPU, then the lowest.
  bool find_permits(const FindArgs& a, const FindResult& result, std::string* why,
                    bool* stale) const;
  // CPU capacities for find_cap (Config::capacity: repeated; empty = all 1024).
  void set_capacity(const std::vector<std::uint16_t>& capacity) { capacity_ = capacity; }
  // What later_mask a find_cap on the free branch must leave: from the free
  // CPUs of the affinity (not empty), into out's words below nr_cpu_ids.
  void capacity_pick(const Cpumask& candidates, const CapTask& task, Cpumask* out) const;
  // Whether the free branch decides this find (later_mask given and a free
  // CPU in the affinity).
  bool find_takes_free_branch(const Cpumask& affinity, bool with_mask) const;

 private:
  struct Entry {
    u64 dl = 0;
    bool present = false;
  };
  void erase(int cpu);
  template <class T>
  void apply_one(const T& op);
  template <class T>
  void contract_one(const T& op, ContractCheck* c) const;
  std::optional<u64> rescan_max() const;  // max_dl() after the cache was dropped

  unsigned nr_cpu_ids_ = 0;
  boost::container::static_vector<Entry, kernel::NR_CPUS> cpus_;  // one per CPU
  std::size_t size_ = 0;
  mutable std::optional<u64> max_;  // valid when max_valid_
  mutable bool max_valid_ = true;
  // The live CPUs whose deadline is max_ (valid when max_valid_), so that
  // find_permits() asks "some / every holder allowed?" word by word.
  mutable Cpumask max_holders_{};
  void drop_holder(int cpu);  // cpu no longer holds max_
  bool always_in_domain_ = true;
  Cpumask free_{};  // only the cpumask API touches it, like cp->free_cpus
  std::vector<std::uint16_t> capacity_;
  Cpumask down_{};  // CPUs taken down by cpu_down (not active, not online)
  // Every deadline set since reset, as offsets from the first one (anchor_):
  // the domain test scans only once this envelope spans 2^63 or more.
  std::optional<u64> anchor_;
  kernel::s64 env_lo_ = 0, env_hi_ = 0;
};

}  // namespace diffsched::cpudl
