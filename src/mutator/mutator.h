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

}  // namespace diffsched::mutator
