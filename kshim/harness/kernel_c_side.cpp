#include "kernel_c_side.h"

#include "harness_record.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "kernel/cpumask.h"
#include "kcheck/status.h"

namespace diffsched::kcheck {

namespace {

static_assert(sizeof(kernel::Cpumask) == 8192 / 8, "struct cpumask holds NR_CPUS bits");

}  // namespace

std::string format_warning(const kcheck_candidate& t) {
  kcheck_warning w{};
  if (!t.take_warning(&w)) return {};
  std::string out = fmt::format("{}:{}: {}", w.file ? w.file : "?", w.line, w.what ? w.what : "?");
  if (w.count > 1) out += fmt::format(" (and {} more warnings in this op)", w.count - 1);
  return out;
}

TaskShape task_for_find(const TaskShape& base, unsigned long long dl, const unsigned long* affinity,
                        unsigned nr_cpu_ids) {
  // splitmix64 of the find's fields: cheap, and every bit of the deadline and
  // of the first affinity words moves the result.
  auto mix = [](unsigned long long z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  unsigned long long h = mix(dl);
  for (unsigned w = 0; w < 2; ++w) h = mix(h ^ affinity[w]);
  TaskShape t = base;
  const unsigned long long util = 1 + h % 1024;
  t.dl_runtime = t.dl_deadline * util / 1024;
  unsigned weight = 0;
  for (unsigned c = 0; c < nr_cpu_ids; ++c) weight += (affinity[c / 64] >> (c % 64)) & 1;
  t.task_cpu = 0;
  if (weight) {
    unsigned k = static_cast<unsigned>((h >> 32) % weight);
    for (unsigned c = 0; c < nr_cpu_ids; ++c)
      if (((affinity[c / 64] >> (c % 64)) & 1) && k-- == 0) {
        t.task_cpu = c;
        break;
      }
  }
  return t;
}

std::string describe_task(const TaskShape& t) {
  return fmt::format("util {}/1024, on CPU {}", t.dl_runtime * 1024 / t.dl_deadline, t.task_cpu);
}

std::string_view api_name(int api) {
  switch (api) {  // the forms of kcheck_abi.h's one list
#define KCHECK_API_CASE(id, name) \
  case KCHECK_API_##id: return name;
    KCHECK_APIS(KCHECK_API_CASE)
#undef KCHECK_API_CASE
    default: return "unknown";
  }
}

std::optional<Candidate> load_candidate(const std::string& so_path, std::string* error) {
  void* handle = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    *error = fmt::format("cannot load {}: {}", so_path, dlerror());
    return std::nullopt;
  }
  const auto* table = static_cast<const kcheck_candidate*>(dlsym(handle, "kcheck_candidate"));
  if (!table) {
    *error = fmt::format("{} has no kcheck_candidate table (not built by kernel-check?)", so_path);
    return std::nullopt;
  }
  if (table->abi_version != KCHECK_ABI_VERSION) {
    *error = fmt::format("{} was built for kcheck ABI {}, this harness speaks {}: rebuild it",
                         so_path, table->abi_version, KCHECK_ABI_VERSION);
    return std::nullopt;
  }
  table->set_capacity(0, nullptr, 0);
  return Candidate{so_path, table};
}

}  // namespace diffsched::kcheck
