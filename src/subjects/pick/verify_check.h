// Verification of the pick variants (reference, optimized, fused) against
// each other and the model: two exhaustive checks on the real code plus the
// Z3 word lemmas of subjects/pick/verify_z3.h. docs/verification.md shows how they
// combine into a proof for every nr_cpu_ids up to NR_CPUS (8192).
//
//   PickBounds b{.bits = 8, .boundary_cpus = 192};
//   PickResult r = verify_pick(b, pick::default_sides());
//   r.ok()  // both checks passed and every lemma was proved
//
// 1. every-triple:   for each nr_cpu_ids n in 1..bits, every triple of masks
//                    over n CPUs (2^(3n) triples; 2^24 for n = 8).
// 2. two-cpus:       for each n in 1..boundary_cpus, every triple whose set
//                    bits all lie on at most two CPUs p < q (each mask any
//                    subset of {p, q}): the first common CPU and one decoy, in
//                    the same word or in any two words, at every offset from
//                    a word boundary and from nr_cpu_ids.
// Each triple is one pick op through pick::Lockstep::step (the
// pick-first-common invariant, the variants against the reference, the
// model). The first failing triple (smallest n, then in enumeration order)
// becomes a one-op .ops counterexample, replayed through run_lockstep().
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/verdict.h"
#include "io/program.h"
#include "subjects/pick/lockstep.h"
#include "subjects/pick/verify_z3.h"
#include "verify/progress.h"

namespace diffsched::pick::verify {

struct PickBounds {
  unsigned bits = 8;             // every-triple up to this nr_cpu_ids (1..10)
  unsigned boundary_cpus = 192;  // two-cpus up to this nr_cpu_ids (0: skip)
  bool z3 = true;                // prove the word lemmas
};

struct PickCheck {
  std::string name;    // "every-triple"
  std::string bounds;  // "nr_cpu_ids 1..8, every triple of masks"
  std::uint64_t triples = 0;
  double seconds = 0;
  bool passed = false;
};

struct PickResult {
  std::string error;  // bounds out of range
  std::vector<PickCheck> checks;
  std::vector<Lemma> lemmas;
  Transcription transcription;
  double seconds = 0;
  std::optional<io::Program<pick::Subject>> counterexample;
  Verdict replayed;  // the counterexample through run_lockstep()

  bool ok() const;
};

// An up-front estimate of the two checks' size (docs/verification.md, "How
// long a pick bound takes"): exact triple counts, time at measured rates.
//   every-triple  sum_{n=1..bits} 2^(3n)
//   two-cpus      sum_{n=1..M} (1 + 7n + 49 n(n-1)/2)
struct PickEstimate {
  double every_triples = 0;
  double two_cpu_triples = 0;
  double seconds = 0;

  static constexpr double kEveryTriplesPerSecond = 1.5e6;
  static constexpr double kTwoCpuTriplesPerSecond = 3.5e5;  // masks up to 192 CPUs; slower beyond
};
PickEstimate estimate_pick(const PickBounds& bounds);

PickResult verify_pick(const PickBounds& bounds, std::span<const pick::PickSide> sides,
                       const ProgressFn& progress = {});

}  // namespace diffsched::pick::verify
