// Builders of fn's input model (src/fn/model.h Node) for the tests that
// need a layout without a compiler (check_test.cpp, minimize_test.cpp,
// show_test.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "fn/model.h"

namespace diffsched::fn::test_nodes {

inline Node scalar(unsigned bits, bool is_signed, const std::string& field = "") {
  Node n;
  n.kind = NodeKind::kScalar;
  n.bits = bits;
  n.is_signed = is_signed;
  n.c_type = is_signed ? "int" : "unsigned int";
  n.field = field;
  return n;
}

inline Node pointer_to(Node pointee) {
  Node p;
  p.kind = NodeKind::kPointer;
  p.c_type = pointee.c_type + " *";
  p.kids.push_back(std::move(pointee));
  return p;
}

inline Node mask() {
  Node m;
  m.kind = NodeKind::kMask;
  m.c_type = "struct cpumask";
  return m;
}

// `const struct cpumask *`, as a parameter's.
inline Node mask_pointer() {
  Node p = pointer_to(mask());
  p.c_type = "const struct cpumask *";
  return p;
}

inline Node array_of(Node e, std::int64_t count, const std::string& length_param = "") {
  Node a;
  a.kind = NodeKind::kArray;
  a.count = count;
  a.length_param = length_param;
  a.kids.push_back(std::move(e));
  return a;
}

}  // namespace diffsched::fn::test_nodes
