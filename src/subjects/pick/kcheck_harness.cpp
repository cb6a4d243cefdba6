// pick's part of the kernel-check harness (kshim/harness/harness_internal.h):
// sides that call a candidate's pick function through its table
// (kcheck_abi.h), the sides of a run, and --exhaustive's programs. Built into
// kcheck_harness only (kshim/harness/CMakeLists.txt).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness_internal.h"
#include "kernel/cpumask.h"
#include "subjects/pick/lockstep.h"

namespace diffsched::kcheck::harness {

namespace {

// Pick sides are function pointers: one trampoline per slot.
constexpr int kPickSlots = 2;
const kcheck_candidate* g_pick[kPickSlots] = {};
unsigned g_pick_nr[kPickSlots] = {};
int g_pick_used = 0;

template <int I>
unsigned pick_trampoline(const kernel::Cpumask* dst, const kernel::Cpumask* cpus,
                         const kernel::Cpumask* allowed) {
  if (g_pick_nr[I] != kernel::nr_cpu_ids) {
    g_pick[I]->reset_runtime(kernel::nr_cpu_ids);
    g_pick_nr[I] = kernel::nr_cpu_ids;
  }
  return g_pick[I]->pick(dst->bits, cpus->bits, allowed->bits);
}

template <int I>
std::string pick_warning() {
  return format_warning(*g_pick[I]);
}

// A pick side calling the candidate's function (at most two pick candidates
// per process: the sides are plain function pointers).
std::optional<pick::PickSide> make_pick_side(std::string_view name, const Candidate& c,
                                             std::string* error) {
  if (g_pick_used >= kPickSlots) {
    *error = "at most two pick candidates per harness";
    return std::nullopt;
  }
  const int i = g_pick_used++;
  g_pick[i] = c.table;
  g_pick_nr[i] = 0;
  static constexpr pick::PickFn kFns[kPickSlots] = {pick_trampoline<0>, pick_trampoline<1>};
  static constexpr std::string (*kWarn[kPickSlots])() = {pick_warning<0>, pick_warning<1>};
  return pick::PickSide{name, kFns[i], kWarn[i]};
}

std::vector<pick::PickSide> g_pick_sides;

}  // namespace

template <>
bool accepts_api<pick::Subject>(int api) {
  return api == KCHECK_API_PICK;
}

template <>
void setup_sides<pick::Subject>() {
  const Settings& s = g_settings;
  std::size_t next = 0;
  if (is_builtin(s.baseline)) {
    bool found = false;
    for (const auto& side : pick::default_sides())
      if (s.baseline == fmt::format("builtin-{}", side.name)) {
        g_pick_sides.push_back(pick::PickSide{"baseline", side.fn, nullptr});
        found = true;
      }
    if (!found)
      fail(fmt::format("baseline '{}': builtin-reference, builtin-optimized, "
                       "builtin-fused or a file", s.baseline));
  }
  std::string error;
  for (const char* name : {"baseline", "candidate"}) {
    if (is_builtin(s.baseline) && std::string_view(name) == "baseline") continue;
    auto side = make_pick_side(name, g_candidates[next++], &error);
    if (!side) fail(error);
    g_pick_sides.push_back(*side);
  }
  g_sides.of<pick::Subject>() = [] { return std::make_unique<pick::Lockstep>(g_pick_sides); };
}

// --exhaustive N: every dst/cpus/allowed triple of masks over N CPUs, one
// pick each (a pick has no state).
template <>
int exhaustive<pick::Subject>(const std::vector<unsigned>& b) {
  std::vector<std::string> ops;
  if (b.size() != 1 || b[0] > 6) fail(fmt::format("--exhaustive for {} is N (1..6)", pick::Subject::kName), kHarnessBadUsage);
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

}  // namespace diffsched::kcheck::harness
