// diffsched fn: an input as a tree of values, for the minimiser, the
// --search-worst neighbours and the one-line text form (minimize.cpp): the
// input's stream of words (model.h, Input) read into a tree shaped like the
// layout's nodes and written back, and the domain the generator draws from.
#pragma once

#include <cstdint>
#include <vector>

#include "fn/model.h"

namespace diffsched::fn::tree {

using I128 = __int128;

// One value of the layout's tree: a scalar, a mask's words, or the kids of
// a struct (its fields), a pointer (its pointee) or an array (its elements).
struct Value {
  std::uint64_t scalar = 0;
  std::vector<std::uint64_t> words;
  std::vector<Value> kids;
};

inline unsigned words_of(unsigned n) { return (n + 63) / 64; }

inline bool dynamic(const Node& node) { return node.kind == NodeKind::kArray && node.count < 0; }

// The input's top-level values, globals then the parameters that are not
// lengths, with the node of each.
struct Tree {
  unsigned n = 1;
  std::vector<const Node*> nodes;
  std::vector<Value> values;
};

// A value's words appended to *out, as the stream holds them (a mask's
// bits at or past n dropped).
void encode(const Node& node, const Value& v, unsigned n, std::vector<std::uint64_t>* out);
std::vector<const Node*> top_nodes(const Layout& layout);
// false when the stream is not one of the layout's (short, long, damaged).
bool decode_input(const Layout& layout, const Input& in, Tree* t);
Input encode_input(const Tree& t);

// An array element's key: the scalar itself, or a `T tagged` struct's first field.
std::uint64_t key_of(const Node& e, const Value& v);
// The value is one the generator could have drawn at n: its type's and the
// spec's ranges, masks below n, lengths, nested masks, heaps.
bool value_in_domain(const Node& node, const Value& v, unsigned n);

}  // namespace diffsched::fn::tree
