// --exhaustive (the kcheck harness's property run over every program within
// bounds): harness_internal.h, docs/kernel-check.md.
#include <fmt/format.h>

#include "harness_internal.h"
#include "harness_record.h"
#include "io/binary.h"

namespace diffsched::kcheck::harness {

namespace {

// The bounded exhaustive check (--exhaustive): every program, built as .ops
// text op by op. cpudl N D K: every sequence of exactly K ops (a shorter
// program is a prefix of a longer one, and every op is checked) of set c d,
// clear c, set_freecpu c, clear_freecpu c and find d mask (every non-empty
// mask) over N CPUs and the first D of the deadlines below (0, 1 and 2^64-1
// straddle the wrap: dl_time_before() orders them 2^64-1 < 0 < 1). pick N:
// every dst/cpus/allowed triple of masks over N CPUs, one pick each (a pick
// has no state). A program that leaves the contract domain stops there (as
// in every run) and is counted.
constexpr std::uint64_t kExhaustiveDeadlines[] = {0, 1, ~std::uint64_t{0}, 2,
                                                  std::uint64_t{1} << 63};

std::string mask_text(unsigned bits, unsigned n) {
  std::string t;
  for (unsigned c = 0; c < n; ++c)
    if (bits >> c & 1) t += (t.empty() ? "" : ",") + std::to_string(c);
  if (!t.empty()) return t;
  return io::format_value(kernel::Cpumask{});
}

template <class S>
typename S::Op parse_exhaustive_op(const std::string& line) {
  const auto words = io::split_words(line);
  typename S::Op op{};
  std::string error;
  if (!io::parse_op(std::span<const std::string_view>(words), &op, &error))
    fail(fmt::format("--exhaustive: cannot build '{}': {}", line, error));
  return op;
}

template <class S>
int run_exhaustive(typename S::Config config, const std::vector<std::vector<std::string>>& per_op,
                   unsigned k, const std::string& bounds) {
  kernel::NrCpuIdsScope scope(config.nr_cpu_ids);
  std::vector<typename S::Op> choices;
  for (const auto& line : per_op[0]) choices.push_back(parse_exhaustive_op<S>(line));
  std::size_t programs = 0, left = 0;
  std::vector<std::size_t> digit(k, 0);
  io::Program<S> p;
  p.config = config;
  p.level = g_settings.level;
  p.ops.resize(k);
  for (;;) {
    for (unsigned i = 0; i < k; ++i) p.ops[i] = choices[digit[i]];
    g_current.seed_text = io::format_program(io::AnyProgram(p));
    begin_input(g_current.seed_text);
    arm_hang_alarm(true);
    const Verdict v = replay(p, false);
    arm_hang_alarm(false);
    end_input();
    g_current.seed_text.clear();
    ++programs;
    record().programs = programs;
    record().ops += v.ops_run;
    if (v.finding && !is_failure(v)) ++left;
    if (is_failure(v)) {
      fmt::print("FINDING in exhaustive program {} ({}):\n{}\n", programs, bounds,
                 v.finding->describe());
      return minimize_and_write(io::AnyProgram(p), g_settings.o.output);
    }
    unsigned i = 0;
    while (i < k && ++digit[i] == choices.size()) digit[i++] = 0;
    if (i == k) break;
  }
  fmt::print("exhaustive: no difference over all {} programs of {} ({} left the domain early)\n",
             programs, bounds, left);
  return kHarnessOk;
}

}  // namespace

int mode_exhaustive() {
  const std::vector<unsigned>& b = g_settings.o.exhaustive;
  std::vector<std::string> ops;
  if (g_settings.tool->shape == CandidateShape::kFunction) {  // every mask triple
    if (b.size() != 1 || b[0] > 6) fail("--exhaustive for pick is N (1..6)", kHarnessBadUsage);
    const unsigned n = b[0];
    for (unsigned d = 0; d < (1u << n); ++d)
      for (unsigned c = 0; c < (1u << n); ++c)
        for (unsigned a = 0; a < (1u << n); ++a)
          ops.push_back(fmt::format("pick dst={} cpus={} allowed={}", mask_text(d, n),
                                    mask_text(c, n), mask_text(a, n)));
    pick::Config config;
    config.nr_cpu_ids = n;
    return run_exhaustive<pick::Subject>(config, {ops}, 1,
                                         fmt::format("1 op, {} CPUs, every mask", n));
  }
  if (b.size() != 3 || b[1] > std::size(kExhaustiveDeadlines))
    fail(fmt::format("--exhaustive for cpudl is N D K (D at most {})",
                     std::size(kExhaustiveDeadlines)), kHarnessBadUsage);
  const unsigned n = b[0], d = b[1], k = b[2];
  for (unsigned c = 0; c < n; ++c) {
    for (unsigned i = 0; i < d; ++i)
      ops.push_back(fmt::format("set {} {}", c, kExhaustiveDeadlines[i]));
    ops.push_back(fmt::format("clear {}", c));
    ops.push_back(fmt::format("set_freecpu {}", c));
    ops.push_back(fmt::format("clear_freecpu {}", c));
  }
  for (unsigned i = 0; i < d; ++i)
    for (unsigned m = 1; m < (1u << n); ++m)
      ops.push_back(fmt::format("find {} {}", kExhaustiveDeadlines[i], mask_text(m, n)));
  cpudl::Config config;
  config.nr_cpu_ids = n;
  if (!g_settings.o.capacity.empty())
    fail("--exhaustive does not run with --capacity (its finds are not find_cap)",
         kHarnessBadUsage);
  return run_exhaustive<cpudl::Subject>(
      config, {ops}, k, fmt::format("{} ops, {} CPUs, {} deadlines", k, n, d));
}

}  // namespace diffsched::kcheck::harness
