// `diffsched ops`: the op list of every subject, from the op tables.
// `diffsched targets`: the registry of fuzz targets (src/registry.def).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "engine/op.h"
#include "io/text.h"
#include "subjects.h"
#include "util/json.h"

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

void print_targets(bool names_only, bool json) {
  if (names_only) {
    for (const auto& t : kFuzzTargets) fmt::print("{}\n", t.name);
    return;
  }
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& t : kFuzzTargets)
      out.push_back({{"name", t.name},
                     {"subject", t.subject},
                     {"level", std::string(level_name(t.level))},
                     {"role", role_name(t.role)},
                     {"dict", t.dict.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.dict)},
                     {"property", t.property}});
    fmt::print("{}\n", util::dump_json(out, 2));
    return;
  }
  fmt::print("{:<12} {:<8} {:<9} {:<11} {:<7} {}\n", "target", "subject", "level", "role", "dict",
             "property");
  for (const auto& t : kFuzzTargets)
    fmt::print("{:<12} {:<8} {:<9} {:<11} {:<7} {}\n", t.name, t.subject, level_name(t.level),
               role_name(t.role), t.dict.empty() ? "-" : t.dict, t.property);
}

}  // namespace

Runner add_targets(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "targets", "List the fuzz targets of the registry (src/registry.def): subject, level, role, "
                 "dictionary and the property each checks");
  struct Args {
    bool names = false;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* names = sub->add_flag("--names", a->names, "only the names, one per line");
  sub->add_flag("--json", a->json, "as a JSON array")->excludes(names);
  return [a] {
    print_targets(a->names, a->json);
    return kExitOk;
  };
}

Runner add_ops(CLI::App& app) {
  app.add_subcommand("ops", "List each subject's ops, their arguments and the kernel call");
  return [] {
    for_each_subject([]<class S>(std::type_identity<S>) { print_subject<S>(); });
    return kExitOk;
  };
}

}  // namespace diffsched::cli
