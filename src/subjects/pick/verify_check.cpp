#include "subjects/pick/verify_check.h"

#include <cmath>

#include <fmt/format.h>

#include "engine/runner.h"

namespace diffsched::pick::verify {

bool PickResult::ok() const {
  if (!error.empty() || counterexample || !transcription.mismatch.empty()) return false;
  for (const auto& c : checks)
    if (!c.passed) return false;
  for (const auto& l : lemmas)
    if (l.status != Lemma::Status::kProved) return false;
  return true;
}

namespace {

// Runs pick ops through one lockstep and keeps the first failing one.
class PickRunner {
 public:
  PickRunner(std::span<const pick::PickSide> sides, PickResult& result,
             const ProgressFn& progress, Stopwatch& clock)
      : sides_(sides), lockstep_(sides), result_(result), progress_(progress), clock_(clock) {
    verdict_.subject = pick::Subject::kName;
    verdict_.level = Level::kExact;
  }

  kernel::Cpumask& mask(unsigned i) {
    pick::Pick& p = std::get<pick::Pick>(op_);
    return i == 0 ? p.dst : i == 1 ? p.cpus : p.allowed;
  }

  // Sets nr_cpu_ids for the following checks; every mask must be empty.
  void start(unsigned nr_cpu_ids) { lockstep_.reset(pick::Config{nr_cpu_ids}); }

  // Checks the current op (under NrCpuIdsScope); false after a finding.
  bool check(PickCheck& c) {
    ++c.triples;
    verdict_.finding.reset();
    lockstep_.step(op_, 0, Level::kExact, verdict_);
    if (verdict_.finding) {
      io::Program<pick::Subject> program;
      program.config.nr_cpu_ids = kernel::nr_cpu_ids;
      program.level = Level::kExact;
      program.ops.push_back(op_);
      pick::Lockstep fresh(sides_);
      result_.replayed = run_lockstep<pick::Subject>(
          fresh, program.config, std::span<const pick::Op>(program.ops), Level::kExact);
      result_.counterexample = std::move(program);
      return false;
    }
    if ((c.triples & 0xfffff) == 0 && progress_ && clock_.due())
      progress_({clock_.seconds(), fmt::format("{}: nr_cpu_ids {}, {} triples, {:.0f} s", c.name,
                                               kernel::nr_cpu_ids, human_count(c.triples),
                                               clock_.seconds())});
    return true;
  }

 private:
  std::span<const pick::PickSide> sides_;
  pick::Lockstep lockstep_;
  PickResult& result_;
  const ProgressFn& progress_;
  Stopwatch& clock_;
  pick::Op op_ = pick::Pick{};
  Verdict verdict_;
};

// 2^(3n) triples for each n: the three masks are the three n-bit fields of t.
bool every_triple(PickRunner& run, unsigned bits, PickCheck& c) {
  for (unsigned n = 1; n <= bits; ++n) {
    kernel::NrCpuIdsScope scope(n);
    run.start(n);
    const std::uint64_t field = (std::uint64_t{1} << n) - 1;
    for (std::uint64_t t = 0; t < std::uint64_t{1} << (3 * n); ++t) {
      for (unsigned i = 0; i < 3; ++i) run.mask(i).bits[0] = (t >> (i * n)) & field;
      if (!run.check(c)) return false;
    }
    for (unsigned i = 0; i < 3; ++i) run.mask(i).bits[0] = 0;
  }
  return true;
}

// Every triple whose set bits lie on CPUs p < q (or p alone, or none): mask
// i holds p iff bit i of `at_p` is set, q iff bit i of `at_q` is. Each CPU
// used is in some mask (at_p, at_q in 1..7), else it is a smaller case. For
// each n: no CPU, then one CPU, then two, so a first failure is a simplest one.
bool two_cpus(PickRunner& run, unsigned max_cpus, PickCheck& c) {
  auto place = [&](unsigned cpu, unsigned members, bool on) {
    for (unsigned i = 0; i < 3; ++i)
      if ((members >> i) & 1) {
        auto& word = run.mask(i).bits[cpu / 64];
        if (on)
          word |= 1UL << (cpu % 64);
        else
          word &= ~(1UL << (cpu % 64));
      }
  };
  for (unsigned n = 1; n <= max_cpus; ++n) {
    kernel::NrCpuIdsScope scope(n);
    run.start(n);
    if (!run.check(c)) return false;  // three empty masks
    for (unsigned p = 0; p < n; ++p)
      for (unsigned at_p = 1; at_p < 8; ++at_p) {
        place(p, at_p, true);
        if (!run.check(c)) return false;
        place(p, at_p, false);
      }
    for (unsigned p = 0; p < n; ++p)
      for (unsigned at_p = 1; at_p < 8; ++at_p) {
        place(p, at_p, true);
        for (unsigned q = p + 1; q < n; ++q)
          for (unsigned at_q = 1; at_q < 8; ++at_q) {
            place(q, at_q, true);
            if (!run.check(c)) return false;
            place(q, at_q, false);
          }
        place(p, at_p, false);
      }
  }
  return true;
}

}  // namespace

PickEstimate estimate_pick(const PickBounds& b) {
  PickEstimate e;
  for (unsigned n = 1; n <= b.bits; ++n) e.every_triples += std::ldexp(1.0, static_cast<int>(3 * n));
  for (unsigned n = 1; n <= b.boundary_cpus; ++n) {
    const double m = n;
    e.two_cpu_triples += 1 + 7 * m + 49 * m * (m - 1) / 2;
  }
  e.seconds = e.every_triples / PickEstimate::kEveryTriplesPerSecond +
              e.two_cpu_triples / PickEstimate::kTwoCpuTriplesPerSecond;
  return e;
}

PickResult verify_pick(const PickBounds& b, std::span<const pick::PickSide> sides,
                       const ProgressFn& progress) {
  PickResult r;
  if (b.bits < 1 || b.bits > 10) {
    r.error = fmt::format("--bits {} is outside 1..10", b.bits);
    return r;
  }
  if (b.boundary_cpus > kernel::NR_CPUS) {
    r.error = fmt::format("--boundary-cpus {} is beyond NR_CPUS {}", b.boundary_cpus,
                          kernel::NR_CPUS);
    return r;
  }
  Stopwatch clock;
  PickRunner run(sides, r, progress, clock);
  {
    PickCheck c{"every-triple", fmt::format("nr_cpu_ids 1..{}, every triple of masks", b.bits)};
    Stopwatch t;
    c.passed = every_triple(run, b.bits, c);
    c.seconds = t.seconds();
    r.checks.push_back(c);
  }
  if (!r.counterexample && b.boundary_cpus > 0) {
    PickCheck c{"two-cpus",
                fmt::format("nr_cpu_ids 1..{}, every triple with its set bits on at most two "
                            "CPUs",
                            b.boundary_cpus)};
    Stopwatch t;
    c.passed = two_cpus(run, b.boundary_cpus, c);
    c.seconds = t.seconds();
    r.checks.push_back(c);
  }
  if (!r.counterexample && b.z3) {
    r.lemmas = prove_pick_lemmas();
    r.transcription = transcription_check(sides, 200);
  }
  r.seconds = clock.seconds();
  return r;
}

}  // namespace diffsched::pick::verify
