// Swarm testing and size-first programs (mutator.h; issue 28).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "engine/op.h"
#include "io/binary.h"
#include "mutator/mutator.h"
#include "mutator/ops.h"
#include "subjects.h"

namespace diffsched::mutator {

namespace {

constexpr u64 k32 = u64{1} << 32;
constexpr u64 k63 = u64{1} << 63;

// The value classes of one field, as bits of SwarmConfig::values.
template <class T>
unsigned field_classes(const T& f) {
  if constexpr (std::is_same_v<T, Deadline> || std::is_same_v<T, TaskDeadline>) {
    const u64 v = f.value;
    if (v < k32) return 1u << kDeadlineSmall;
    if (v - (k63 - k32) < 2 * k32) return 1u << kDeadlineNear2to63;
    if (v >= u64{0} - k32) return 1u << kDeadlineNear2to64;
    return 1u << kDeadlineOther;
  } else if constexpr (std::is_same_v<T, Cpu>) {
    return f.value >= 64 ? 1u << kCpuBeyondWord0 : 0u;
  } else if constexpr (std::is_same_v<T, kernel::Cpumask>) {
    for (unsigned w = 1; w < std::size(f.bits); ++w)
      if (f.bits[w] != 0) return 1u << kMaskBeyondWord0;
    return 0u;
  } else {
    return 0u;
  }
}

template <class Op>
unsigned op_classes(const Op& op) {
  unsigned c = 0;
  std::visit([&](const auto& o) { for_each_field(o, [&](std::string_view, const auto& f) {
                                    c |= field_classes(f);
                                  }); },
             op);
  return c;
}

template <class S>
inline constexpr std::size_t kKinds = std::variant_size_v<typename S::Op>;

template <class S>
std::size_t filter_as(std::uint8_t* data, std::size_t size, std::size_t max_size,
                      const SwarmConfig& c, const MutateOptions& o) {
  std::vector<std::uint8_t> buf;
  io::Decoder<S> d(io::shape_body({data, size}, o.nr_cpus, &buf));
  io::Program<S> p;
  p.config = d.config();
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  typename S::Op op{};
  while (d.next(&op))
    if (swarm_allows(c, op.index(), op_classes(op))) p.ops.push_back(op);
  io::AnyProgram any{std::move(p)};
  std::vector<std::uint8_t> body = io::encode_body(any);
  if (!o.nr_cpus.empty() && !io::unshape_body(&body, o.nr_cpus)) return size;
  if (body.size() > max_size) return size;
  std::memcpy(data, body.data(), body.size());
  return body.size();
}

}  // namespace

bool swarm_allows(const SwarmConfig& c, std::size_t kind, unsigned classes) {
  return kind < 32 && (c.kinds >> kind & 1u) != 0 && (classes & ~c.values) == 0;
}

SwarmConfig draw_swarm(const FuzzTarget& target, u64 seed) {
  Rng rng(seed);
  std::size_t kinds = 1;
  with_subject_named(target.subject,
                     [&]<class S>(std::type_identity<S>) { kinds = kKinds<S>; });
  SwarmConfig c{.kinds = 0, .values = 0};
  // Each op kind and each value class in with probability 1/2 (Groce et al.,
  // ISSTA 2012), at least one kind; then the first kind (cpudl's set) is put
  // in with probability 1/2 more (3/4 in all), so that heaps still grow.
  while (c.kinds == 0)
    for (std::size_t k = 0; k < kinds && k < 32; ++k)
      if (rng.one_in(2)) c.kinds |= 1u << k;
  if (rng.one_in(2)) c.kinds |= 1u;
  for (unsigned v = 0; v < kValueClasses; ++v)
    if (rng.one_in(2)) c.values |= 1u << v;
  return c;
}

std::size_t swarm_filter(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                         std::size_t max_size, const SwarmConfig& c, const MutateOptions& o) {
  std::size_t out = size;
  with_subject_named(target.subject, [&]<class S>(std::type_identity<S>) {
    out = filter_as<S>(data, size, max_size, c, o);
  });
  return out;
}

StructuredOptions structured_from_env() {
  const auto off = [](const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && std::string_view(v) == "off";
  };
  return {.swarm = !off("DIFFSCHED_SWARM"), .size_first = !off("DIFFSCHED_SIZE_FIRST")};
}

}  // namespace diffsched::mutator
