// The lockless-reader analysis (race.h): the states between an op's stores,
// rebuilt from the store log, and every answer a reader can form from them.
#include "subjects/cpudl/race.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "kernel/store_log.h"
#include "subjects/cpudl/model.h"
#include "util/ddmin.h"

namespace diffsched::cpudl::race {

namespace {

using kernel::BITS_PER_LONG;
using kernel::BITS_TO_LONGS;
using Item = kernel::cpudl_item<kernel::Uncounted>;

// What a reader can load at each point k = 0..n of one op on one side (after
// k stores): the root slot and the free_cpus words the op stores to.
struct Timeline {
  std::size_t n = 0;
  std::vector<int> root_cpu;            // [k]
  std::vector<u64> root_dl;             // [k]
  std::vector<unsigned> words;          // free_cpus word indices the op stores
  std::vector<std::vector<u64>> word;   // [k][j]: value of words[j] after k stores
  std::vector<char> in_before, in_after;  // per CPU: in the heap in S_0 / S_n
  // Per endpoint (S_0, S_n): the CPUs of the heap holding its maximum
  // deadline, and that deadline; empty for an empty heap.
  std::vector<int> ties[2];
  u64 max_dl[2] = {};
  std::vector<u64> free_before;         // S_0's free words (all below nr_cpu_ids)
  std::vector<std::string> store_text;  // [e]: store e+1, "slot 0 .cpu = 3"
};

struct Event {
  bool free;
  std::size_t index;
};

bool build_timeline(Side* side, const Op& op, Timeline* tl, std::string* error) {
  static thread_local std::unique_ptr<kernel::StoreLog> log_holder;
  if (!log_holder) log_holder = std::make_unique<kernel::StoreLog>();
  kernel::StoreLog& log = *log_holder;
  const unsigned nr = kernel::nr_cpu_ids, nw = BITS_TO_LONGS(nr);
  const HeapView before = side->view();
  std::vector<Item> pre(before.elements, before.elements + nr);
  std::vector<u64> pre_words(before.free_cpus->bits, before.free_cpus->bits + nw);

  log.clear();
  kernel::active_store_log = &log;
  FindResult fr;
  side->apply(op, &fr);
  kernel::active_store_log = nullptr;
  if (log.overflow) {
    *error = fmt::format("side {}: more stores in one op than the store log holds", side->name());
    return false;
  }
  const HeapView after = side->view();
  std::vector<Item> w(after.elements, after.elements + nr);
  std::vector<u64> words(after.free_cpus->bits, after.free_cpus->bits + nw);

  std::vector<Event> events;
  for (std::size_t i = 0, f = 0; i <= log.count; ++i) {
    for (; f < log.free_count && log.free_stores[f].after == i; ++f) events.push_back({true, f});
    if (i < log.count) events.push_back({false, i});
  }
  tl->n = events.size();
  tl->words.clear();
  for (std::size_t f = 0; f < log.free_count; ++f)
    if (std::find(tl->words.begin(), tl->words.end(), log.free_stores[f].word) == tl->words.end())
      tl->words.push_back(log.free_stores[f].word);
  tl->root_cpu.assign(tl->n + 1, 0);
  tl->root_dl.assign(tl->n + 1, 0);
  tl->word.assign(tl->n + 1, std::vector<u64>(tl->words.size()));
  tl->store_text.assign(tl->n, {});
  const auto record = [&](std::size_t k) {
    tl->root_cpu[k] = w[0].cpu;
    tl->root_dl[k] = w[0].dl;
    for (std::size_t j = 0; j < tl->words.size(); ++j) tl->word[k][j] = words[tl->words[j]];
  };
  record(tl->n);
  const auto* base = reinterpret_cast<const char*>(after.elements);
  for (std::size_t e = tl->n; e-- > 0;) {
    if (events[e].free) {
      const auto& s = log.free_stores[events[e].index];
      if (s.word >= nw) {
        *error = fmt::format("side {}: a free_cpus store beyond nr_cpu_ids", side->name());
        return false;
      }
      tl->store_text[e] = fmt::format("free_cpus word {} = {:#x}", s.word, words[s.word]);
      words[s.word] = s.old;
    } else {
      const auto& s = log.stores[events[e].index];
      const auto off = reinterpret_cast<const char*>(s.where) - base;
      if (off < 0 || static_cast<std::size_t>(off) >= nr * sizeof(Item)) {
        *error = fmt::format("side {}: a logged store outside the element array", side->name());
        return false;
      }
      const std::size_t slot = static_cast<std::size_t>(off) / sizeof(Item);
      const std::size_t field = static_cast<std::size_t>(off) % sizeof(Item);
      Item& it = w[slot];
      if (field == offsetof(Item, dl)) {
        tl->store_text[e] = fmt::format("elements[{}].dl = {}", slot, it.dl);
        it.dl = s.old;
      } else if (field == offsetof(Item, cpu)) {
        tl->store_text[e] = fmt::format("elements[{}].cpu = {}", slot, it.cpu);
        it.cpu = static_cast<int>(s.old);
      } else if (field == offsetof(Item, idx)) {
        tl->store_text[e] = fmt::format("elements[{}].idx = {}", slot, it.idx);
        it.idx = static_cast<int>(s.old);
      } else {
        *error = fmt::format("side {}: a logged store inside no field", side->name());
        return false;
      }
    }
    record(e);
  }
  // Undoing every logged store must give back the state before the op:
  // otherwise the side stored something it did not log.
  for (unsigned i = 0; i < nr; ++i)
    if (w[i].dl != pre[i].dl || w[i].cpu != pre[i].cpu || w[i].idx != pre[i].idx) {
      *error = fmt::format("side {}: op stored to elements[{}] without logging it", side->name(), i);
      return false;
    }
  if (words != pre_words) {
    *error = fmt::format("side {}: op stored to free_cpus without logging it", side->name());
    return false;
  }
  tl->in_before.assign(nr, 0);
  tl->in_after.assign(nr, 0);
  for (unsigned c = 0; c < nr; ++c) {
    tl->in_before[c] = pre[c].idx != kernel::IDX_INVALID;
    tl->in_after[c] = after.elements[c].idx != kernel::IDX_INVALID;
  }
  const Item* ends[2] = {pre.data(), after.elements};
  const int sizes[2] = {before.size, after.size};
  for (int e = 0; e < 2; ++e) {  // by the heap's slots, not the back-pointers (a broken
    tl->ties[e].clear();          // candidate's may point anywhere)
    tl->max_dl[e] = 0;
    if (sizes[e] <= 0) continue;
    tl->max_dl[e] = ends[e][0].dl;  // the root
    const unsigned used = std::min(static_cast<unsigned>(sizes[e]), nr);
    for (unsigned slot = 0; slot < used; ++slot) {
      const int c = ends[e][slot].cpu;
      if (c >= 0 && static_cast<unsigned>(c) < nr && ends[e][slot].dl == tl->max_dl[e])
        tl->ties[e].push_back(c);
    }
  }
  tl->free_before = std::move(pre_words);
  return true;
}

bool test_cpu(const Cpumask& m, int cpu) {
  return (m.bits[static_cast<unsigned>(cpu) / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1UL;
}

// A reader's answer as the caller sees it (ret, later_mask), plus the root
// CPU it read, which tells the classes apart.
struct Key {
  int ret = 0;
  bool free_branch = false;
  int cpu = -1;                // root CPU read; -1 on the free branch
  std::vector<u64> later;      // free branch: later_mask's words below nr_cpu_ids
  bool same_answer(const Key& o, bool with_mask) const {
    if (ret != o.ret) return false;
    if (!with_mask || ret == 0) return true;
    if (free_branch == o.free_branch) return free_branch ? later == o.later : cpu == o.cpu;
    // later_mask is what the caller sees: free CPUs {c} equal a maximum c.
    const Key& f = free_branch ? *this : o;
    const int c = free_branch ? o.cpu : cpu;
    for (std::size_t i = 0; i < f.later.size(); ++i) {
      const u64 bit = static_cast<std::size_t>(c) / BITS_PER_LONG == i
                          ? u64{1} << (static_cast<unsigned>(c) % BITS_PER_LONG)
                          : 0;
      if (f.later[i] != bit) return false;
    }
    return true;
  }
  bool operator==(const Key& o) const = default;
};

struct Reads {
  std::size_t tw, tc, td;
};

// cpudl_find() (v6.1, non-capacity path) with each load seeing its own
// state: free words at tw, elements[0].cpu at tc, elements[0].dl at td.
Key reader_find(const Timeline& tl, const Task& t, Reads r, bool* dl_read) {
  Key k;
  *dl_read = false;
  const unsigned nw = BITS_TO_LONGS(kernel::nr_cpu_ids);
  if (t.with_mask) {
    k.later.assign(nw, 0);
    bool any = false;
    for (unsigned i = 0; i < nw; ++i) {
      u64 v = tl.free_before[i];
      for (std::size_t j = 0; j < tl.words.size(); ++j)
        if (tl.words[j] == i) v = tl.word[r.tw][j];
      k.later[i] = v & t.affinity.bits[i];
      any |= k.later[i] != 0;
    }
    if (any) {
      k.ret = 1;
      k.free_branch = true;
      return k;
    }
    k.later.clear();
  }
  k.cpu = tl.root_cpu[r.tc];
  if (k.cpu < 0 || static_cast<unsigned>(k.cpu) >= kernel::nr_cpu_ids) {
    k.ret = -1;  // cpumask_test_cpu() out of bounds: no answer the caller can use
    return k;
  }
  if (!test_cpu(t.affinity, k.cpu)) return k;
  *dl_read = true;
  k.ret = kernel::dl_time_before(t.dl, tl.root_dl[r.td]) ? 1 : 0;
  return k;
}

// Whether `k` is what endpoint e (0: S_0, 1: S_n) answers at the deadline
// level: its own answer `ke`, or the answer it gives with another CPU of the
// same maximum deadline at the root (which of the tied CPUs is the root is
// the known tie order, accepted at that level; a reader's answer naming
// either is the same to its callers, which re-check the CPU they get).
bool endpoint_answer(const Timeline& tl, int e, const Task& t, const Key& k, const Key& ke) {
  if (k.same_answer(ke, t.with_mask)) return true;
  if (k.free_branch || ke.free_branch || k.ret == -1 || ke.ret == -1) return false;
  if (std::find(tl.ties[e].begin(), tl.ties[e].end(), k.cpu) == tl.ties[e].end()) return false;
  const int ret = test_cpu(t.affinity, k.cpu) && kernel::dl_time_before(t.dl, tl.max_dl[e]) ? 1 : 0;
  return k.ret == ret;
}

ReaderClass classify(const Timeline& tl, const Key& k, bool dl_read, Reads r) {
  if (k.ret == -1) return kImpossible;
  if (k.free_branch) return kStale;
  const auto c = static_cast<std::size_t>(k.cpu);
  if (!tl.in_before[c] && !tl.in_after[c]) return kPhantom;
  if (dl_read && tl.root_cpu[r.td] != k.cpu) {
    const u64 d = tl.root_dl[r.td];
    for (std::size_t s = 0; s <= tl.n; ++s)
      if (tl.root_cpu[s] == k.cpu && tl.root_dl[s] == d) return kStale;
    return kTorn;
  }
  return kStale;
}

bool is_update(const Op& op) {
  return std::visit([](const auto& o) { return UpdateOp<std::decay_t<decltype(o)>>; }, op);
}

std::string reads_text(const Timeline& tl, const Reads& r, const Key& k, bool dl_read) {
  const auto at = [&](std::size_t t) {
    return t == 0 ? std::string("before store 1")
                  : fmt::format("after store {} ({})", t, tl.store_text[t - 1]);
  };
  std::string s;
  if (!tl.words.empty()) s += fmt::format("free_cpus read {}; ", at(r.tw));
  if (k.free_branch) return s + fmt::format("of {} stores", tl.n);
  s += fmt::format("elements[0].cpu read {}", at(r.tc));
  if (dl_read) s += fmt::format("; elements[0].dl read {}", at(r.td));
  return s + fmt::format("; of {} stores", tl.n);
}

// Calls on_new(key, class, reads, dl_read) once per distinct (answer, class)
// of `t` over every load triple of one op on one side. O(n^3) at worst
// (a free word changes), O(n^2) otherwise.
template <class OnNew>
void enumerate(const Timeline& tl, const Task& t, std::uint64_t* readers, OnNew&& on_new) {
  bool dl_read = false;
  const Key k0 = reader_find(tl, t, {0, 0, 0}, &dl_read);
  const Key kn = reader_find(tl, t, {tl.n, tl.n, tl.n}, &dl_read);
  std::vector<std::pair<Key, ReaderClass>> seen;
  const std::size_t last_tw = tl.words.empty() ? 0 : tl.n;
  for (std::size_t tw = 0; tw <= last_tw; ++tw)
    for (std::size_t tc = tw; tc <= tl.n; ++tc)
      for (std::size_t td = tc; td <= tl.n; ++td) {
        ++*readers;
        const Reads r{tw, tc, td};
        const Key k = reader_find(tl, t, r, &dl_read);
        ReaderClass c = kConsistent;
        if (!endpoint_answer(tl, 0, t, k, k0) && !endpoint_answer(tl, 1, t, k, kn))
          c = classify(tl, k, dl_read, r);
        // Distinct (answer, class) pairs: one answer may be both stale and
        // torn (read whole at one point, or torn at another).
        if (std::find_if(seen.begin(), seen.end(), [&](const auto& p) {
              return p.second == c && p.first == k;
            }) == seen.end()) {
          seen.emplace_back(k, c);
          on_new(k, c, r, dl_read);
        }
        if (k.free_branch) tc = tl.n;  // root not read: tc and td moot
        if (!dl_read) break;           // dl not read: td moot
      }
}

void count_answers(const Timeline& tl, const Task& t, const Op& op, std::size_t op_index,
                   SideRace& out) {
  const std::size_t kind = op.index();
  enumerate(tl, t, &out.readers, [&](const Key& k, ReaderClass c, Reads r, bool dl_read) {
    ++out.counts[c];
    if (out.first[c][kind]) return;
    Example e;
    e.op_index = op_index;
    e.stores = tl.n;
    e.tw = r.tw, e.tc = r.tc, e.td = r.td;
    e.task = t;
    e.ret = k.ret;
    e.free_branch = k.free_branch;
    e.cpu = k.cpu;
    e.dl_read = dl_read;
    e.dl = tl.root_dl[r.td];
    e.store_text = reads_text(tl, r, k, dl_read);
    out.first[c][kind] = std::move(e);
  });
}

}  // namespace

std::string_view op_kind_name(std::size_t kind) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::string_view name;
    ((I == kind ? (name = std::variant_alternative_t<I, Op>::kName, 0) : 0), ...);
    return name;
  }(std::make_index_sequence<std::variant_size_v<Op>>{});
}

std::string_view class_name(ReaderClass c) { return kClassNames[c]; }

std::vector<Task> task_set(const Config& config, const std::vector<Op>& ops) {
  std::vector<u64> dls;
  for (const Op& op : ops)
    if (const auto* s = std::get_if<Set>(&op))
      if (std::find(dls.begin(), dls.end(), u64{s->dl}) == dls.end()) dls.push_back(s->dl);
  std::sort(dls.begin(), dls.end(), [](u64 a, u64 b) { return kernel::dl_time_before(a, b); });
  std::vector<u64> task_dls;
  task_dls.push_back(dls.empty() ? 0 : dls.front() - 1);
  const std::size_t step = std::max<std::size_t>(1, (dls.size() + 7) / 8);
  for (std::size_t i = 0; i < dls.size(); i += step) task_dls.push_back(dls[i]);
  std::vector<Cpumask> masks;
  Cpumask all{};
  for (unsigned c = 0; c < config.nr_cpu_ids; ++c) all.bits[c / BITS_PER_LONG] |= 1UL << (c % 64);
  masks.push_back(all);
  for (unsigned c = 0; c < std::min(config.nr_cpu_ids, 16u); ++c) {
    Cpumask m{};
    m.bits[c / BITS_PER_LONG] |= 1UL << (c % 64);
    masks.push_back(m);
  }
  std::vector<Task> tasks;
  for (const Cpumask& m : masks)
    for (u64 d : task_dls) tasks.push_back(Task{d, m, true});
  for (const Op& op : ops)
    std::visit(
        [&](const auto& o) {
          if constexpr (FindOp<std::decay_t<decltype(o)>>) {
            const FindArgs a = o.find_args();
            tasks.push_back(Task{a.dl, *a.affinity, a.with_mask});
          }
        },
        op);
  return tasks;
}

bool analyze_step(const Op& op, std::size_t op_index, const std::vector<Task>& tasks,
                  const std::vector<Side*>& sides, std::vector<SideRace>& out,
                  std::string* error, std::uint64_t max_readers, bool* cut) {
  auto tried = [&] {
    std::uint64_t n = 0;
    for (const SideRace& s : out) n += s.readers;
    return n;
  };
  Timeline tl;
  for (std::size_t s = 0; s < sides.size(); ++s) {
    if (!sides[s]->logs_stores()) {
      *error = fmt::format("side {} does not log its stores (only built-in heaps can be analysed)",
                           sides[s]->name());
      return false;
    }
    if (!build_timeline(sides[s], op, &tl, error)) return false;
    ++out[s].ops;
    out[s].stores += tl.n;
    for (const Task& t : tasks) {
      count_answers(tl, t, op, op_index, out[s]);
      if (max_readers && tried() > max_readers) {
        *cut = true;
        return true;
      }
    }
  }
  return true;
}

std::vector<std::vector<ReaderAnswer>> reader_answers(Side* side, const Op& op,
                                                      const std::vector<Task>& tasks,
                                                      std::string* error) {
  Timeline tl;
  if (!side->logs_stores()) {
    *error = fmt::format("side {} does not log its stores", side->name());
    return {};
  }
  if (!build_timeline(side, op, &tl, error)) return {};
  std::vector<std::vector<ReaderAnswer>> out(tasks.size());
  std::uint64_t readers = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    enumerate(tl, tasks[i], &readers, [&](const Key& k, ReaderClass c, Reads, bool) {
      out[i].push_back(ReaderAnswer{k.ret, k.free_branch, k.cpu, k.later, c});
    });
  return out;
}

void compare_sides(RaceResult& r) {
  r.findings.clear();
  r.shared.clear();
  if (r.sides.empty()) return;
  for (std::size_t c = kStale; c < kClassCount; ++c)
    for (std::size_t kind = 0; kind < std::variant_size_v<Op>; ++kind) {
      const auto cls = static_cast<ReaderClass>(c);
      bool all = true;
      for (const SideRace& s : r.sides) all &= s.reaches(cls, kind);
      if (all) {
        r.shared.emplace_back(cls, kind);
        continue;
      }
      if (r.sides[0].reaches(cls, kind)) continue;
      for (std::size_t s = 1; s < r.sides.size(); ++s)
        if (r.sides[s].reaches(cls, kind)) {
          RaceFinding f;
          f.cls = cls;
          f.op_kind = kind;
          f.side = s;
          f.example = *r.sides[s].first[cls][kind];
          f.signature = fmt::format("cpudl:reader:{}:{}", class_name(cls),
                                    op_kind_name(kind));
          r.findings.push_back(std::move(f));
          break;
        }
    }
}

RaceResult analyze_race(const Config& config, const std::vector<Op>& ops,
                        const std::vector<Side*>& sides, const std::vector<Task>* tasks,
                        bool same_state, std::uint64_t max_readers) {
  RaceResult r;
  kernel::NrCpuIdsScope scope(config.nr_cpu_ids);
  r.sides.resize(sides.size());
  for (std::size_t s = 0; s < sides.size(); ++s) {
    r.sides[s].name = std::string(sides[s]->name());
    sides[s]->set_capacity(config.capacity);
    sides[s]->reset(config.nr_cpu_ids);
  }
  Model model;
  model.reset(config.nr_cpu_ids);
  const std::vector<Task> own = tasks ? std::vector<Task>{} : task_set(config, ops);
  const std::vector<Task>& tried = tasks ? *tasks : own;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    std::string why;
    if (!model.permits(ops[i], &why)) continue;  // the lockstep skips it too
    model.apply(ops[i]);
    if (!is_update(ops[i])) {
      for (Side* s : sides) s->apply(ops[i], nullptr);
      continue;
    }
    if (same_state)
      for (std::size_t s = 1; s < sides.size(); ++s) sides[s]->restore(sides[0]->view());
    bool cut = false;
    if (!analyze_step(ops[i], i, tried, sides, r.sides, &r.error, max_readers, &cut)) return r;
    if (cut) {
      r.cut_at = i + 1;
      break;
    }
  }
  compare_sides(r);
  return r;
}

std::vector<Op> minimize_race(const Config& config, std::vector<Op> ops,
                              const std::vector<Side*>& sides, const std::string& signature,
                              const std::vector<Task>* tasks, bool same_state) {
  std::size_t tries = 0;
  constexpr std::size_t kMaxTries = 2000;
  util::ddmin(
      ops,
      [&](const std::vector<Op>& fewer) {
        if (++tries > kMaxTries) return false;
        const RaceResult r = analyze_race(config, fewer, sides, tasks, same_state);
        return std::any_of(r.findings.begin(), r.findings.end(),
                           [&](const RaceFinding& f) { return f.signature == signature; });
      },
      [&] { return tries > kMaxTries; });
  return ops;
}

std::string task_text(const Task& t) {
  return fmt::format("task dl {} affinity {}{}", t.dl, kernel::cpumask_to_cpulist(t.affinity),
                     t.with_mask ? "" : " (no later_mask)");
}

std::string answer_text(const Example& e) {
  if (e.ret == -1) return fmt::format("root cpu {} is out of range", e.cpu);
  if (e.free_branch) return "1 (free CPUs)";
  if (e.ret == 0) return fmt::format("0 (root cpu {}{})", e.cpu,
                                     e.dl_read ? fmt::format(", dl {}", e.dl) : "");
  return fmt::format("1 later_mask {{{}}} (root cpu {}, dl {})", e.cpu, e.cpu, e.dl);
}

}  // namespace diffsched::cpudl::race
