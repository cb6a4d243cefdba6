#include "io/trace.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "io/text.h"

namespace diffsched::io {

void print_step(std::FILE* out_, std::size_t index, const cpudl::Op& op,
                const cpudl::Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  if (ls.last_skipped()) {
    fmt::print(out_, "      skipped: {}\n", ls.skip_reason());
    return;
  }
  const std::string ref = cpudl::format_state(ls.side(0).view());
  for (std::size_t i = 0; i < ls.side_count(); ++i) {
    const std::string state = i == 0 ? ref : cpudl::format_state(ls.side(i).view());
    fmt::print(out_, "    {} {:<10} {}\n", state != ref ? '*' : ' ', ls.side(i).name(), state);
  }
  std::string model = "{";
  ls.model().for_each([&](int cpu, kernel::u64 dl) {
    fmt::format_to(std::back_inserter(model), "{}{}:{}", model.size() > 1 ? " " : "", cpu,
                   format_value(dl));
  });
  model += "}";
  kernel::Cpumask free{};
  for (unsigned c = 0; c < ls.model().nr_cpu_ids(); ++c)
    if (ls.model().is_free(static_cast<int>(c))) kernel::cpumask_set_cpu(c, &free);
  fmt::print(out_, "      {:<10} {} free {}\n", "model", model, format_value(free));
  if (cpudl::is_find(op)) {
    for (std::size_t i = 0; i < ls.side_count(); ++i) {
      const auto& r = ls.find_result(i);
      fmt::print(out_, "      {:<10} find -> {}{}\n", ls.side(i).name(), r.ret,
                 r.with_mask ? fmt::format(", later_mask {}", format_value(r.later_mask)) : "");
    }
  }
}

void print_step(std::FILE* out_, std::size_t index, const pick::Op& op,
                const pick::Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  for (std::size_t i = 0; i < ls.side_count(); ++i)
    fmt::print(out_, "    {} {:<10} {}\n", ls.result(i) != ls.result(0) ? '*' : ' ',
               ls.side_name(i), pick::format_pick(ls.result(i), kernel::nr_cpu_ids));
  fmt::print(out_, "      {:<10} {}\n", "model",
             pick::format_pick(ls.model_result(), kernel::nr_cpu_ids));
}

void print_step(std::FILE* out_, std::size_t index, const cpumask::Op& op,
                const cpumask::Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  if (!ls.answer().empty() || !ls.model_answer().empty())
    fmt::print(out_, "    {} {:<10} {}\n      {:<10} {}\n",
               ls.answer() != ls.model_answer() ? '*' : ' ', "kernel", ls.answer(), "model",
               ls.model_answer());
  for (unsigned r = 0; r < cpumask::kRegisters; ++r)
    fmt::print(out_, "      r{} {}\n", r, format_value(ls.reg(r)));
}

namespace {

// Pre-order lines of the heap tree: "0:5", "├── 1:5", "│   └── 3:2", ...
void tree_lines(const cpudl::HeapView& h, int slot, const std::string& prefix, bool last,
                bool root, std::vector<std::pair<int, std::string>>* out) {
  if (slot >= h.size) return;
  out->emplace_back(slot, prefix + (root ? "" : last ? "└── " : "├── ") +
                              fmt::format("{}:{}", h.elements[slot].cpu,
                                          format_value(h.elements[slot].dl)));
  const std::string child_prefix = root ? "" : prefix + (last ? "    " : "│   ");
  const int l = kernel::left_child(slot), r = kernel::right_child(slot);
  tree_lines(h, l, child_prefix, r >= h.size, false, out);
  tree_lines(h, r, child_prefix, true, false, out);
}

std::size_t display_width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xc0) != 0x80;  // count UTF-8 code points
  return w;
}

}  // namespace

void print_trees(std::FILE* out, const cpudl::Lockstep& ls) {
  const cpudl::HeapView ref = ls.side(0).view();
  std::vector<std::pair<int, std::string>> left;
  tree_lines(ref, 0, "", true, true, &left);
  for (std::size_t i = 1; i < ls.side_count(); ++i) {
    const cpudl::HeapView other = ls.side(i).view();
    std::vector<std::pair<int, std::string>> right;
    tree_lines(other, 0, "", true, true, &right);
    std::size_t width = display_width(std::string(ls.side(0).name()));
    for (const auto& [slot, line] : left) width = std::max(width, display_width(line) + 2);
    fmt::print(out, "      {}{}   {}\n", ls.side(0).name(),
               std::string(width - display_width(std::string(ls.side(0).name())), ' '),
               ls.side(i).name());
    if (left.empty() && right.empty()) fmt::print(out, "      (empty){}(empty)\n", std::string(width - 4, ' '));
    for (std::size_t k = 0; k < std::max(left.size(), right.size()); ++k) {
      std::string l = k < left.size() ? left[k].second : "";
      std::string r = k < right.size() ? right[k].second : "";
      const int slot = k < right.size() ? right[k].first : -1;
      const bool differs = slot >= 0 && (slot >= ref.size || ref.elements[slot].cpu != other.elements[slot].cpu ||
                                         ref.elements[slot].dl != other.elements[slot].dl);
      fmt::print(out, "      {}{}   {}{}\n", l, std::string(width - display_width(l), ' '), r,
                 differs ? "  * differs" : "");
    }
  }
}

void print_notes(std::FILE* out, const Verdict& v) {
  for (std::size_t k = 0; k < v.note_count.size(); ++k) {
    if (!v.note_count[k]) continue;
    const auto kind = static_cast<NoteKind>(k);
    fmt::print(out, "note: {} x{} (first at op #{}): {}\n", note_name(kind), v.note_count[k],
               v.note_first_op[k], note_explanation(kind));
  }
}

}  // namespace diffsched::io
