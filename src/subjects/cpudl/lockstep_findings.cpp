// The lockstep's detailed checks (subjects/cpudl/lockstep.h): run only when
// the cheap checks of Lockstep::step() fail, when close() names what its
// full check found, or for a find the fast path does not judge (a side with
// its capacity branch on, or answers that differ); in the order that names
// the finding: each side's invariants, each side against the reference at
// the level, each side against the model.
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "engine/finding.h"
#include "io/text.h"
#include "subjects/cpudl/lockstep.h"

namespace diffsched::cpudl {

namespace {

std::string format_member(const HeapView& h, int cpu) {
  return h.contains(cpu) ? fmt::format("in heap, dl {}", io::format_value(h.dl_of(cpu)))
                         : std::string("not in heap");
}

std::string format_find(const FindResult& r) {
  if (!r.with_mask) return fmt::format("return {}", r.ret);
  return fmt::format("return {}, later_mask {}", r.ret, io::format_value(r.later_mask));
}

}  // namespace

bool Lockstep::check_side_invariants(const Op& op, std::size_t index, Verdict& v) {
  for (const auto& s : sides_) {
    if (auto viol = check_invariants(s->view())) {
      Finding f = make_finding<Subject>(FindingKind::kInvariant, op, index,
                                        {s->name(), "", viol->invariant, viol->field});
      f.where = std::move(viol->where);
      f.check_file = viol->file;
      f.check_line = viol->line;
      f.actual = std::move(viol->values);
      v.finding = std::move(f);
      return false;
    }
  }
  return true;
}

bool Lockstep::compare_with_reference(const Op& op, std::size_t index, Level level,
                                      Verdict& v, bool check_state) {
  const HeapView a = sides_[0]->view();
  const std::string_view ref = sides_[0]->name();
  const std::string_view check = level_name(level);
  for (std::size_t i = 1; i < sides_.size(); ++i) {
    const HeapView b = sides_[i]->view();
    auto fail = [&](std::string_view field, std::string where, std::string expected,
                    std::string actual, unsigned line = __builtin_LINE()) {
      Finding f = make_finding<Subject>(FindingKind::kDivergence, op, index,
                                        {sides_[i]->name(), ref, check, field}, __FILE__, line);
      f.where = std::move(where);
      f.expected = std::move(expected);
      f.actual = std::move(actual);
      v.finding = std::move(f);
      return false;
    };
    if (check_state && a.size != b.size)
      return fail("size", "", fmt::format("{}", a.size), fmt::format("{}", b.size));
    if (!check_state) {
      // state already known good
    } else if (level == Level::kExact) {
      for (int s = 0; s < a.size; ++s) {
        const auto& x = a.elements[s];
        const auto& y = b.elements[s];
        if (x.cpu != y.cpu || x.dl != y.dl) {
          fail(x.cpu != y.cpu ? "slot.cpu" : "slot.dl", fmt::format("slot {}", s),
               fmt::format("{}:{}", x.cpu, io::format_value(x.dl)),
               fmt::format("{}:{}", y.cpu, io::format_value(y.dl)));
          if (x.dl == y.dl && b.contains(x.cpu) && b.dl_of(x.cpu) == x.dl)
            v.finding->detail = fmt::format(
                "CPUs {} and {} have the same deadline {}; the sides put them in a different "
                "order. The hole-based cpudl_heapify_up() moves an item above a parent with an "
                "equal deadline (it stops only below a strictly later one); the swap-based one "
                "does not. Same CPUs and deadlines: check level deadline with --level deadline.",
                x.cpu, y.cpu, io::format_value(x.dl));
          return false;
        }
      }
      for (unsigned c = 0; c < a.nr_cpu_ids; ++c)
        if (a.elements[c].idx != b.elements[c].idx)
          return fail("idx", fmt::format("cpu {}", c), fmt::format("{}", a.elements[c].idx),
                      fmt::format("{}", b.elements[c].idx));
    } else {
      // Same size and both sides' back-pointers checked: walking a's slots
      // and finding each CPU in b with the same deadline is O(size) and
      // proves equal membership and deadlines.
      for (int slot = 0; slot < a.size; ++slot) {
        const int cpu = a.elements[slot].cpu;
        if (!b.contains(cpu) || b.dl_of(cpu) != a.elements[slot].dl)
          return fail(b.contains(cpu) ? "dl" : "member", fmt::format("cpu {}", cpu),
                      format_member(a, cpu), format_member(b, cpu));
      }
      if (a.size > 0 && a.elements[0].dl != b.elements[0].dl)
        return fail("max_dl", "slot 0", io::format_value(a.elements[0].dl),
                    io::format_value(b.elements[0].dl));
    }
    if (check_state && !kernel::cpumask_equal(a.free_cpus, b.free_cpus))
      return fail("free_cpus", "", io::format_value(*a.free_cpus),
                  io::format_value(*b.free_cpus));
    if (!is_find(op)) continue;

    const FindResult& ra = results_[0];
    const FindResult& rb = results_[i];
    const bool masks_equal = !ra.with_mask || kernel::cpumask_equal(&ra.later_mask, &rb.later_mask);
    if (ra.ret == rb.ret && masks_equal) continue;
    if (level == Level::kExact)
      return fail(ra.ret != rb.ret ? "find.ret" : "find.later_mask", "", format_find(ra),
                  format_find(rb));
    // Level deadline: the free branch is deterministic; in the max branch the
    // answer depends on which CPU sits at the root, and sides may differ
    // there only between CPUs of equal (maximum) deadline.
    const FindArgs args = *find_args(op);
    if (model_.find_takes_free_branch(*args.affinity, ra.with_mask))
      return fail("find.later_mask", "", format_find(ra), format_find(rb));
    const bool same_root_dl = a.elements[0].dl == b.elements[0].dl;
    if (ra.ret == rb.ret && same_root_dl) continue;  // other CPU, same deadline
    if (same_root_dl && a.elements[0].cpu != b.elements[0].cpu) {
      v.note(NoteKind::kTieAccepted, index);
      continue;
    }
    return fail(ra.ret != rb.ret ? "find.ret" : "find.dl", "",
                fmt::format("{} (root {}:{})", format_find(ra), a.elements[0].cpu,
                            io::format_value(a.elements[0].dl)),
                fmt::format("{} (root {}:{})", format_find(rb), b.elements[0].cpu,
                            io::format_value(b.elements[0].dl)));
  }
  return true;
}

bool Lockstep::compare_with_model(const Op& op, const FindArgs* find, std::size_t index,
                                  Verdict& v, bool check_state) {
  const u64 max_dl = check_state ? model_.max_dl().value_or(0) : 0;
  bool stale_noted = false;
  for (std::size_t i = 0; i < sides_.size(); ++i) {
    const HeapView h = check_state ? sides_[i]->view() : HeapView{};  // read only then
    auto fail = [&](std::string_view field, std::string where, std::string expected,
                    std::string actual, unsigned line = __builtin_LINE()) {
      Finding f = make_finding<Subject>(FindingKind::kModelMismatch, op, index,
                                        {sides_[i]->name(), "model", "model", field}, __FILE__,
                                        line);
      f.where = std::move(where);
      f.expected = std::move(expected);
      f.actual = std::move(actual);
      v.finding = std::move(f);
      return false;
    };
    if (check_state) {
      if (static_cast<std::size_t>(h.size) != model_.size())
        return fail("size", "", fmt::format("{}", model_.size()), fmt::format("{}", h.size));
      // Same size, and every slot's CPU in the model with the same deadline:
      // the same set (O(size log size)).
      for (int slot = 0; slot < h.size; ++slot) {
        const int cpu = h.elements[slot].cpu;
        const auto want = model_.dl_of(cpu);
        if (!want || *want != h.elements[slot].dl)
          return fail(want ? "dl" : "member", fmt::format("cpu {}", cpu),
                      want ? fmt::format("in heap, dl {}", io::format_value(*want))
                           : std::string("not in heap"),
                      format_member(h, cpu));
      }
      if (h.size > 0 && h.elements[0].dl != max_dl)
        return fail("max_dl", "slot 0", io::format_value(max_dl),
                    fmt::format("{} (cpu {})", io::format_value(h.elements[0].dl),
                                h.elements[0].cpu));
      if (!kernel::cpumask_equal(h.free_cpus, &model_.free_cpus()))
        return fail("free_cpus", "", io::format_value(model_.free_cpus()),
                    io::format_value(*h.free_cpus));
    }
    if (!find) continue;
    const FindArgs& args = *find;
    // The model's verdict depends on the answer, the op and the capacity
    // branch only: a side that gave side 0's answer (which passed) passes.
    if (i > 0 && same_[i] && sides_[i]->capacity_aware() == sides_[0]->capacity_aware())
      continue;
    const Cpumask* affinity = args.affinity;
    // A plain find on a side whose capacity branch is on (kernel-check
    // --capacity): the model knows neither its capacities nor its task.
    if (!args.cap && sides_[i]->capacity_aware() &&
        model_.find_takes_free_branch(*affinity, results_[i].with_mask)) {
      const FindResult& r = results_[i];
      Cpumask allowed{};
      kernel::cpumask_and(&allowed, &model_.free_cpus(), affinity);
      bool inside = r.ret == 1 && !kernel::cpumask_empty(&r.later_mask);
      for (unsigned w = 0; inside && w < kernel::BITS_TO_LONGS(kernel::NR_CPUS); ++w)
        inside = !(r.later_mask.bits[w] & ~allowed.bits[w]);
      if (!inside)
        return fail("find", "",
                    fmt::format("return 1, later_mask a non-empty part of free & affinity {} "
                                "(capacity-aware find)", io::format_value(allowed)),
                    format_find(r));
      continue;
    }
    std::string why;
    bool stale = false;
    if (!model_.find_permits(args, results_[i], &why, &stale))
      return fail("find", "", why, format_find(results_[i]));
    if (stale && !stale_noted) {
      v.note(NoteKind::kStaleSlotFind, index);
      stale_noted = true;
    }
  }
  return true;
}

}  // namespace diffsched::cpudl
