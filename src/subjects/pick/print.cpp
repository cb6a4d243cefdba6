#include "subjects/pick/print.h"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/text.h"

namespace diffsched::pick {

using io::format_op;
using io::format_value;

void print_step(std::FILE* out_, std::size_t index, const Op& op,
                const Lockstep& ls) {
  fmt::print(out_, "#{:<3} {}\n", index, format_op(op));
  for (std::size_t i = 0; i < ls.side_count(); ++i)
    fmt::print(out_, "    {} {:<10} {}\n", ls.result(i) != ls.result(0) ? '*' : ' ',
               ls.side_name(i), format_pick(ls.result(i), kernel::nr_cpu_ids));
  fmt::print(out_, "      {:<10} {}\n", "model",
             format_pick(ls.model_result(), kernel::nr_cpu_ids));
}

nlohmann::json step_json(std::size_t index, const Op& op, const Lockstep& ls) {
  nlohmann::json sides = nlohmann::json::object();
  for (std::size_t i = 0; i < ls.side_count(); ++i)
    sides[std::string(ls.side_name(i))] = ls.result(i);
  return {{"index", index},
          {"op", format_op(op)},
          {"sides", sides},
          {"model", ls.model_result()},
          {"nr_cpu_ids", kernel::nr_cpu_ids}};
}

}  // namespace diffsched::pick
