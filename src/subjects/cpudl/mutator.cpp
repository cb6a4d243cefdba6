// cpudl's op-level mutations (src/mutator/mutator.h): runs of `set`s that
// fill the heap to a chosen size in a chosen order, deadlines chosen relative
// to the heap at that point of the program, items of chosen slots cleared,
// CPUs at boundary values, free-CPU runs and pinned finds, and the whole
// program's deadlines shifted across 2^63 or 2^64. Where an item sits is
// known from a small swap-based heap run alongside (MiniHeap), as
// cpudl_set()/cpudl_clear() of the reference keep it.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "mutator/ops.h"
#include "subjects/cpudl/ops.h"

namespace diffsched::mutator {

namespace {

using cpudl::Op;
constexpr u64 k63 = u64{1} << 63;

bool later(u64 a, u64 b) { return static_cast<std::int64_t>(b - a) < 0; }  // dl_time_before(b, a)

// The heap as the reference keeps it: slot -> (cpu, dl), cpu -> slot.
struct MiniHeap {
  struct Item {
    int cpu;
    u64 dl;
  };
  std::vector<Item> slots;
  std::vector<int> idx;
  explicit MiniHeap(unsigned nr) : idx(nr, -1) {}

  static int parent(int i) { return (i - 1) / 2; }
  void exchange(int a, int b) {
    std::swap(slots[static_cast<std::size_t>(a)], slots[static_cast<std::size_t>(b)]);
    idx[static_cast<std::size_t>(slots[static_cast<std::size_t>(a)].cpu)] = a;
    idx[static_cast<std::size_t>(slots[static_cast<std::size_t>(b)].cpu)] = b;
  }
  u64 dl_at(int i) const { return slots[static_cast<std::size_t>(i)].dl; }
  void up(int i) {
    while (i > 0 && later(dl_at(i), dl_at(parent(i)))) {
      exchange(i, parent(i));
      i = parent(i);
    }
  }
  void down(int i) {
    const int n = static_cast<int>(slots.size());
    for (;;) {
      int l = 2 * i + 1, r = l + 1, m = i;
      if (l < n && later(dl_at(l), dl_at(m))) m = l;
      if (r < n && later(dl_at(r), dl_at(m))) m = r;
      if (m == i) return;
      exchange(i, m);
      i = m;
    }
  }
  void set(int cpu, u64 dl) {
    int& at = idx[static_cast<std::size_t>(cpu)];
    if (at < 0) {
      slots.push_back({cpu, dl});
      at = static_cast<int>(slots.size()) - 1;
      up(at);
    } else {
      slots[static_cast<std::size_t>(at)].dl = dl;
      up(at);
      down(idx[static_cast<std::size_t>(cpu)]);
    }
  }
  void clear(int cpu) {
    const int at = idx[static_cast<std::size_t>(cpu)];
    if (at < 0) return;
    const int last = static_cast<int>(slots.size()) - 1;
    exchange(at, last);
    slots.pop_back();
    idx[static_cast<std::size_t>(cpu)] = -1;
    if (at < last) {
      up(at);
      down(at);
    }
  }
  void apply(const Op& op) {
    if (const auto* s = std::get_if<cpudl::Set>(&op)) set(s->cpu, s->dl);
    else if (const auto* c = std::get_if<cpudl::Clear>(&op)) clear(c->cpu);
    else if (const auto* co = std::get_if<cpudl::ClearOnline>(&op)) clear(co->cpu);
    else if (const auto* d = std::get_if<cpudl::CpuDown>(&op)) clear(d->cpu);
  }
};

MiniHeap heap_before(const std::vector<Op>& ops, std::size_t at, unsigned nr) {
  MiniHeap h(nr);
  for (std::size_t i = 0; i < at && i < ops.size(); ++i) h.apply(ops[i]);
  return h;
}

// Some deadline of the program (or 0).
u64 some_deadline(const std::vector<Op>& ops, Rng& rng) {
  for (int tries = 0; tries < 8 && !ops.empty(); ++tries)
    if (const auto* s = std::get_if<cpudl::Set>(&ops[rng.below(ops.size())])) return s->dl;
  return 0;
}

// A deadline relative to the heap for an item at slot `slot` (the slot a new
// item takes is h.slots.size()): equal to / just above / just below the root,
// its parent, its grandparent, between those two, or another item.
u64 relative_deadline(const MiniHeap& h, int slot, Rng& rng) {
  const int n = static_cast<int>(h.slots.size());
  if (n == 0) return rng.one_in(2) ? 0 : k63 - rng.below(32);
  const u64 nudge = rng.one_in(4) ? 0 : (rng.one_in(2) ? 1 : u64{1} + rng.below(1u << 16));
  const auto around = [&](u64 v) {
    switch (rng.below(3)) {
      case 0: return v + nudge;
      case 1: return v - nudge;
      default: return v;
    }
  };
  const int p = slot > 0 ? MiniHeap::parent(slot) : 0;
  const int g = p > 0 ? MiniHeap::parent(p) : 0;
  switch (rng.below(7)) {
    case 0: return around(h.dl_at(0));
    case 1: return around(h.dl_at(p));
    case 2: return around(h.dl_at(g));
    case 3: {  // strictly between parent and grandparent, when there is room
      const u64 lo = h.dl_at(p), hi = h.dl_at(g);
      return hi - lo > 1 ? lo + 1 + rng.below(hi - lo - 1) : around(hi);
    }
    case 4: {  // below every item
      u64 lo = h.dl_at(0);
      for (const auto& it : h.slots) lo = later(lo, it.dl) ? it.dl : lo;
      return lo - 1 - rng.below(4);
    }
    case 5: return around(h.dl_at(static_cast<int>(rng.below(static_cast<u64>(n)))));
    default: return around(h.dl_at(n - 1));
  }
}

// A slot worth moving or clearing: the root, the last, a deep one, any.
int chosen_slot(const MiniHeap& h, Rng& rng) {
  const int n = static_cast<int>(h.slots.size());
  switch (rng.below(4)) {
    case 0: return 0;
    case 1: return n - 1;
    case 2: return n / 2 + static_cast<int>(rng.below(static_cast<u64>(n - n / 2)));
    default: return static_cast<int>(rng.below(static_cast<u64>(n)));
  }
}

// A run of sets that fills the heap: `count` CPUs in a chosen CPU order,
// deadlines in a chosen order around an anchor.
std::vector<Op> fill_run(unsigned nr, unsigned count, u64 anchor, Rng& rng) {
  std::vector<int> cpus(nr);
  std::iota(cpus.begin(), cpus.end(), 0);
  switch (rng.below(4)) {
    case 0: break;                                   // ascending CPUs
    case 1: std::reverse(cpus.begin(), cpus.end()); break;
    case 2: std::rotate(cpus.begin(), cpus.begin() + rng.below(nr), cpus.end()); break;
    default: rng.shuffle(cpus); break;
  }
  const u64 step = rng.one_in(2) ? 1 : rng.one_in(2) ? 1 + rng.below(256) : u64{1} << rng.below(40);
  const unsigned order = static_cast<unsigned>(rng.below(7));
  std::vector<Op> run;
  run.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    u64 dl = anchor;
    switch (order) {
      case 0: dl = anchor + i * step; break;                       // ascending: each new max
      case 1: dl = anchor - i * step; break;                       // descending
      case 2: break;                                               // equal keys
      case 3: dl = i % 2 ? anchor - i * step : anchor + i * step; break;  // interleaved
      case 4: dl = anchor + (i % 8) * step; break;                 // sawtooth
      case 5: dl = i + 1 == count ? anchor + rng.below(u64{2} * count * step) - count * step
                                  : anchor + i * step; break;       // ascending, last anywhere
      default: dl = anchor + rng.below(u64{2} * count * step + 1) - count * step; break;
    }
    run.push_back(cpudl::Set{cpus[i], dl});
  }
  return run;
}

bool insert_fill(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b) {
  const unsigned nr = p.config.nr_cpu_ids;
  if (p.ops.size() >= b.max_ops) return false;
  const auto room = static_cast<unsigned>(std::min<std::size_t>(b.max_ops - p.ops.size(), nr));
  const unsigned count = interesting_count(rng, room);
  const std::size_t at = rng.one_in(2) ? 0 : rng.below(p.ops.size() + 1);
  u64 anchor = 0;
  switch (rng.below(5)) {
    case 0: anchor = some_deadline(p.ops, rng); break;
    case 1: anchor = k63 - count / 2; break;         // straddles 2^63
    case 2: anchor = u64{0} - count / 2; break;      // straddles 2^64
    case 3: anchor = rng.next(); break;
    default: anchor = 1000; break;
  }
  const std::vector<Op> run = fill_run(nr, count, anchor, rng);
  p.ops.insert(p.ops.begin() + static_cast<std::ptrdiff_t>(at), run.begin(), run.end());
  return true;
}

// A set somewhere gets a deadline relative to the heap just before it.
bool retarget_set(io::Program<cpudl::Subject>& p, Rng& rng) {
  std::vector<std::size_t> sets;
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (std::holds_alternative<cpudl::Set>(p.ops[i])) sets.push_back(i);
  if (sets.empty()) return false;
  // Later sets more often: they see the bigger heaps.
  const std::size_t k = sets[rng.one_in(2) ? sets.size() - 1 - rng.below(std::min<std::size_t>(
                                                                  sets.size(), 8))
                                           : rng.below(sets.size())];
  const MiniHeap h = heap_before(p.ops, k, p.config.nr_cpu_ids);
  auto& s = std::get<cpudl::Set>(p.ops[k]);
  const int at = h.idx[static_cast<std::size_t>(s.cpu)];
  s.dl = relative_deadline(h, at >= 0 ? at : static_cast<int>(h.slots.size()), rng);
  return true;
}

// A new op at a point: a set of the item at a chosen slot (or of a new CPU)
// with a relative deadline, a clear of a chosen slot's CPU, or a run of
// clears (of the root, or of random items).
bool insert_relative(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b) {
  if (p.ops.size() + 1 >= b.max_ops) return false;
  const std::size_t at = rng.one_in(2) ? p.ops.size() : rng.below(p.ops.size() + 1);
  MiniHeap h = heap_before(p.ops, at, p.config.nr_cpu_ids);
  const unsigned nr = p.config.nr_cpu_ids;
  std::vector<Op> add;
  const int n = static_cast<int>(h.slots.size());
  const u64 what = n == 0 ? 0 : rng.below(4);
  if (what == 0) {  // a set: of a new CPU, or of a chosen slot's
    int cpu = static_cast<int>(rng.below(nr));
    int slot = h.idx[static_cast<std::size_t>(cpu)] >= 0 ? h.idx[static_cast<std::size_t>(cpu)] : n;
    if (n > 0 && rng.one_in(2)) {
      slot = chosen_slot(h, rng);
      cpu = h.slots[static_cast<std::size_t>(slot)].cpu;
    }
    add.push_back(cpudl::Set{cpu, relative_deadline(h, slot, rng)});
  } else if (what == 1) {
    add.push_back(cpudl::Clear{h.slots[static_cast<std::size_t>(chosen_slot(h, rng))].cpu});
  } else {  // a run of clears or of later deadlines for chosen slots
    const auto count = 1 + rng.below(std::min<u64>(static_cast<u64>(n), b.max_ops - p.ops.size() - 1));
    const bool root = rng.one_in(2), clears = what == 2;
    for (u64 i = 0; i < count && !h.slots.empty(); ++i) {
      const int slot = root ? 0 : chosen_slot(h, rng);
      const int cpu = h.slots[static_cast<std::size_t>(slot)].cpu;
      const u64 dl = clears ? 0 : relative_deadline(h, slot, rng);
      if (clears) add.push_back(cpudl::Clear{cpu});
      else add.push_back(cpudl::Set{cpu, dl});
      h.apply(add.back());
    }
  }
  p.ops.insert(p.ops.begin() + static_cast<std::ptrdiff_t>(at), add.begin(), add.end());
  return true;
}

// Free CPUs and finds around word edges: set_freecpu of a run of CPUs, then
// a find pinned to one CPU (or a CPU 64 apart), or a find of all CPUs.
bool insert_free_and_find(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b) {
  const unsigned nr = p.config.nr_cpu_ids;
  const std::size_t at = rng.below(p.ops.size() + 1);
  std::vector<Op> add;
  const unsigned cpu = boundary_cpu(rng, nr);
  if (rng.one_in(2)) {  // free CPUs: one, or a run ending at a word edge
    const unsigned len = rng.one_in(2) ? 1 : 1 + static_cast<unsigned>(rng.below(std::min(nr, 70u)));
    for (unsigned i = 0; i < len; ++i)
      add.push_back(rng.one_in(8) ? Op{cpudl::ClearFreecpu{static_cast<int>((cpu + i) % nr)}}
                                  : Op{cpudl::SetFreecpu{static_cast<int>((cpu + i) % nr)}});
  }
  cpudl::Find f;
  const MiniHeap h = heap_before(p.ops, at, nr);
  f.dl = h.slots.empty() ? some_deadline(p.ops, rng) : relative_deadline(h, 0, rng);
  unsigned pinned = cpu;
  if (rng.one_in(2) && nr > 64) pinned = (cpu + 64 * (1 + static_cast<unsigned>(rng.below(nr / 64)))) % nr;
  if (rng.one_in(4)) {
    for (unsigned c = 0; c < nr; ++c) f.affinity.bits[c / 64] |= 1UL << (c % 64);
  } else {
    f.affinity.bits[pinned / 64] |= 1UL << (pinned % 64);
  }
  if (rng.one_in(3)) add.push_back(cpudl::FindNomask{f.dl, f.affinity});
  else add.push_back(f);
  if (p.ops.size() + add.size() > b.max_ops) return false;
  p.ops.insert(p.ops.begin() + static_cast<std::ptrdiff_t>(at), add.begin(), add.end());
  return true;
}

// One op's CPU moves to a boundary value.
bool move_cpu(io::Program<cpudl::Subject>& p, Rng& rng) {
  if (p.ops.empty()) return false;
  bool moved = false;
  std::visit(
      [&](auto& o) {
        for_each_field(o, [&](std::string_view, auto& f) {
          if constexpr (std::is_same_v<std::decay_t<decltype(f)>, Cpu>)
            if (!moved) {
              f = static_cast<int>(boundary_cpu(rng, p.config.nr_cpu_ids));
              moved = true;
            }
        });
      },
      p.ops[rng.below(p.ops.size())]);
  return moved;
}

// Every deadline moves by one amount: to straddle 2^63 or 2^64, or to 0.
bool shift_deadlines(io::Program<cpudl::Subject>& p, Rng& rng) {
  const u64 first = some_deadline(p.ops, rng);
  const u64 targets[] = {k63 - 1 - rng.below(64), u64{0} - 1 - rng.below(64), rng.below(64)};
  const u64 delta = targets[rng.below(3)] - first;
  for (auto& op : p.ops)
    std::visit(
        [&](auto& o) {
          for_each_field(o, [&](std::string_view, auto& f) {
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, Deadline> || std::is_same_v<T, TaskDeadline>)
              f = f.value + delta;
          });
        },
        op);
  return true;
}

}  // namespace

bool fill_first(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b) {
  const unsigned nr = p.config.nr_cpu_ids;
  const auto room = static_cast<unsigned>(std::min<std::size_t>(b.max_ops, nr));
  if (room == 0) return false;
  const unsigned count = interesting_count(rng, room);  // the size, drawn first
  const u64 anchors[] = {1000, k63 - count / 2, u64{0} - count / 2, rng.next()};
  const std::vector<Op> run = fill_run(nr, count, anchors[rng.below(4)], rng);
  p.ops.insert(p.ops.begin(), run.begin(), run.end());
  if (p.ops.size() > b.max_ops) p.ops.resize(b.max_ops);
  return true;
}

bool mutate_subject(io::Program<cpudl::Subject>& p, Rng& rng, const OpBudget& b) {
  switch (rng.below(8)) {
    case 0:
    case 1: return insert_fill(p, rng, b);
    case 2: return retarget_set(p, rng);
    case 3:
    case 4: return insert_relative(p, rng, b);
    case 5: return insert_free_and_find(p, rng, b);
    case 6: return move_cpu(p, rng);
    default: return shift_deadlines(p, rng);
  }
}

}  // namespace diffsched::mutator
