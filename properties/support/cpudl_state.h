// RapidCheck stateful testing of the cpudl subject: one rc::state::Command
// per op of cpudl::Op, generated from the op table, run through LockstepRun.
//
//   CpudlCheck c{.nr_cpu_ids = 4, .level = Level::kDeadline};
//   run_cpudl_state_check(c, domain);   // inside a property: RC_FAIL on a finding
#pragma once

#include <memory>
#include <ostream>
#include <variant>

#include <rapidcheck/state.h>

#include "subjects/cpudl/lockstep.h"
#include "engine/runner.h"
#include "io/text.h"
#include "support/generators.h"

namespace diffsched::testing {

struct CpudlCheck {
  unsigned nr_cpu_ids = 4;
  Level level = Level::kDeadline;
  // Findings of these kinds do not fail the property (e.g. out-of-domain in
  // the unconstrained domain); they are tagged instead.
  bool tolerate_out_of_domain = false;
  // Full checks by default here: RapidCheck has no end-of-sequence hook for
  // the closing check of the incremental mode (compared separately).
  cpudl::CheckMode mode = cpudl::CheckMode::kFull;
  // CPU capacities for find_cap (Config::capacity); empty: drawn per run.
  std::vector<std::uint16_t> capacity;
  // Builds the sides; default: reference + optimized.
  std::function<std::unique_ptr<cpudl::Lockstep>()> make_lockstep;
};

// The model RapidCheck keeps: configuration, domain and the simple model
// (which knows the live CPUs and deadlines the generators draw from).
struct CpudlRcModel {
  unsigned nr_cpu_ids = 4;
  Domain domain;
  cpudl::Model oracle;
};

struct CpudlRcSut {
  CpudlRcSut(const CpudlCheck& c, cpudl::Lockstep& ls)
      : check(c), run(ls, cpudl::Config{c.nr_cpu_ids, c.capacity}, c.level) {}
  const CpudlCheck& check;
  LockstepRun<cpudl::Subject> run;
  std::vector<cpudl::Op> ops;  // what ran so far, for the failure record
};

// The last failing sequence and finding (RapidCheck's last failing run is its
// shrunk counterexample), so tests can inspect what it found.
struct LastFailure {
  std::vector<cpudl::Op> ops;
  unsigned nr_cpu_ids = 0;
  std::optional<Finding> finding;
};
inline LastFailure& last_cpudl_failure() {
  static LastFailure f;
  return f;
}

inline rc::Gen<int> gen_cpu(const CpudlRcModel& m) {
  const int nr = static_cast<int>(m.nr_cpu_ids);
  std::vector<int> live;
  m.oracle.for_each([&](int cpu, u64) { live.push_back(cpu); });
  if (live.empty()) return rc::gen::inRange(0, nr);
  return rc::gen::weightedOneOf<int>({{1, rc::gen::inRange(0, nr)}, {1, rc::gen::elementOf(live)}});
}

inline rc::Gen<u64> gen_deadline(const CpudlRcModel& m) {
  std::vector<u64> live;
  m.oracle.for_each([&](int, u64 dl) { live.push_back(dl); });
  const Domain d = m.domain;
  rc::Gen<u64> fresh =
      d.unconstrained
          ? rc::gen::weightedOneOf<u64>(
                {{3, full_range_u64()},
                 {1, rc::gen::element<u64>(0, (u64{1} << 63) - 1, u64{1} << 63, ~u64{0})}})
          : rc::gen::map(rc::gen::inRange<u64>(0, d.width),
                         [base = d.base](u64 off) { return base + off; });
  if (live.empty()) return fresh;
  auto tie = rc::gen::elementOf(live);
  auto neighbour = rc::gen::map(rc::gen::pair(rc::gen::elementOf(live), rc::gen::arbitrary<bool>()),
                                [](std::pair<u64, bool> p) { return p.second ? p.first + 1 : p.first - 1; });
  return rc::gen::weightedOneOf<u64>({{3, fresh}, {2, tie}, {1, neighbour}});
}

template <class OpT>
struct CpudlCommand final : rc::state::Command<CpudlRcModel, CpudlRcSut> {
  unsigned nr_cpu_ids;  // declared first: `op`'s generators use it
  OpT op;

  explicit CpudlCommand(const CpudlRcModel& m)
      : nr_cpu_ids(m.nr_cpu_ids),
        op(gen_op_fields<OpT>(
            m.nr_cpu_ids, [&] { return gen_cpu(m); }, [&] { return gen_deadline(m); })) {}

  void checkPreconditions(const CpudlRcModel& m) const override {
    std::string why;
    bool cpus_ok = true;
    for_each_field(op, [&](std::string_view, const auto& v) {
      cpus_ok = cpus_ok && io::FieldTraits<std::decay_t<decltype(v)>>::in_range(v, m.nr_cpu_ids);
    });
    RC_PRE(cpus_ok);
    RC_PRE(m.oracle.permits(cpudl::Op(op), &why));
  }

  void apply(CpudlRcModel& m) const override {
    kernel::NrCpuIdsScope scope(m.nr_cpu_ids);
    m.oracle.apply(cpudl::Op(op));
  }

  void run(const CpudlRcModel& m, CpudlRcSut& sut) const override {
    const auto& verdict = sut.run.verdict();
    if (verdict.finding) return;  // only a tolerated finding gets here
    sut.ops.push_back(op);
    if (sut.run.feed(cpudl::Op(op))) return;
    const Finding& f = *verdict.finding;
    if (f.kind == FindingKind::kOutOfDomain && sut.check.tolerate_out_of_domain) {
      RC_TAG("out-of-domain finding (tolerated)");
      return;
    }
    auto& last = last_cpudl_failure();
    last.ops = sut.ops;
    last.nr_cpu_ids = m.nr_cpu_ids;
    last.finding = f;
    RC_FAIL(f.describe());
  }

  void show(std::ostream& os) const override {
    kernel::NrCpuIdsScope scope(nr_cpu_ids);
    os << io::format_op(cpudl::Op(op));
  }
};

template <class Variant>
struct CpudlCommands;
template <class... Ops>
struct CpudlCommands<std::variant<Ops...>> {
  static auto gen() { return rc::state::gen::execOneOfWithArgs<CpudlCommand<Ops>...>(); }
};

// The body of a stateful property: a fresh lockstep, a domain, and a random
// command sequence; fails (RC_FAIL) with the finding's description.
inline void run_cpudl_state_check(const CpudlCheck& given, const Domain& domain) {
  CpudlCheck check = given;
  if (check.capacity.empty())  // symmetric, big.LITTLE, three sizes
    check.capacity = *rc::gen::elementOf(std::vector<std::vector<std::uint16_t>>{
        {1024}, {1024, 512}, {1024, 446, 446, 160}, {160, 1024, 446}});
  auto ls = check.make_lockstep ? check.make_lockstep() : std::make_unique<cpudl::Lockstep>();
  ls->set_check_mode(check.mode);
  CpudlRcModel m0;
  m0.nr_cpu_ids = check.nr_cpu_ids;
  m0.domain = domain;
  m0.oracle.reset(check.nr_cpu_ids);
  m0.oracle.set_capacity(check.capacity);
  CpudlRcSut sut(check, *ls);
  rc::state::check(m0, sut, CpudlCommands<cpudl::Op>::gen());
  const Verdict& v = sut.run.verdict();
  for (std::size_t k = 0; k < v.note_count.size(); ++k)
    if (v.note_count[k]) RC_TAG(std::string(note_name(static_cast<NoteKind>(k))));
}

}  // namespace diffsched::testing
