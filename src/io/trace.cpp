#include "io/trace.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::io {

void print_notes(std::FILE* out, const Verdict& v) {
  for (std::size_t k = 0; k < v.note_count.size(); ++k) {
    if (!v.note_count[k]) continue;
    const auto kind = static_cast<NoteKind>(k);
    fmt::print(out, "note: {} x{} (first at op #{}): {}\n", note_name(kind), v.note_count[k],
               v.note_first_op[k], note_explanation(kind));
  }
}

}  // namespace diffsched::io
