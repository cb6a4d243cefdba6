// diffsched fn: what layout.cpp and layout_rows.cpp share.
#pragma once

#include <string>

#include "fn/extract.h"
#include "fn/model.h"

namespace diffsched::fn {

// A spec's `elements TYPE size=PATH` fixes PATH to the element's size;
// `size=N` must be it. false with *error.
bool size_relations(const Signature& f, Spec* spec, std::string* error);

}  // namespace diffsched::fn
