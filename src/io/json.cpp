#include "io/json.h"

#include "io/text.h"

namespace diffsched::io {

namespace {

nlohmann::json heap_json(const cpudl::HeapView& h) {
  nlohmann::json slots = nlohmann::json::array();
  for (int i = 0; i < h.size; ++i)
    slots.push_back({{"cpu", h.elements[i].cpu}, {"dl", h.elements[i].dl}});
  return {{"size", h.size}, {"slots", slots}, {"free_cpus", format_value(*h.free_cpus)}};
}

}  // namespace

nlohmann::json step_json(std::size_t index, const cpudl::Op& op, const cpudl::Lockstep& ls) {
  nlohmann::json j = {{"index", index}, {"op", format_op(op)}};
  if (ls.last_skipped()) {
    j["skipped"] = ls.skip_reason();
    return j;
  }
  nlohmann::json sides = nlohmann::json::object();
  for (std::size_t i = 0; i < ls.side_count(); ++i) {
    nlohmann::json s = heap_json(ls.side(i).view());
    if (cpudl::is_find(op)) {
      const auto& r = ls.find_result(i);
      s["find"] = {{"ret", r.ret}};
      if (r.with_mask) s["find"]["later_mask"] = format_value(r.later_mask);
    }
    sides[std::string(ls.side(i).name())] = s;
  }
  j["sides"] = sides;
  nlohmann::json model = nlohmann::json::array();
  ls.model().for_each([&](int cpu, kernel::u64 dl) { model.push_back({{"cpu", cpu}, {"dl", dl}}); });
  j["model"] = {{"deadlines", model}, {"free_cpus", format_value(ls.model().free_cpus())}};
  return j;
}

nlohmann::json step_json(std::size_t index, const pick::Op& op, const pick::Lockstep& ls) {
  nlohmann::json sides = nlohmann::json::object();
  for (std::size_t i = 0; i < ls.side_count(); ++i)
    sides[std::string(ls.side_name(i))] = ls.result(i);
  return {{"index", index},
          {"op", format_op(op)},
          {"sides", sides},
          {"model", ls.model_result()},
          {"nr_cpu_ids", kernel::nr_cpu_ids}};
}

nlohmann::json step_json(std::size_t index, const cpumask::Op& op, const cpumask::Lockstep& ls) {
  nlohmann::json regs = nlohmann::json::array();
  for (unsigned r = 0; r < cpumask::kRegisters; ++r) regs.push_back(format_value(ls.reg(r)));
  return {{"index", index},
          {"op", format_op(op)},
          {"kernel", {{"answer", ls.answer()}, {"registers", regs}}},
          {"model", {{"answer", ls.model_answer()}}}};
}

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
