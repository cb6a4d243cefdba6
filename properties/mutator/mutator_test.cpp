// The structure-aware mutator (src/mutator/mutator.h): whatever it is given,
// its output fits max_size, decodes to a program whose every field is within
// bounds for its nr_cpu_ids (and, with --nr-cpus, at one of those), and its
// op-level mutations reach what they are for: heaps of 64 CPUs and more, and
// pick inputs whose word count is 3 mod 4.
#include <algorithm>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "io/binary.h"
#include "io/fields.h"
#include "mutator/mutator.h"
#include "subjects.h"

namespace diffsched::mutator {
namespace {

template <class S>
bool fields_in_range(const io::Program<S>& p) {
  bool ok = true;
  for (const auto& op : p.ops)
    std::visit(
        [&](const auto& o) {
          for_each_field(o, [&](std::string_view, const auto& f) {
            using T = std::decay_t<decltype(f)>;
            ok = ok && io::FieldTraits<T>::in_range(f, p.config.nr_cpu_ids);
          });
        },
        op);
  return ok;
}

// Mutates (or crosses over) and checks the output against the rules above.
void check_output(const FuzzTarget& t, std::vector<std::uint8_t> in,
                  const std::vector<std::uint8_t>& other, unsigned seed, std::size_t max_size,
                  const std::vector<unsigned>& nr_cpus, bool cross) {
  const MutateOptions o{.nr_cpus = nr_cpus};
  std::vector<std::uint8_t> buf(std::max(max_size, in.size()));
  std::copy(in.begin(), in.end(), buf.begin());
  const std::size_t n = cross ? cross_over_inputs(t, in, other, buf.data(), max_size, seed, o)
                              : mutate_input(t, buf.data(), std::min(in.size(), max_size),
                                             max_size, seed, o);
  RC_ASSERT(n <= max_size);
  buf.resize(n);
  with_subject_named(t.subject, [&]<class S>(std::type_identity<S>) {
    std::vector<std::uint8_t> shaped;
    const auto p = io::decode_body<S>(io::shape_body(buf, nr_cpus, &shaped));
    kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
    RC_ASSERT(fields_in_range(p));
    if (!nr_cpus.empty())
      RC_ASSERT(std::find(nr_cpus.begin(), nr_cpus.end(), p.config.nr_cpu_ids) != nr_cpus.end());
  });
}

RC_GTEST_PROP(Mutator, OutputFitsDecodesAndStaysWithinBounds,
              (const std::vector<std::uint8_t>& in, const std::vector<std::uint8_t>& other,
               unsigned seed)) {
  const auto& t = kFuzzTargets[*rc::gen::inRange<std::size_t>(0, std::size(kFuzzTargets))];
  const std::size_t max_size = *rc::gen::element<std::size_t>(16, 64, 512, 4096);
  const auto nr_cpus = *rc::gen::element(std::vector<unsigned>{}, std::vector<unsigned>{4, 64},
                                         std::vector<unsigned>{256, 8192, 3});
  check_output(t, in, other, seed, max_size, nr_cpus, *rc::gen::arbitrary<bool>());
}

// A chain of mutations from an empty body, each output fed back.
template <class F>
void chain(const FuzzTarget& t, std::vector<std::uint8_t> body, unsigned steps, F&& seen) {
  std::vector<std::uint8_t> buf(4096);
  for (unsigned s = 0; s < steps; ++s) {
    std::copy(body.begin(), body.end(), buf.begin());
    const std::size_t n = mutate_input(t, buf.data(), body.size(), buf.size(), s, {});
    if (n > 0) body.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
    seen(body);
  }
}

TEST(Mutator, FillsHeapsOfSixtyFourCpusAndMore) {
  std::size_t most = 0;
  chain(*find_target("cpudl"), {14, 0}, 400, [&](const std::vector<std::uint8_t>& body) {
    const auto p = io::decode_body<cpudl::Subject>(body);
    std::set<int> live;
    for (const auto& op : p.ops) {
      if (const auto* s = std::get_if<cpudl::Set>(&op)) live.insert(s->cpu);
      if (const auto* c = std::get_if<cpudl::Clear>(&op)) live.erase(c->cpu);
      most = std::max(most, live.size());
    }
  });
  EXPECT_GE(most, 64u);
}

TEST(Mutator, ReachesPickWordCountsThreeModFour) {
  bool reached = false;
  chain(*find_target("pick"), {10}, 400, [&](const std::vector<std::uint8_t>& body) {
    const auto p = io::decode_body<pick::Subject>(body);
    reached = reached || ((p.config.nr_cpu_ids + 63) / 64 % 4 == 3 && !p.ops.empty());
  });
  EXPECT_TRUE(reached);
}

}  // namespace
}  // namespace diffsched::mutator
