#include "subjects/cpudl/lockstep.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "engine/finding.h"

namespace diffsched::cpudl {

namespace {

// The same find answer: ret, and later_mask's whole words below nr_cpu_ids
// (differing bits beyond it make "not the same": the caller checks it itself).
bool same_answer(const FindResult& a, const FindResult& b, unsigned nr) {
  if (a.ret != b.ret || a.with_mask != b.with_mask) return false;
  unsigned long diff = 0;
  for (unsigned w = 0; a.with_mask && w < kernel::BITS_TO_LONGS(nr); ++w)
    diff |= a.later_mask.bits[w] ^ b.later_mask.bits[w];
  return diff == 0;
}

}  // namespace

Lockstep::Lockstep() {
  sides_.push_back(make_reference_side());
  sides_.push_back(make_optimized_side());
  init_sides();
}

Lockstep::Lockstep(std::vector<std::unique_ptr<Side>> sides) : sides_(std::move(sides)) {
  init_sides();
}

void Lockstep::init_sides() {
  for (const auto& s : sides_) {
    any_side_warns_ |= s->can_warn();
    any_capacity_aware_ |= s->capacity_aware();
    log_stores_.push_back(s->logs_stores());
    tail_guarded_.push_back(s->free_tail_guarded());
  }
  results_.resize(sides_.size());
  same_.assign(sides_.size(), 0);
  snapshots_.resize(sides_.size());
  logs_ = std::make_unique<kernel::StoreLog[]>(sides_.size());
}

void Lockstep::apply_bare(const Op& op) {
  for (std::size_t i = 0; i < sides_.size(); ++i) sides_[i]->apply(op, &results_[i]);
}

void Lockstep::take_snapshots() {
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    const HeapView h = sides_[i]->view();
    Snapshot& s = snapshots_[i];
    s.size = h.size;
    if (!log_stores_[i]) s.el.assign(h.elements, h.elements + h.nr_cpu_ids);
  }
}

void Lockstep::reset(const Config& config) {
  for (auto& s : sides_) {
    s->set_capacity(config.capacity);
    s->reset(config.nr_cpu_ids);
  }
  model_.reset(config.nr_cpu_ids);
  model_.set_capacity(config.capacity);
  skipped_ = false;
  skip_rule_ = {};
  take_snapshots();
}

void Lockstep::restore(std::span<const HeapView> states) {
  for (std::size_t i = 0; i < sides_.size(); ++i) sides_[i]->restore(states[i]);
  const HeapView& h = states[0];
  model_.reset(h.nr_cpu_ids);
  for (int slot = 0; slot < h.size; ++slot)
    model_.apply(Set{h.elements[slot].cpu, h.elements[slot].dl});
  for (unsigned c = 0; c < h.nr_cpu_ids; ++c)
    if (kernel::cpumask_test_cpu(c, h.free_cpus)) model_.apply(SetFreecpu{static_cast<int>(c)});
  skipped_ = false;
  skip_rule_ = {};
  take_snapshots();
}

namespace {

// find_cap runs only where every side has the capacity branch: the built-in
// sides do; a kernel file's side (kernel-check, can_warn()) only with its
// capacity branch on (--capacity: capacity_aware()), since a file from
// before v5.9 has none.
bool sides_run_find_cap(const std::vector<std::unique_ptr<Side>>& sides, std::string* why) {
  for (const auto& s : sides)
    if (s->can_warn() && !s->capacity_aware()) {
      *why = fmt::format("find_cap on side {}, whose capacity branch is off (kernel-check "
                         "runs find_cap only with --capacity)",
                         s->name());
      return false;
    }
  return true;
}

}  // namespace

void Lockstep::step(const Op& op, std::size_t index, Level level, Verdict& v) {
  // The contract check and the model's update in one dispatch on the op's
  // type (a find_cap skipped below leaves the model as it was: a find does
  // not change it).
  const bool find = model_.contract_and_apply(op, &skip_rule_, &find_args_);
  skipped_ = skip_rule_.rule != Model::Rule::kKept ||
             (any_side_warns_ && find && find_args_.cap &&
              !sides_run_find_cap(sides_, &skip_reason_));
  if (skipped_) {
    v.note(NoteKind::kContractSkip, index);
    return;
  }
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    // Incremental mode: the side's element stores go to its log.
    const bool log = mode_ == CheckMode::kIncremental && log_stores_[i];
    if (log) {
      logs_[i].clear();
      kernel::active_store_log = &logs_[i];
    }
    sides_[i]->apply(op, &results_[i]);
    kernel::active_store_log = nullptr;
  }
  // A WARN_ON() the op fired in a side (kernel-check candidates): the finding.
  for (std::size_t i = 0; any_side_warns_ && i < sides_.size(); ++i) {
    std::string warning = sides_[i]->take_warning();
    if (warning.empty()) continue;
    v.finding = warning_finding<Subject>(op, index, sides_[i]->name(), std::move(warning));
    return;
  }
  // A cheap pass says whether every state check passes (what changed, or one
  // fused pass over everything); only when it does not do the ordered,
  // detailed checks run to name the finding.
  const bool check_state = mode_ == CheckMode::kIncremental
                               ? !incremental_state_ok(find ? -1 : skip_rule_.cpu, level)
                               : !fast_state_ok(level);
  if (!check_state && !find) return;
  if (check_state && !check_side_invariants(op, index, v)) return;
  // A find whose answer is side 0's on every side passes the reference
  // comparison at any level (compare_with_model() skips those sides too).
  const bool same = note_same_answers() && !check_state;
  if (same && !any_capacity_aware_) {
    // Every side gave side 0's answer and none has its capacity branch on:
    // the model's verdict on side 0's answer is every side's, as in
    // compare_with_model(), without its per-side loop. If it fails,
    // compare_with_model() below names the finding.
    bool stale = false;
    if (model_.find_permits(find_args_, results_[0], &find_why_, &stale)) {
      if (stale) v.note(NoteKind::kStaleSlotFind, index);
      return;
    }
  }
  if (!same && !compare_with_reference(op, index, level, v, check_state)) return;
  compare_with_model(op, find ? &find_args_ : nullptr, index, v, check_state);
}

bool Lockstep::note_same_answers() {
  bool all = true;
  for (std::size_t i = 1; i < sides_.size(); ++i) {
    same_[i] = same_answer(results_[0], results_[i], model_.nr_cpu_ids());
    all = all && same_[i];
  }
  return all;
}

const std::string& Lockstep::skip_reason() const {
  if (skip_rule_.rule != Model::Rule::kKept) skip_reason_ = Model::describe(skip_rule_);
  return skip_reason_;
}

void Lockstep::close(std::size_t last_index, Level level, Verdict& v) {
  if (mode_ == CheckMode::kFull || v.finding || fast_state_ok(level)) return;
  // The incremental checks missed something: name it with the detailed checks.
  const Op none = FindNomask{};
  note_same_answers();
  if (!check_side_invariants(none, last_index, v) ||
      !compare_with_reference(none, last_index, level, v, true) ||
      !compare_with_model(none, nullptr, last_index, v, true)) {
    v.finding->op_kind = "close";
    v.finding->op_text = "(the full check that closes the sequence)";
    v.finding->detail = "found only by the closing full check: please report it, the "
                        "incremental checks should have seen it at the op that caused it";
  }
}

bool Lockstep::summary_ok(const HeapView& h, std::optional<u64> max, bool check_tail) const {
  static constexpr unsigned long kZero[kernel::BITS_TO_LONGS(kernel::NR_CPUS)] = {};
  const unsigned nr = model_.nr_cpu_ids();
  const unsigned words = kernel::BITS_TO_LONGS(nr);
  if (static_cast<std::size_t>(h.size) != model_.size() || h.nr_cpu_ids != nr || h.size < 0 ||
      h.size > static_cast<int>(nr))
    return false;
  if (h.size > 0 && h.elements[0].dl != *max) return false;
  // free_cpus: equal to the model's below nr_cpu_ids, zero beyond. The
  // model's bits at and beyond nr_cpu_ids are zero (it sets bits only through
  // cpumask_set_cpu(), which aborts there), so comparing whole words checks
  // both parts of the last one.
  const unsigned long* bits = h.free_cpus->bits;
  const unsigned long* want = model_.free_cpus().bits;
  unsigned long diff = 0;
  for (unsigned w = 0; w < words; ++w) diff |= bits[w] ^ want[w];
  if (diff) return false;
  return !check_tail ||
         !std::memcmp(bits + words, kZero, (kernel::BITS_TO_LONGS(kernel::NR_CPUS) - words) * 8);
}

bool Lockstep::collect_changes(std::size_t side, const HeapView& h, int op_cpu) {
  const unsigned nr = model_.nr_cpu_ids();
  constexpr std::size_t kItem = sizeof(kernel::cpudl_item<kernel::Uncounted>);
  constexpr std::size_t kCpuField = offsetof(kernel::cpudl_item<kernel::Uncounted>, cpu);
  constexpr std::size_t kIdxField = offsetof(kernel::cpudl_item<kernel::Uncounted>, idx);
  Snapshot& snap = snapshots_[side];
  const auto* el = h.elements;
  auto& slots = changed_slots_;
  auto& cpus = changed_cpus_;
  // A value read from a field: a slot or CPU number only if below nr_cpu_ids.
  auto valid = [nr](int value) { return static_cast<unsigned>(value) < nr; };
  slots.clear();
  cpus.clear();
  if (log_stores_[side] && logs_[side].count == 0 && !logs_[side].overflow &&
      h.size == snap.size) {
    // No element store and the same size (a find, a free-mask op): the
    // elements are as they were after the last op. The lists hold the op's
    // CPU only (below, the loops would find nothing else), without the stamps.
    if (valid(op_cpu)) cpus.push_back(op_cpu);
    return true;
  }
  // Each slot and CPU is listed once per op: a swap-based heapify names each
  // slot and CPU of its path about four times. A stamp per slot and CPU says
  // whether this call listed it already (no clearing per op; all cleared
  // when the 32-bit epoch wraps).
  if (++epoch_ == 0) {
    slot_stamp_.fill(0);
    cpu_stamp_.fill(0);
    epoch_ = 1;
  }
  const std::uint32_t epoch = epoch_;
  auto add_slot = [&](int sl) {
    if (slot_stamp_[static_cast<unsigned>(sl)] == epoch) return;
    slot_stamp_[static_cast<unsigned>(sl)] = epoch;
    slots.push_back(sl);
  };
  auto add_cpu = [&](int cpu) {
    if (cpu_stamp_[static_cast<unsigned>(cpu)] == epoch) return;
    cpu_stamp_[static_cast<unsigned>(cpu)] = epoch;
    cpus.push_back(cpu);
  };
  // The op's CPU. It is also the only CPU whose free bit the op may change:
  // the model changes no other (Model::apply), summary_ok() has just checked
  // that the side's free mask equals the model's, and before the op it did
  // too; so no pass over the free mask is needed to find changed bits.
  if (valid(op_cpu)) add_cpu(op_cpu);
  if (log_stores_[side]) {
    // What the op wrote, from the store log: each slot whose dl or cpu it
    // wrote and the CPU that slot held before; each CPU whose idx it wrote
    // and the slot that idx named before. Every relation an invariant states
    // (slot <-> CPU back-pointers, parent <-> child order) that involves a
    // written field has an end in these lists.
    const kernel::StoreLog& log = logs_[side];
    if (log.overflow) return false;
    const auto base = reinterpret_cast<std::uintptr_t>(el);
    for (std::size_t k = 0; k < log.count; ++k) {
      const auto off = reinterpret_cast<std::uintptr_t>(log.stores[k].where) - base;
      if (off >= nr * kItem) return false;  // not an element below nr_cpu_ids
      const auto index = static_cast<int>(off / kItem);
      const int old = static_cast<int>(log.stores[k].old);
      if (off % kItem == kIdxField) {
        add_cpu(index);
        if (valid(old)) add_slot(old);
        continue;
      }
      add_slot(index);
      if (off % kItem == kCpuField && valid(old)) add_cpu(old);
    }
  } else {
    // A side without a log: diff its elements against the copy (64-byte
    // chunks first).
    const auto* old = snap.el.data();
    if (std::memcmp(el, old, nr * kItem) != 0) {
      for (unsigned base = 0; base < nr; base += 4) {
        const unsigned n = std::min(4u, nr - base);
        if (std::memcmp(el + base, old + base, n * kItem) == 0) continue;
        for (unsigned j = base; j < base + n; ++j) {
          if (el[j].idx != old[j].idx) {
            add_cpu(static_cast<int>(j));
            if (valid(old[j].idx)) add_slot(old[j].idx);
          }
          if (el[j].cpu != old[j].cpu || el[j].dl != old[j].dl) {
            add_slot(static_cast<int>(j));
            if (valid(old[j].cpu)) add_cpu(old[j].cpu);
          }
        }
        std::memcpy(snap.el.data() + base, el + base, n * kItem);  // the copy follows
      }
    }
  }
  // Slots that entered or left the heap, and the CPUs they hold (a CPU whose
  // slot fell beyond the new size must have left).
  for (int sl = std::min(snap.size, h.size); sl < std::max(snap.size, h.size); ++sl) {
    add_slot(sl);
    if (valid(el[sl].cpu)) add_cpu(el[sl].cpu);
  }
  snap.size = h.size;  // the snapshot follows the side (a failed check ends the run)
  return true;
}

bool Lockstep::incremental_state_ok(int op_cpu, Level level) {
  const auto max = model_.max_dl();
  const bool exact = level == Level::kExact && sides_.size() >= 2;
  const kernel::cpudl_item<kernel::Uncounted>* ref = nullptr;  // side 0's elements (exact)
  for (std::size_t side = 0; side < sides_.size(); ++side) {
    const HeapView h = sides_[side]->view();
    const auto* el = h.elements;
    if (!summary_ok(h, max, !tail_guarded_[side])) return false;
    if (!collect_changes(side, h, op_cpu)) {
      // Cannot tell what changed (a log overflowed): this op gets the full check.
      if (!fast_state_ok(level)) return false;
      take_snapshots();
      return true;
    }
    if (side > 0 && exact) {
      // Equal before the op: compare what either side changed. Equal after
      // it too, the side's invariants are side 0's, which passed: every
      // relation the op could break has a field that changed, and side 0's
      // lists hold every field side 0 wrote.
      for (const auto* list : {&changed_slots_, &ref_changed_slots_})
        for (int sl : *list)
          if (sl < h.size && (el[sl].cpu != ref[sl].cpu || el[sl].dl != ref[sl].dl)) return false;
      for (const auto* list : {&changed_cpus_, &ref_changed_cpus_})
        for (int cpu : *list)
          if (el[cpu].idx != ref[cpu].idx) return false;
      continue;
    }
    // A find leaves both lists empty (collect_changes()' no-store path).
    if ((!changed_slots_.empty() || !changed_cpus_.empty()) && !changes_ok(h)) return false;
    if (exact) {
      ref = el;
      ref_changed_slots_ = changed_slots_;
      ref_changed_cpus_ = changed_cpus_;
    }
  }
  return true;  // collect_changes() moved the snapshots on
}

// The invariants at every slot and CPU collect_changes() listed.
bool Lockstep::changes_ok(const HeapView& h) const {
  const unsigned nr = model_.nr_cpu_ids();
  const auto* el = h.elements;
  const unsigned long* bits = h.free_cpus->bits;
  bool ok = true;
  for (int s : changed_slots_) {
    if (s >= h.size) continue;
    const int cpu = el[s].cpu;
    const auto ucpu = static_cast<unsigned>(cpu);
    if (ucpu >= nr) return false;
    ok &= el[cpu].idx == s;
    ok &= !((bits[ucpu / 64] >> (ucpu % 64)) & 1UL);
    ok &= model_.has_dl(cpu, el[s].dl);
    ok &= !(s > 0 && kernel::dl_time_before(el[kernel::parent(s)].dl, el[s].dl));
    const int l = kernel::left_child(s), r = kernel::right_child(s);
    ok &= !(l < h.size && kernel::dl_time_before(el[s].dl, el[l].dl));
    ok &= !(r < h.size && kernel::dl_time_before(el[s].dl, el[r].dl));
  }
  for (int cpu : changed_cpus_) {
    const int idx = el[cpu].idx;
    const auto ucpu = static_cast<unsigned>(cpu);
    if (idx == kernel::IDX_INVALID) {
      ok &= !model_.contains(cpu);
      continue;
    }
    if (static_cast<unsigned>(idx) >= static_cast<unsigned>(h.size)) return false;
    ok &= model_.contains(cpu) && el[idx].cpu == cpu && model_.has_dl(cpu, el[idx].dl);
    ok &= !((bits[ucpu / 64] >> (ucpu % 64)) & 1UL);
  }
  return ok;
}

bool Lockstep::fast_state_ok(Level level) const {
  const unsigned nr = model_.nr_cpu_ids();
  const auto max = model_.max_dl();
  const HeapView ref = sides_[0]->view();
  for (const auto& side : sides_) {
    const HeapView h = side->view();
    const auto* el = h.elements;
    if (!summary_ok(h, max)) return false;
    const unsigned long* bits = h.free_cpus->bits;
    // Back-pointers: exactly `size` CPUs have one (4 chains).
    int v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    unsigned c = 0;
    for (; c + 4 <= nr; c += 4) {
      v0 += el[c].idx != kernel::IDX_INVALID;
      v1 += el[c + 1].idx != kernel::IDX_INVALID;
      v2 += el[c + 2].idx != kernel::IDX_INVALID;
      v3 += el[c + 3].idx != kernel::IDX_INVALID;
    }
    for (; c < nr; ++c) v0 += el[c].idx != kernel::IDX_INVALID;
    if (v0 + v1 + v2 + v3 != h.size) return false;
    // Every slot: CPU in range and pointing back, heap order, not free, and
    // the model's deadline for that CPU.
    bool ok = true;
    for (int i = 0; i < h.size; ++i) {
      const int cpu = el[i].cpu;
      const auto ucpu = static_cast<unsigned>(cpu);
      if (ucpu >= nr) return false;
      ok &= el[cpu].idx == i;
      ok &= !((bits[ucpu / 64] >> (ucpu % 64)) & 1UL);
      ok &= model_.has_dl(cpu, el[i].dl);
    }
    for (int i = 1; i < h.size; ++i)
      ok &= !kernel::dl_time_before(el[kernel::parent(i)].dl, el[i].dl);
    if (!ok) return false;
    if (level == Level::kExact && side.get() != sides_[0].get()) {
      if (std::memcmp(el, ref.elements, static_cast<std::size_t>(h.size) * sizeof(*el)) != 0)
        return false;  // slots [0, size): dl, cpu and idx bytes (idx checked below anyway)
      for (unsigned cpu = 0; cpu < nr; ++cpu)
        if (el[cpu].idx != ref.elements[cpu].idx) return false;
    }
  }
  return true;
}

}  // namespace diffsched::cpudl
