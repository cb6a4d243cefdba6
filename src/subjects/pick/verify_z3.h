// Z3 bit-vector proofs of the word-level lemmas behind the pick variants.
//
//   std::vector<Lemma> lemmas = prove_pick_lemmas();
//   for (auto& l : lemmas) fmt::print("{}: {}\n", l.name, lemma_status_name(l.status));
//
// The three variants of kernel/pick.h are transcribed, word by word, into
// bit-vector terms over symbolic 64-bit words d, c, a (word w of dst_grpmask,
// cpus and p->cpus_ptr), a symbolic nr_cpu_ids n in 1..8192 and a symbolic
// word index w with 64w < n. A word's outcome is: "found CPU b", "end with n",
// or "go on to word w+1". The lemmas:
//   word-first-match    for all d, c, a: the v6.13 loop (for_each_cpu_and,
//                       cpumask_test_cpu, break) over one full word returns the
//                       first set bit of d & c & a, or 64 (nr_cpu_ids) if none.
//   scan-step/<variant> for all n, w, d, c, a (bits at or beyond n included):
//                       the variant's outcome on word w equals the spec's: the
//                       first CPU of d & c & a below n in word w; else n if
//                       word w is the last; else word w+1.
// Each is proved by asking Z3 for a counterexample to it: unsat is a proof.
//
// transcription_check() ties the transcription to the C++ code: for random
// triples it runs the word steps (evaluated by Z3) word after word and
// compares the result with each variant's real answer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "subjects/pick/lockstep.h"
#include "verify/progress.h"

namespace diffsched::pick::verify {

// pick's verifier lives in its package's namespace (a copied package, as
// contract.add-a-subject plants, defines its own); the progress callback and
// count formatting are verify's, shared by every subject.
using diffsched::verify::human_count;
using diffsched::verify::Progress;
using diffsched::verify::ProgressFn;
using diffsched::verify::Stopwatch;

struct Lemma {
  enum class Status : std::uint8_t { kProved, kRefuted, kUnknown };
  std::string name;       // "scan-step/fused"
  std::string statement;  // one sentence
  Status status = Status::kUnknown;
  std::string detail;     // the counterexample, or why unknown
  double seconds = 0;
};

std::string_view lemma_status_name(Lemma::Status status);  // "proved", ...

std::vector<Lemma> prove_pick_lemmas(unsigned timeout_ms = 300'000);

struct Transcription {
  unsigned samples = 0;
  std::string mismatch;  // empty when the model agreed with the code everywhere
};

// `sides` are called by name: reference, optimized and fused must be present.
Transcription transcription_check(std::span<const pick::PickSide> sides, unsigned samples,
                                  std::uint64_t seed = 1);

}  // namespace diffsched::pick::verify
