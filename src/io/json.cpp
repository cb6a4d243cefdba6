#include "io/json.h"

#include "io/text.h"

namespace diffsched::io {

nlohmann::json verdict_json(const Verdict& v) {
  nlohmann::json j = {{"subject", v.subject},
                      {"level", level_name(v.level)},
                      {"ops_run", v.ops_run},
                      {"result", v.finding ? "finding" : "equivalent"}};
  if (v.finding) {
    const Finding& f = *v.finding;
    j["finding"] = {{"kind", finding_kind_name(f.kind)}, {"op_index", f.op_index},
                    {"op", f.op_text},  {"side", f.side},
                    {"against", f.against}, {"check", f.check},
                    {"field", f.field}, {"where", f.where},
                    {"expected", f.expected}, {"actual", f.actual},
                    {"detail", f.detail}, {"signature", f.signature()}};
  }
  nlohmann::json notes = nlohmann::json::array();
  for (std::size_t k = 0; k < v.note_count.size(); ++k)
    if (v.note_count[k])
      notes.push_back({{"note", note_name(static_cast<NoteKind>(k))},
                       {"count", v.note_count[k]},
                       {"first_op", v.note_first_op[k]},
                       {"explanation", note_explanation(static_cast<NoteKind>(k))}});
  j["notes"] = notes;
  return j;
}

}  // namespace diffsched::io
