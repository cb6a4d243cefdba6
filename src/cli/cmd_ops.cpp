// `diffsched ops`: the op list of every subject, from the op tables.
#include <fmt/format.h>

#include "cli/commands.h"
#include "engine/op.h"
#include "io/text.h"
#include "subjects.h"

namespace diffsched::cli {

namespace {

template <class S>
void print_subject() {
  fmt::print("subject {}\n", S::kName);
  [&]<class... Ops>(std::type_identity<std::variant<Ops...>>) {
    (
        [&] {
          Ops op{};
          std::string args;
          for_each_field(op, [&](std::string_view name, const auto&) {
            args += io::NamedArgs<Ops> ? fmt::format(" {}=<{}>", name, name) : fmt::format(" <{}>", name);
          });
          fmt::print("  {:<28} {}\n", fmt::format("{}{}", Ops::kName, args), Ops::kKernel);
        }(),
        ...);
  }(std::type_identity<typename S::Op>{});
}

}  // namespace

Runner add_ops(CLI::App& app) {
  app.add_subcommand("ops", "List each subject's ops, their arguments and the kernel call");
  return [] {
    for_each_subject([]<class S>(std::type_identity<S>) { print_subject<S>(); });
    return kExitOk;
  };
}

}  // namespace diffsched::cli
