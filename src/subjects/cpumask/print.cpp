#include "subjects/cpumask/print.h"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/text.h"

namespace diffsched::cpumask {

using io::format_op;
using io::format_value;

void print_step(std::FILE* out_, std::size_t index, const Op& op,
                const Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  if (!ls.answer().empty() || !ls.model_answer().empty())
    fmt::print(out_, "    {} {:<10} {}\n      {:<10} {}\n",
               ls.answer() != ls.model_answer() ? '*' : ' ', "kernel", ls.answer(), "model",
               ls.model_answer());
  for (unsigned r = 0; r < kRegisters; ++r)
    fmt::print(out_, "      r{} {}\n", r, format_value(ls.reg(r)));
}

nlohmann::json step_json(std::size_t index, const Op& op, const Lockstep& ls) {
  nlohmann::json regs = nlohmann::json::array();
  for (unsigned r = 0; r < kRegisters; ++r) regs.push_back(format_value(ls.reg(r)));
  return {{"index", index},
          {"op", format_op(op)},
          {"kernel", {{"answer", ls.answer()}, {"registers", regs}}},
          {"model", {{"answer", ls.model_answer()}}}};
}

}  // namespace diffsched::cpumask
