#include "subjects/cpudl/print.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/text.h"

namespace diffsched::cpudl {

using io::format_op;
using io::format_value;

std::string format_state(const HeapView& h) {
  std::string out = fmt::format("size {} [", h.size);
  for (int i = 0; i < h.size; ++i)
    fmt::format_to(std::back_inserter(out), "{}{}:{}", i ? " " : "", h.elements[i].cpu,
                   format_value(h.elements[i].dl));
  fmt::format_to(std::back_inserter(out), "] free {}", format_value(*h.free_cpus));
  return out;
}

void print_step(std::FILE* out_, std::size_t index, const Op& op,
                const Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  if (ls.last_skipped()) {
    fmt::print(out_, "      skipped: {}\n", ls.skip_reason());
    return;
  }
  const std::string ref = format_state(ls.side(0).view());
  for (std::size_t i = 0; i < ls.side_count(); ++i) {
    const std::string state = i == 0 ? ref : format_state(ls.side(i).view());
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
  if (is_find(op)) {
    for (std::size_t i = 0; i < ls.side_count(); ++i) {
      const auto& r = ls.find_result(i);
      fmt::print(out_, "      {:<10} find -> {}{}\n", ls.side(i).name(), r.ret,
                 r.with_mask ? fmt::format(", later_mask {}", format_value(r.later_mask)) : "");
    }
  }
}

namespace {

// Pre-order lines of the heap tree: "0:5", "├── 1:5", "│   └── 3:2", ...
void tree_lines(const HeapView& h, int slot, const std::string& prefix, bool last,
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

void print_trees(std::FILE* out, const Lockstep& ls) {
  const HeapView ref = ls.side(0).view();
  std::vector<std::pair<int, std::string>> left;
  tree_lines(ref, 0, "", true, true, &left);
  for (std::size_t i = 1; i < ls.side_count(); ++i) {
    const HeapView other = ls.side(i).view();
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

namespace {

nlohmann::json heap_json(const HeapView& h) {
  nlohmann::json slots = nlohmann::json::array();
  for (int i = 0; i < h.size; ++i)
    slots.push_back({{"cpu", h.elements[i].cpu}, {"dl", h.elements[i].dl}});
  return {{"size", h.size}, {"slots", slots}, {"free_cpus", format_value(*h.free_cpus)}};
}

}  // namespace

nlohmann::json step_json(std::size_t index, const Op& op, const Lockstep& ls) {
  nlohmann::json j = {{"index", index}, {"op", format_op(op)}};
  if (ls.last_skipped()) {
    j["skipped"] = ls.skip_reason();
    return j;
  }
  nlohmann::json sides = nlohmann::json::object();
  for (std::size_t i = 0; i < ls.side_count(); ++i) {
    nlohmann::json s = heap_json(ls.side(i).view());
    if (is_find(op)) {
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

}  // namespace diffsched::cpudl
