#include "subjects/cpudl/verify_bfs.h"

#include "io/fields.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "engine/op.h"
#include "engine/runner.h"
#include "io/text.h"

namespace diffsched::verify {

using kernel::u64;

std::string human_count(unsigned long long n) {
  if (n < 10'000) return fmt::format("{}", n);
  if (n < 1'000'000) return fmt::format("{:.1f}k", static_cast<double>(n) / 1e3);
  if (n < 1'000'000'000) return fmt::format("{:.1f}M", static_cast<double>(n) / 1e6);
  if (n < 1'000'000'000'000) return fmt::format("{:.1f}G", static_cast<double>(n) / 1e9);
  return fmt::format("{:.2g}", static_cast<double>(n));
}

std::string_view domain_name(Domain domain) {
  switch (domain) {
    case Domain::kWindow: return "window";
    case Domain::kWrap63: return "wrap63";
    case Domain::kWrap64: return "wrap64";
  }
  return "?";
}

std::optional<Domain> parse_domain(std::string_view name) {
  for (Domain d : {Domain::kWindow, Domain::kWrap63, Domain::kWrap64})
    if (domain_name(d) == name) return d;
  return std::nullopt;
}

namespace {

u64 domain_first(const CpudlBounds& b) {
  const u64 half = b.deadlines / 2;
  switch (b.domain) {
    case Domain::kWindow: return 1000;
    case Domain::kWrap63: return (u64{1} << 63) - half;
    case Domain::kWrap64: return u64{0} - half;  // wraps: 2^64 - K/2
  }
  return 0;
}

}  // namespace

std::vector<u64> heap_deadlines(const CpudlBounds& b) {
  std::vector<u64> out;
  for (unsigned i = 0; i < b.deadlines; ++i) out.push_back(domain_first(b) + i);  // mod 2^64
  return out;
}

std::vector<u64> bfs_durations() { return {512, 1024}; }

std::vector<u64> task_deadlines(const CpudlBounds& b) {
  std::vector<u64> out;
  for (unsigned i = 0; i < b.deadlines + 2; ++i) out.push_back(domain_first(b) - 1 + i);
  return out;
}

namespace {

// ---- the successor function's op list, from the op structs' fields ---------

// The BFS values of one field: its type's (io/fields.h), except find_cap's
// task CPU, which only matters as big, little or tied with another big CPU
// (capacities 1024,512 repeated): CPUs 0..2 cover every case, and keep
// find_cap at 12 times the ops of find rather than 4 * nr_cpu_ids times.
template <class OpT, class T>
std::size_t field_domain_size(const io::BfsDomain& d, std::string_view name) {
  if constexpr (std::is_same_v<OpT, cpudl::FindCap> && std::is_same_v<T, Cpu>)
    if (name == "cpu") return std::min(3u, d.cpus);
  return io::FieldTraits<T>::domain_size(d);
}

template <class OpT>
std::array<std::size_t, 8> radix_of(const io::BfsDomain& domain, std::size_t* fields,
                                    std::size_t* total) {
  std::array<std::size_t, 8> radix{};
  *fields = 0;
  *total = 1;
  OpT proto{};
  for_each_field(proto, [&](std::string_view name, const auto& f) {
    radix[*fields] = field_domain_size<OpT, std::decay_t<decltype(f)>>(domain, name);
    *total *= radix[(*fields)++];
  });
  return radix;
}

// Every op with every combination of its fields' values.
template <class OpT>
void append_ops(const io::BfsDomain& domain, std::vector<cpudl::Op>& out) {
  std::size_t fields = 0, total = 1;
  const auto radix = radix_of<OpT>(domain, &fields, &total);
  for (std::size_t t = 0; t < total; ++t) {
    std::array<std::size_t, 8> digit{};
    std::size_t rest = t;
    for (std::size_t i = fields; i-- > 0;) {  // the first field varies slowest
      digit[i] = rest % radix[i];
      rest /= radix[i];
    }
    OpT op{};
    std::size_t i = 0;
    for_each_field(op, [&](std::string_view, auto& f) {
      f = io::FieldTraits<std::decay_t<decltype(f)>>::domain_at(domain, digit[i++]);
    });
    out.emplace_back(op);
  }
}

io::BfsDomain bfs_domain(const CpudlBounds& b) {
  io::BfsDomain domain;
  domain.cpus = b.cpus;
  domain.heap_dl = heap_deadlines(b);
  domain.task_dl = task_deadlines(b);
  domain.duration = bfs_durations();
  return domain;
}

// How many ops cpudl_ops() gives, without building them (the estimate).
std::size_t cpudl_op_count(const CpudlBounds& b) {
  const io::BfsDomain domain = bfs_domain(b);
  std::size_t count = 0;
  [&]<class... Ops>(std::type_identity<std::variant<Ops...>>) {
    std::size_t fields = 0, total = 0;
    ((std::is_same_v<Ops, cpudl::CpuDown> || std::is_same_v<Ops, cpudl::CpuUp>
          ? void()
          : (radix_of<Ops>(domain, &fields, &total), void(count += total))),
     ...);
  }(std::type_identity<cpudl::Op>{});
  return count;
}

}  // namespace

std::vector<cpudl::Op> cpudl_ops(const CpudlBounds& b) {
  const io::BfsDomain domain = bfs_domain(b);
  std::vector<cpudl::Op> out;
  // Not the hotplug ops: the state encoding has no set of down CPUs, and they
  // reach no new heap state (cpu_down c is clear_online c 0 on the heap and
  // the free set, cpu_up c is set_freecpu c), so the search stays exact.
  [&]<class... Ops>(std::type_identity<std::variant<Ops...>>) {
    ((std::is_same_v<Ops, cpudl::CpuDown> || std::is_same_v<Ops, cpudl::CpuUp>
          ? void()
          : append_ops<Ops>(domain, out)),
     ...);
  }(std::type_identity<cpudl::Op>{});
  return out;
}

namespace {

// ---- canonical state encoding ----------------------------------------------

struct Key {
  std::array<std::uint64_t, 4> w{};
  bool operator==(const Key&) const = default;
};

std::uint64_t hash_key(const Key& k) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::uint64_t x : k.w) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
  }
  return h;
}

class BitWriter {
 public:
  explicit BitWriter(Key& k) : k_(k) {}
  void put(std::uint64_t v, unsigned bits) {
    for (unsigned done = 0; done < bits;) {
      const unsigned word = pos_ / 64, off = pos_ % 64;
      const unsigned n = std::min(bits - done, 64 - off);
      const std::uint64_t part = (v >> done) & (n == 64 ? ~0ULL : (1ULL << n) - 1);
      k_.w[word] |= part << off;
      done += n;
      pos_ += n;
    }
  }

 private:
  Key& k_;
  unsigned pos_ = 0;
};

class BitReader {
 public:
  explicit BitReader(const Key& k) : k_(k) {}
  std::uint64_t get(unsigned bits) {
    std::uint64_t v = 0;
    for (unsigned done = 0; done < bits;) {
      const unsigned word = pos_ / 64, off = pos_ % 64;
      const unsigned n = std::min(bits - done, 64 - off);
      const std::uint64_t part = (k_.w[word] >> off) & (n == 64 ? ~0ULL : (1ULL << n) - 1);
      v |= part << done;
      done += n;
      pos_ += n;
    }
    return v;
  }

 private:
  const Key& k_;
  unsigned pos_ = 0;
};

// Encodes the sides of a lockstep into a Key and restores them from one.
class Codec {
 public:
  static constexpr unsigned kValueBits = 4;  // at most 16 distinct deadlines

  Codec(unsigned cpus, std::size_t sides, std::span<const u64> values)
      : cpus_(cpus),
        sides_(sides),
        size_bits_(static_cast<unsigned>(std::bit_width(cpus))),
        cpu_bits_(std::max(1u, static_cast<unsigned>(std::bit_width(cpus - 1)))) {
    values_.push_back(0);  // cpudl_init()'s kcalloc'ed slots
    for (u64 v : values)
      if (std::find(values_.begin(), values_.end(), v) == values_.end()) values_.push_back(v);
    buffers_.resize(sides);
    for (auto& b : buffers_) b.elements.resize(cpus);
    views_.resize(sides);
  }

  unsigned max_bits() const {
    return static_cast<unsigned>(sides_) *
           (size_bits_ + cpus_ * (cpu_bits_ + kValueBits) + cpus_);
  }

  // False (with `error`) if a side holds what the key cannot represent.
  bool encode(const cpudl::Lockstep& ls, Key* key, std::string* error) {
    *key = Key{};
    BitWriter out(*key);
    for (std::size_t s = 0; s < sides_; ++s) {
      const cpudl::HeapView h = ls.side(s).view();
      if (h.size < 0 || h.size > static_cast<int>(cpus_)) {
        *error = fmt::format("side {} has size {}", ls.side(s).name(), h.size);
        return false;
      }
      out.put(static_cast<unsigned>(h.size), size_bits_);
      for (int slot = 0; slot < std::max(h.size, 1); ++slot) {
        const int cpu = h.elements[slot].cpu;
        if (cpu < 0 || cpu >= static_cast<int>(cpus_)) {
          *error = fmt::format("side {} slot {} holds cpu {}", ls.side(s).name(), slot, cpu);
          return false;
        }
        out.put(static_cast<unsigned>(cpu), cpu_bits_);
        out.put(value_index(h.elements[slot].dl, error), kValueBits);
        if (!error->empty()) return false;
      }
      out.put(h.free_cpus->bits[0] & ((1ULL << cpus_) - 1), cpus_);
    }
    return true;
  }

  void restore(const Key& key, cpudl::Lockstep& ls) {
    BitReader in(key);
    for (std::size_t s = 0; s < sides_; ++s) {
      Buffer& b = buffers_[s];
      for (auto& e : b.elements) e = {0, 0, kernel::IDX_INVALID};
      const int size = static_cast<int>(in.get(size_bits_));
      for (int slot = 0; slot < std::max(size, 1); ++slot) {
        const int cpu = static_cast<int>(in.get(cpu_bits_));
        b.elements[static_cast<std::size_t>(slot)].cpu = cpu;
        b.elements[static_cast<std::size_t>(slot)].dl = values_[in.get(kValueBits)];
      }
      for (int slot = 0; slot < size; ++slot)
        b.elements[static_cast<std::size_t>(b.elements[static_cast<std::size_t>(slot)].cpu)].idx =
            slot;
      b.free.bits[0] = in.get(cpus_);
      views_[s] = cpudl::HeapView{size, cpus_, b.elements.data(), &b.free};
    }
    ls.restore(views_);
  }

 private:
  unsigned value_index(u64 dl, std::string* error) {
    for (std::size_t i = 0; i < values_.size(); ++i)
      if (values_[i] == dl) return static_cast<unsigned>(i);
    if (values_.size() == (1u << kValueBits)) {
      *error = fmt::format("more than {} distinct deadlines in the heaps", 1u << kValueBits);
      return 0;
    }
    values_.push_back(dl);  // a side stored a value no op passed: still encodable
    return static_cast<unsigned>(values_.size() - 1);
  }

  struct Buffer {
    std::vector<kernel::cpudl_item<kernel::Uncounted>> elements;
    kernel::Cpumask free{};
  };

  unsigned cpus_;
  std::size_t sides_;
  unsigned size_bits_, cpu_bits_;
  std::vector<u64> values_;
  std::vector<Buffer> buffers_;
  std::vector<cpudl::HeapView> views_;
};

// The visited set and the BFS queue in one: states in discovery order (so in
// depth order), each with its parent and the op that reached it, and an
// open-addressing hash table of state numbers.
class StateStore {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  StateStore() : table_(1u << 16, kNone) {}

  std::size_t size() const { return keys_.size(); }
  const Key& key(std::uint32_t i) const { return keys_[i]; }
  std::uint32_t parent(std::uint32_t i) const { return parent_[i]; }
  std::uint32_t via(std::uint32_t i) const { return via_[i]; }

  // Adds `k` unless present; true if it was new.
  bool insert(const Key& k, std::uint32_t parent, std::uint32_t via) {
    if (2 * (keys_.size() + 1) > table_.size()) grow();
    std::size_t i = hash_key(k) & (table_.size() - 1);
    for (; table_[i] != kNone; i = (i + 1) & (table_.size() - 1))
      if (keys_[table_[i]] == k) return false;
    table_[i] = static_cast<std::uint32_t>(keys_.size());
    keys_.push_back(k);
    parent_.push_back(parent);
    via_.push_back(via);
    return true;
  }

 private:
  void grow() {
    std::vector<std::uint32_t> bigger(table_.size() * 2, kNone);
    for (std::uint32_t s = 0; s < keys_.size(); ++s) {
      std::size_t i = hash_key(keys_[s]) & (bigger.size() - 1);
      while (bigger[i] != kNone) i = (i + 1) & (bigger.size() - 1);
      bigger[i] = s;
    }
    table_ = std::move(bigger);
  }

  std::vector<Key> keys_;
  std::vector<std::uint32_t> parent_, via_;
  std::vector<std::uint32_t> table_;
};

}  // namespace

CpudlEstimate estimate_cpudl(const CpudlBounds& b) {
  CpudlEstimate e;
  {
    kernel::NrCpuIdsScope scope(b.cpus);
    e.ops_per_state = cpudl_op_count(b);
  }
  // g(N): measured states / (K+2)^N for N = 1..5 (any K), rounded up.
  constexpr double kLayouts[] = {1, 2.5, 2.5, 4.5, 14, 100};
  double g = kLayouts[std::min<unsigned>(b.cpus, 5)];
  for (unsigned n = 6; n <= b.cpus; ++n) g *= 1.5 * n;
  e.states = std::pow(static_cast<double>(b.deadlines + 2), b.cpus) * g;
  double expanded = e.states;
  if (b.max_depth) {
    // Within D ops: at most sum_{j<=D} ops^j states; only those within D-1
    // ops are expanded (states at depth D are checked, not expanded).
    double within = 1, level = 1, before = 1;
    for (unsigned j = 1; j <= b.max_depth && within < e.states; ++j) {
      before = within;
      level *= static_cast<double>(e.ops_per_state);
      within += level;
    }
    e.states = std::min(e.states, within);
    expanded = std::min(e.states, before);
  }
  e.transitions = expanded * static_cast<double>(e.ops_per_state);
  e.bytes = e.states * CpudlEstimate::kBytesPerState;
  e.seconds = e.transitions / CpudlEstimate::kTransitionsPerSecond;
  return e;
}

CpudlResult verify_cpudl(const CpudlBounds& b, cpudl::Lockstep& ls, const ProgressFn& progress) {
  CpudlResult r;
  if (b.cpus < 1 || b.cpus > CpudlBounds::kMaxCpus) {
    r.error = fmt::format("--cpus {} is outside 1..{}", b.cpus, CpudlBounds::kMaxCpus);
    return r;
  }
  if (b.deadlines < 1 || b.deadlines > CpudlBounds::kMaxDeadlines) {
    r.error = fmt::format("--deadlines {} is outside 1..{}", b.deadlines,
                          CpudlBounds::kMaxDeadlines);
    return r;
  }
  const CpudlEstimate estimate = estimate_cpudl(b);
  Stopwatch clock;
  kernel::NrCpuIdsScope scope(b.cpus);
  const cpudl::Config config{b.cpus, b.capacity};
  ls.reset(config);
  const std::vector<cpudl::Op> ops = cpudl_ops(b);
  r.ops_per_state = ops.size();
  const std::vector<u64> heap_dl = heap_deadlines(b);
  Codec codec(b.cpus, ls.side_count(), heap_dl);
  if (codec.max_bits() > 256) {
    r.error = fmt::format("{} sides of {} CPUs do not fit the 256-bit state encoding",
                          ls.side_count(), b.cpus);
    return r;
  }

  StateStore store;
  Key key;
  if (!codec.encode(ls, &key, &r.error)) return r;
  store.insert(key, StateStore::kNone, 0);
  r.states_by_depth.push_back(1);

  Verdict v;
  v.subject = cpudl::Subject::kName;
  v.level = b.level;
  std::string why;
  unsigned depth = 0;
  std::size_t depth_end = 1;  // states [0, depth_end) are at depth <= `depth`
  r.complete = true;

  for (std::uint32_t i = 0; i < store.size(); ++i) {
    if (i == depth_end) {
      ++depth;
      depth_end = store.size();
      if (b.max_depth && depth >= b.max_depth) {
        r.complete = false;  // states at max_depth were checked but not expanded
        break;
      }
    }
    const Key current = store.key(i);
    codec.restore(current, ls);
    for (std::uint32_t o = 0; o < ops.size(); ++o) {
      const cpudl::Op& op = ops[o];
      if (!ls.model().permits(op, &why)) continue;
      v.finding.reset();
      ls.step(op, depth, b.level, v);
      ++r.transitions;
      for (std::size_t k = 0; k < r.notes.size(); ++k) {
        r.notes[k] += v.note_count[k];
        v.note_count[k] = 0;
      }
      if (v.finding) {
        // The path to state i, then this op: shortest, since every state at
        // a smaller depth has been expanded without a finding.
        std::vector<cpudl::Op> path{op};
        for (std::uint32_t s = i; store.parent(s) != StateStore::kNone; s = store.parent(s))
          path.push_back(ops[store.via(s)]);
        std::reverse(path.begin(), path.end());
        io::Program<cpudl::Subject> program;
        program.config = config;
        program.level = b.level;
        program.ops = std::move(path);
        r.replayed = run_lockstep<cpudl::Subject>(
            ls, config, std::span<const cpudl::Op>(program.ops), b.level);
        r.confirmed = r.replayed.finding &&
                      r.replayed.finding->op_index + 1 == program.ops.size() &&
                      r.replayed.finding->signature() == v.finding->signature();
        if (!r.confirmed) r.replayed.finding = v.finding;  // show what the search saw
        r.counterexample = std::move(program);
        r.states = store.size();
        r.complete = false;
        r.seconds = clock.seconds();
        return r;
      }
      Key next;
      if (!codec.encode(ls, &next, &r.error)) return r;
      if (next == current) continue;
      if (store.size() >= StateStore::kNone - 1) {
        r.error = fmt::format("more than {} states: beyond the 32-bit state numbers; lower "
                              "--cpus or --deadlines, or set --max-depth",
                              human_count(store.size()));
        return r;
      }
      if (store.insert(next, i, o)) {
        if (r.states_by_depth.size() <= depth + 1) r.states_by_depth.push_back(0);
        ++r.states_by_depth[depth + 1];
      }
      codec.restore(current, ls);
    }
    if (progress && (i & 255) == 0 && clock.due()) {
      // Live: states and transitions so far, the rate, and how far along the
      // estimate this is (it is an estimate: the run may end before or after).
      const double s = clock.seconds();
      const double rate = static_cast<double>(r.transitions) / std::max(s, 1e-9);
      const double left = estimate.transitions - static_cast<double>(r.transitions);
      const std::string eta =
          left > 0 ? fmt::format("~{:.0f}% of ~{} estimated transitions, ~{:.0f} s left at "
                                 "this rate",
                                 100.0 * static_cast<double>(r.transitions) / estimate.transitions,
                                 human_count(static_cast<unsigned long long>(
                                     std::min(estimate.transitions, 1e18))),
                                 left / rate)
                   : std::string("beyond the estimate");
      progress({s, fmt::format("depth {}: {} states, {} transitions, {}/s, {} left at this "
                               "depth, {:.0f} s; {}",
                               depth, human_count(store.size()), human_count(r.transitions),
                               human_count(static_cast<unsigned long long>(rate)),
                               human_count(depth_end - i - 1), s, eta)});
    }
  }
  r.states = store.size();
  r.seconds = clock.seconds();
  return r;
}

}  // namespace diffsched::verify
