// Swarm testing and size-first programs (src/mutator/mutator.h): after
// swarm_filter() no op of a left-out kind and no field of a left-out value
// class remains, the kinds kept are untouched, and size_first_input() fills
// the heap to its drawn size before the input's own ops.
#include <algorithm>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "io/binary.h"
#include "mutator/mutator.h"
#include "subjects.h"

namespace diffsched::mutator {
namespace {

// A cpudl body of many ops of every kind: a random body mutated in a chain.
std::vector<std::uint8_t> busy_body(unsigned seed) {
  std::vector<std::uint8_t> buf(4096);
  std::size_t n = 0;
  for (unsigned k = 0; k < 200; ++k) buf[n++] = static_cast<std::uint8_t>(seed * 131 + k * 29);
  for (unsigned s = 0; s < 20; ++s)
    if (const std::size_t m = mutate_input(*find_target("cpudl"), buf.data(), n, buf.size(),
                                           seed * 977 + s, {}))
      n = m;
  buf.resize(n);
  return buf;
}

std::set<std::size_t> kinds_of(const io::Program<cpudl::Subject>& p) {
  std::set<std::size_t> k;
  for (const auto& op : p.ops) k.insert(op.index());
  return k;
}

RC_GTEST_PROP(Swarm, LeftOutKindsAndClassesNeverAppear, (unsigned seed)) {
  const FuzzTarget& t = *find_target("cpudl");
  std::vector<std::uint8_t> body = busy_body(seed);
  const auto before = io::decode_body<cpudl::Subject>(body);
  const SwarmConfig c = draw_swarm(t, seed);
  RC_ASSERT(c.kinds != 0u);
  const std::size_t size = body.size();
  body.resize(4096);
  body.resize(swarm_filter(t, body.data(), size, body.size(), c, {}));
  const auto after = io::decode_body<cpudl::Subject>(body);
  RC_ASSERT(after.config.nr_cpu_ids == before.config.nr_cpu_ids);
  for (const auto k : kinds_of(after)) RC_ASSERT((c.kinds >> k & 1u) != 0u);
  std::size_t kept = 0;
  for (const auto& op : before.ops) kept += (c.kinds >> op.index() & 1u) != 0u ? 1u : 0u;
  RC_ASSERT(after.ops.size() <= kept);
  for (const auto& op : after.ops)
    if (const auto* s = std::get_if<cpudl::Set>(&op)) {
      if (s->dl < (kernel::u64{1} << 32)) RC_ASSERT((c.values >> kDeadlineSmall & 1u) != 0u);
      if (s->cpu >= 64) RC_ASSERT((c.values >> kCpuBeyondWord0 & 1u) != 0u);
    }
}

TEST(Swarm, OneKindLeftOutIsGoneAndTheOthersStay) {
  const FuzzTarget& t = *find_target("cpudl");
  std::vector<std::uint8_t> body = busy_body(7);
  const auto before = io::decode_body<cpudl::Subject>(body);
  ASSERT_TRUE(kinds_of(before).contains(0u)) << "the chain made no set";
  const SwarmConfig no_set{.kinds = ~1u, .values = ~0u};
  const std::size_t size = body.size();
  body.resize(4096);
  body.resize(swarm_filter(t, body.data(), size, body.size(), no_set, {}));
  const auto after = io::decode_body<cpudl::Subject>(body);
  EXPECT_FALSE(kinds_of(after).contains(0u));
  std::size_t others = 0;
  for (const auto& op : before.ops) others += op.index() != 0 ? 1u : 0u;
  EXPECT_EQ(after.ops.size(), others);
}

TEST(Swarm, DrawsLeaveSomethingOutAndVary) {
  std::set<std::uint32_t> kinds, values;
  for (unsigned s = 0; s < 64; ++s) {
    const SwarmConfig c = draw_swarm(*find_target("cpudl"), s);
    kinds.insert(c.kinds);
    values.insert(c.values);
  }
  EXPECT_GT(kinds.size(), 8u);
  EXPECT_GT(values.size(), 8u);
}

TEST(SizeFirst, FillsTheHeapToItsSizeBeforeTheOps) {
  const FuzzTarget& t = *find_target("cpudl");
  std::size_t most = 0;
  for (unsigned s = 0; s < 64; ++s) {
    std::vector<std::uint8_t> buf(4096);
    buf[0] = 14;  // nr_cpu_ids from the table: 256
    buf[1] = static_cast<std::uint8_t>(s);
    const std::size_t n = size_first_input(t, buf.data(), 2, buf.size(), s, {});
    ASSERT_GT(n, 0u);
    buf.resize(n);
    const auto p = io::decode_body<cpudl::Subject>(buf);
    std::set<int> live;
    for (const auto& op : p.ops) {
      const auto* set = std::get_if<cpudl::Set>(&op);
      if (!set) break;  // the fill comes first
      live.insert(set->cpu);
    }
    EXPECT_LE(live.size(), p.config.nr_cpu_ids);
    most = std::max(most, live.size());
  }
  EXPECT_GE(most, 64u);
  std::vector<std::uint8_t> pick(64, 3);
  EXPECT_EQ(size_first_input(*find_target("pick"), pick.data(), 8, pick.size(), 1, {}), 0u);
}

}  // namespace
}  // namespace diffsched::mutator
