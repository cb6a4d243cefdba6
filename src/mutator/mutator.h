// Structure-aware mutation of fuzz inputs (issue 28): libFuzzer's
// LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver bodies for every fuzz
// target, the plain ones (fuzz/fuzz_target.cpp) and kernel-check's harness.
//
//   MutateOptions o{.byte_mutate = LLVMFuzzerMutate, .nr_cpus = {}};
//   size = mutate_input(target, data, size, max_size, seed, o);
//   size = cross_over_inputs(target, a, b, out, max_out, seed, o);
//
// The input is decoded to its program (the op list, io/binary.h), mutated as
// ops, and encoded back, so the result is always a plain body whose every
// byte is an op's: a reproducer is real ops. Three calls in four (and every
// call on the `inputs` target, which has no subject) use libFuzzer's own byte
// mutations instead (`byte_mutate`), so its dictionary and comparison
// tracing keep working. The op-level mutations:
//   * on any subject: duplicate a run of ops elsewhere, repeat a run, delete
//     a run, splice two inputs (cross-over), change nr_cpu_ids;
//   * cpudl (subjects/cpudl/mutator.cpp): fill the heap with a run of `set`s
//     to a chosen size (up to nr_cpu_ids) in a chosen order (ascending,
//     descending, interleaved, equal keys, random), move a CPU to a boundary
//     value, give a `set` a deadline relative to the heap at that point (equal
//     to the root, just above or below its parent or another item), clear an
//     item of a chosen slot, shift every deadline across 2^63 or 2^64;
//   * pick (subjects/pick/mutator.cpp): masks made of runs, bits at word
//     boundaries, the first common CPU moved into a later (or the last,
//     partial) word, aliased masks, nr_cpu_ids with each word count mod 4.
// With `nr_cpus` (kernel-check's --nr-cpus) the input's first byte picks one
// of those values (io::shape_body), and the result keeps that form.
//
// Deterministic: the same input, seed and options give the same output.
// The result is at most `max_size` bytes; decoding it never fails (decoding
// is total), which properties/mutator/mutator_test.cpp checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "targets.h"

namespace diffsched::mutator {

// libFuzzer's LLVMFuzzerMutate: mutates data[0, size) in place, at most
// max_size bytes; returns the new size.
using ByteMutate = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size);

struct MutateOptions {
  ByteMutate byte_mutate = nullptr;   // null: op-level mutations only
  std::span<const unsigned> nr_cpus;  // kernel-check's --nr-cpus; empty: the body says
  // Share of calls (in 1/256) that use byte_mutate instead of the op level:
  // three in four, as an op-level mutation costs about as much as a run.
  unsigned byte_share = 192;
};

// The options of a fuzz target's process, from DIFFSCHED_MUTATOR in the
// environment: unset or "mixed" (the default: one in four op-level, else
// byte_mutate), "bytes" (byte_mutate only: the mutator off, for side-by-side
// measurements) or "ops" (op-level only, byte_mutate when that fails).
MutateOptions options_from_env(ByteMutate byte_mutate);

std::size_t mutate_input(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                         std::size_t max_size, unsigned seed, const MutateOptions& o);

std::size_t cross_over_inputs(const FuzzTarget& target, std::span<const std::uint8_t> a,
                              std::span<const std::uint8_t> b, std::uint8_t* out,
                              std::size_t max_out, unsigned seed, const MutateOptions& o);

// Size first (issue 28): the program's heap size is drawn first, up to its
// nr_cpu_ids (and what max_size holds), and a run of `set`s that fills the
// heap to it in a chosen order goes before the input's ops; the property
// run's structured programs then mutate on. 0 when the subject has no heap
// (pick, cpumask) or nothing fits.
std::size_t size_first_input(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                             std::size_t max_size, unsigned seed, const MutateOptions& o);

// Swarm testing (Groce et al., ISSTA 2012; swarm.cpp): a program is drawn
// under a configuration that leaves out some op kinds (the subject's Op
// variant, by index) and some value classes, each kept with probability 1/2,
// so that the kinds and classes kept come denser. swarm_filter() drops every
// op of a left-out kind, or with a field of a left-out class; the result
// fits max_size (else the input is kept as it was).
enum ValueClass : unsigned {
  kDeadlineSmall,      // a deadline below 2^32
  kDeadlineNear2to63,  // within 2^32 of 2^63
  kDeadlineNear2to64,  // within 2^32 below 2^64
  kDeadlineOther,
  kCpuBeyondWord0,     // a CPU of 64 or more
  kMaskBeyondWord0,    // a mask with a bit of 64 or more
  kValueClasses
};
struct SwarmConfig {
  std::uint32_t kinds = ~0u;   // bit k: op kind k kept
  std::uint32_t values = ~0u;  // bit c: ValueClass c kept
};
SwarmConfig draw_swarm(const FuzzTarget& target, std::uint64_t seed);
bool swarm_allows(const SwarmConfig& c, std::size_t kind, unsigned classes);
std::size_t swarm_filter(const FuzzTarget& target, std::uint8_t* data, std::size_t size,
                         std::size_t max_size, const SwarmConfig& c, const MutateOptions& o);

// Which of the two the property run's structured programs use: both by
// default; DIFFSCHED_SWARM=off or DIFFSCHED_SIZE_FIRST=off in the
// environment leaves one out (side-by-side measurements, docs/bench.md).
struct StructuredOptions {
  bool swarm = true;
  bool size_first = true;
};
StructuredOptions structured_from_env();

}  // namespace diffsched::mutator
