#include "mutator/mutator.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/op.h"
#include "io/binary.h"
#include "mutator/ops.h"
#include "subjects.h"

namespace diffsched::mutator {

unsigned interesting_count(Rng& rng, unsigned limit) {
  if (limit <= 1) return 1;
  if (rng.one_in(2)) {
    // 2^k - 1, 2^k, 2^k + 1 for 2^k up to the limit (a new depth starts at 2^k - 1).
    unsigned top = 1;
    while (top * 2 <= limit) top *= 2;
    unsigned levels = 0;
    for (unsigned v = top; v > 1; v /= 2) ++levels;
    const unsigned p = 1u << (1 + rng.below(levels));
    const unsigned v = p - 1 + static_cast<unsigned>(rng.below(3));
    return std::clamp(v, 1u, limit);
  }
  return 1 + static_cast<unsigned>(rng.below(limit));
}

unsigned boundary_cpu(Rng& rng, unsigned nr) {
  if (nr <= 1) return 0;
  unsigned v = 0;
  switch (rng.below(6)) {
    case 0: v = static_cast<unsigned>(rng.below(2)); break;
    case 1: v = nr - 1 - static_cast<unsigned>(rng.below(2)); break;
    case 2: {  // a word edge
      const unsigned words = (nr + 63) / 64;
      v = 64 * static_cast<unsigned>(rng.below(words)) + (rng.one_in(2) ? 0 : 63);
      break;
    }
    case 3: {  // a power of two and its neighbours
      unsigned p = 1;
      while (p * 2 < nr && !rng.one_in(3)) p *= 2;
      v = p - 1 + static_cast<unsigned>(rng.below(3));
      break;
    }
    case 4: v = (nr - 1) / 64 * 64 + static_cast<unsigned>(rng.below(64)); break;  // last word
    default: v = static_cast<unsigned>(rng.below(nr)); break;
  }
  return std::min(v, nr - 1);
}

unsigned mutate_nr_cpus(Rng& rng, unsigned nr, std::span<const unsigned> allowed) {
  if (!allowed.empty()) return allowed[rng.below(allowed.size())];
  switch (rng.below(4)) {
    case 0: return io::kNrCpusTable[rng.below(io::kNrCpusTable.size())];
    case 1: {  // a word count of each residue mod 4: 1..12 words, partial or full
      const unsigned words = 1 + static_cast<unsigned>(rng.below(12));
      return 64 * (words - 1) + (rng.one_in(2) ? 64 : 1 + static_cast<unsigned>(rng.below(63)));
    }
    case 2: {  // a word edge +-1 near the current value
      const unsigned edge = 64 * (1 + static_cast<unsigned>(rng.below(std::max(1u, nr / 64 + 1))));
      return std::clamp(edge - 1 + static_cast<unsigned>(rng.below(3)), 1u, kernel::NR_CPUS);
    }
    default: return 1 + static_cast<unsigned>(rng.below(kernel::NR_CPUS));
  }
}

namespace {

// Keeps every field valid at nr_cpu_ids `nr`: CPUs modulo nr, masks without
// bits at or beyond it.
template <class Op>
void clamp_to_nr(Op& op, unsigned nr) {
  std::visit(
      [&](auto& o) {
        for_each_field(o, [&](std::string_view, auto& f) {
          using T = std::decay_t<decltype(f)>;
          if constexpr (std::is_same_v<T, Cpu>) {
            f = static_cast<int>(static_cast<unsigned>(f.value) % nr);
          } else if constexpr (std::is_same_v<T, kernel::Cpumask>) {
            for (unsigned w = 0; w < std::size(f.bits); ++w) {
              const unsigned lo = 64 * w;
              if (lo >= nr) f.bits[w] = 0;
              else if (nr - lo < 64) f.bits[w] &= (1UL << (nr - lo)) - 1;
            }
          }
        });
      },
      op);
}

// How many ops a mutation works on: what fits in max_size (an op takes at
// least 3 bytes with deadlines, 4 without), and at most kMaxOps<S>. Each
// mutation decodes and encodes the whole list, and an op is large in memory
// (a mask of NR_CPUS bits, three for pick), so the cap keeps a mutation
// cheap next to a run: 384 cpudl ops fill a heap of 256 CPUs and more.
template <class S>
inline constexpr std::size_t kMaxOps = io::kHasDeadlines<S> ? 384 : 48;
template <class S>
std::size_t max_ops_for(std::size_t max_size) {
  return std::clamp<std::size_t>(max_size / (io::kHasDeadlines<S> ? 3 : 4), 1, kMaxOps<S>);
}

// Decodes at most max_ops ops of `in` into *p, whose storage is reused
// (an op holds a mask of NR_CPUS bits: a fresh vector per call would cost
// page faults, not just copies).
template <class S>
void decode_shaped(std::span<const std::uint8_t> in, const MutateOptions& o, std::size_t max_ops,
                   io::Program<S>* p) {
  std::vector<std::uint8_t> buf;
  io::Decoder<S> d(io::shape_body(in, o.nr_cpus, &buf));
  p->config = d.config();
  p->ops.clear();
  p->ops.reserve(max_ops);
  kernel::NrCpuIdsScope scope(p->config.nr_cpu_ids);
  typename S::Op op{};
  while (p->ops.size() < max_ops && d.next(&op)) p->ops.push_back(op);
}

// Per thread, per subject: the programs a mutation works on.
template <class S>
io::Program<S>& scratch(int which) {
  thread_local io::Program<S> programs[2];
  return programs[which];
}

// Encodes `p` into out[0, max_size) (in the --nr-cpus form if asked),
// dropping ops from the end until it fits; 0 if it cannot.
template <class S>
std::size_t write_program(io::Program<S>& p, std::uint8_t* out, std::size_t max_size,
                          const MutateOptions& o) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    io::AnyProgram any{std::move(p)};
    std::vector<std::uint8_t> body = io::encode_body(any);
    p = std::move(std::get<io::Program<S>>(any));
    if (!o.nr_cpus.empty() && !io::unshape_body(&body, o.nr_cpus)) return 0;
    if (body.size() <= max_size) {
      std::memcpy(out, body.data(), body.size());
      return body.size();
    }
    if (p.ops.empty()) return 0;
    const std::size_t keep = p.ops.size() * max_size / body.size() * 9 / 10;
    p.ops.resize(std::min(keep, p.ops.size() - 1));
  }
  return 0;
}

template <class S>
bool mutate_program(io::Program<S>& p, Rng& rng, const OpBudget& b) {
  bool changed = false;
  const unsigned rounds = 1 + static_cast<unsigned>(rng.below(rng.one_in(2) ? 1 : 4));
  for (unsigned r = 0; r < rounds; ++r) {
    switch (rng.below(10)) {
      case 0: {
        const unsigned nr = mutate_nr_cpus(rng, p.config.nr_cpu_ids, b.nr_cpus);
        if (nr == p.config.nr_cpu_ids) break;
        p.config.nr_cpu_ids = nr;
        for (auto& op : p.ops) clamp_to_nr(op, nr);
        changed = true;
        break;
      }
      case 1:
      case 2: changed |= mutate_runs(p.ops, rng, b); break;
      default: {
        kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
        changed |= mutate_subject(p, rng, b);
        break;
      }
    }
  }
  return changed;
}

template <class S>
std::size_t mutate_as(std::uint8_t* data, std::size_t size, std::size_t max_size, Rng& rng,
                      const MutateOptions& o) {
  const OpBudget b{.max_ops = max_ops_for<S>(max_size), .nr_cpus = o.nr_cpus};
  io::Program<S>& p = scratch<S>(0);
  decode_shaped<S>({data, size}, o, b.max_ops, &p);
  if (!mutate_program(p, rng, b)) return 0;
  return write_program(p, data, max_size, o);
}

}  // namespace

std::size_t size_first_input(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                             std::size_t max_size, unsigned seed, const MutateOptions& o) {
  Rng rng(seed);
  std::size_t out = 0;
  with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
    const OpBudget b{.max_ops = max_ops_for<S>(max_size), .nr_cpus = o.nr_cpus};
    io::Program<S>& p = scratch<S>(0);
    decode_shaped<S>({data, size}, o, b.max_ops, &p);
    kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
    if (fill_first(p, rng, b)) out = write_program(p, data, max_size, o);
  });
  return out;
}

MutateOptions options_from_env(ByteMutate byte_mutate) {
  MutateOptions o{.byte_mutate = byte_mutate};
  const char* mode = std::getenv("DIFFSCHED_MUTATOR");
  const std::string_view m = mode ? mode : "";
  if (m == "bytes") o.byte_share = 256;
  else if (m == "ops") o.byte_share = 0;
  return o;
}

std::size_t mutate_input(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                         std::size_t max_size, unsigned seed, const MutateOptions& o) {
  Rng rng(seed);
  const bool bytes_first = o.byte_mutate && rng.below(256) < o.byte_share;
  std::size_t out = 0;
  if (!bytes_first)
    with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
      out = mutate_as<S>(data, size, max_size, rng, o);
    });
  if (out > 0) return out;
  return o.byte_mutate ? o.byte_mutate(data, size, max_size) : std::min(size, max_size);
}

std::size_t cross_over_inputs(const FuzzTarget& target, std::span<const std::uint8_t> a,
                              std::span<const std::uint8_t> b, std::uint8_t* out,
                              std::size_t max_out, unsigned seed, const MutateOptions& o) {
  Rng rng(seed);
  std::size_t n = 0;
  with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
    io::Program<S>& pa = scratch<S>(0);
    io::Program<S>& pb = scratch<S>(1);
    decode_shaped<S>(a, o, max_ops_for<S>(max_out), &pa);
    decode_shaped<S>(b, o, max_ops_for<S>(max_out), &pb);
    pa.ops = splice_ops(pa.ops, pb.ops, rng, max_ops_for<S>(max_out));
    for (auto& op : pa.ops) clamp_to_nr(op, pa.config.nr_cpu_ids);
    n = write_program(pa, out, max_out, o);
  });
  if (n > 0) return n;
  // No subject (the inputs target), or nothing fits: a byte splice.
  const std::size_t cut_a = std::min(a.size(), max_out) / 2;
  const std::size_t take_b = std::min(b.size() / 2, max_out - cut_a);
  std::memcpy(out, a.data(), cut_a);
  std::memcpy(out + cut_a, b.data() + (b.size() - take_b), take_b);
  return cut_a + take_b;
}

}  // namespace diffsched::mutator
