// Delta debugging over decoded ops, keeping the failure's signature.
//
//   auto r = minimize(program, Level::kExact, &error);
//   // r->program: the shortest op list found that fails with r->signature
//
// Passes, repeated until nothing changes: drop ops after the failing one;
// ddmin over the op list (chunks, then single ops); make nr_cpu_ids smaller;
// shift all deadlines towards 0 together; then simplify each argument (CPUs
// towards 0, deadlines towards each other and small values, masks towards
// fewer CPUs, flags towards 0). A candidate is kept only if it fails with the
// same signature (subject, kind, level or invariant, field, op kind).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "engine/verdict.h"
#include "io/program.h"

namespace diffsched::tools {

struct MinimizeResult {
  io::AnyProgram program;  // with its level set
  std::string signature;
  std::size_t original_ops = 0;
  std::size_t runs = 0;  // lockstep runs tried
};

// nullopt with a reason if the program does not fail at `level`.
std::optional<MinimizeResult> minimize(const io::AnyProgram& program, Level level,
                                       std::string* error);

}  // namespace diffsched::tools
