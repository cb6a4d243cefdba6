#include "kernel_c_side.h"

#include "harness_record.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "kernel/cpumask.h"
#include "kcheck/status.h"

namespace diffsched::kcheck {

namespace {

static_assert(sizeof(kernel::cpudl_item<kernel::Uncounted>) == sizeof(kcheck_item),
              "cpudl_item layout differs from the kshim's");
static_assert(sizeof(kernel::Cpumask) == 8192 / 8, "struct cpumask holds NR_CPUS bits");

std::string format_warning(const kcheck_candidate& t) {
  kcheck_warning w{};
  if (!t.take_warning(&w)) return {};
  std::string out = fmt::format("{}:{}: {}", w.file ? w.file : "?", w.line, w.what ? w.what : "?");
  if (w.count > 1) out += fmt::format(" (and {} more warnings in this op)", w.count - 1);
  return out;
}

class KernelCSide final : public cpudl::Side {
 public:
  KernelCSide(std::string name, const kcheck_candidate* t, const TaskShape& task)
      : name_(std::move(name)), t_(t), task_(task) {}
  ~KernelCSide() override = default;

  std::string_view name() const override { return name_; }

  void reset(unsigned nr_cpu_ids) override {
    nr_ = nr_cpu_ids;
    t_->reset_runtime(nr_cpu_ids);
    const int r = t_->init();
    if (r != 0) {
      // Not simulated unless asked (fail_alloc), so this is the file's doing.
      init_failure_ = fmt::format("cpudl_init() returned {}", r);
      stop_on_init_failure(fmt::format("{}: {}", name_, init_failure_));
    }
  }

  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    std::visit(cpudl::Overloaded{
                   [&](const cpudl::Set& o) { t_->set(o.cpu, o.dl); },
                   [&](const cpudl::Clear& o) { t_->clear(o.cpu); },
                   [&](const cpudl::ClearOnline& o) { t_->clear_online(o.cpu, o.online); },
                   [&](const cpudl::SetFreecpu& o) { t_->set_freecpu(o.cpu); },
                   [&](const cpudl::ClearFreecpu& o) { t_->clear_freecpu(o.cpu); },
                   [&](const cpudl::CpuDown& o) { t_->cpu_down(o.cpu); },
                   [&](const cpudl::CpuUp& o) { t_->cpu_up(o.cpu); },
                   [&](const cpudl::Find& o) {
                     result->with_mask = true;
                     result->later_mask = kernel::Cpumask{};
                     const TaskShape t = task_of(o.dl, o.affinity.bits);
                     result->ret = t_->find(o.dl, o.affinity.bits, result->later_mask.bits,
                                            t.task_cpu, t.dl_runtime, t.dl_deadline);
                   },
                   [&](const cpudl::FindNomask& o) {
                     result->with_mask = false;
                     result->later_mask = kernel::Cpumask{};
                     const TaskShape t = task_of(o.dl, o.affinity.bits);
                     result->ret = t_->find(o.dl, o.affinity.bits, nullptr, t.task_cpu,
                                            t.dl_runtime, t.dl_deadline);
                   },
                   [&](const cpudl::FindCap& o) { find_cap(o, result); },
               },
               op);
  }

  cpudl::HeapView view() const override {
    const kcheck_view v = t_->view();
    return cpudl::HeapView{v.size, nr_,
                           reinterpret_cast<const kernel::cpudl_item<kernel::Uncounted>*>(v.elements),
                           reinterpret_cast<const kernel::Cpumask*>(v.free_bits)};
  }

  void restore(const cpudl::HeapView&) override {
    std::fprintf(stderr, "kcheck: a kernel C side cannot be restored (verify is not supported)\n");
    std::abort();
  }

  // find_cap: the file's cpudl_find() with the capacity branch on, the
  // program's capacities (Config::capacity) and the op's task; afterwards
  // the capacity state the harness set (--capacity) is back.
  void find_cap(const cpudl::FindCap& o, cpudl::FindResult* result) {
    std::vector<unsigned long> caps(nr_);
    for (unsigned c = 0; c < nr_; ++c) caps[c] = capacity_of(static_cast<int>(c));
    t_->set_capacity(1, caps.data(), nr_);
    result->with_mask = true;
    result->later_mask = kernel::Cpumask{};
    result->ret = t_->find(o.dl, o.affinity.bits, result->later_mask.bits,
                           static_cast<unsigned>(o.cpu.value), o.runtime, o.deadline);
    if (task_.asym_capacity)
      t_->set_capacity(1, task_.capacity.data(), static_cast<unsigned>(task_.capacity.size()));
    else
      t_->set_capacity(0, nullptr, 0);
  }

  std::string take_warning() override { return format_warning(*t_); }
  bool can_warn() const override { return true; }
  bool capacity_aware() const override { return task_.asym_capacity; }

 private:
  TaskShape task_of(unsigned long long dl, const unsigned long* affinity) const {
    return task_.per_find ? task_for_find(task_, dl, affinity, nr_) : task_;
  }

  std::string name_;
  const kcheck_candidate* t_;
  TaskShape task_;
  unsigned nr_ = 0;
  std::string init_failure_;
};

// Pick sides are function pointers: one trampoline per slot.
constexpr int kPickSlots = 2;
const kcheck_candidate* g_pick[kPickSlots] = {};
unsigned g_pick_nr[kPickSlots] = {};
int g_pick_used = 0;

template <int I>
unsigned pick_trampoline(const kernel::Cpumask* dst, const kernel::Cpumask* cpus,
                         const kernel::Cpumask* allowed) {
  if (g_pick_nr[I] != kernel::nr_cpu_ids) {
    g_pick[I]->reset_runtime(kernel::nr_cpu_ids);
    g_pick_nr[I] = kernel::nr_cpu_ids;
  }
  return g_pick[I]->pick(dst->bits, cpus->bits, allowed->bits);
}

template <int I>
std::string pick_warning() {
  return format_warning(*g_pick[I]);
}

}  // namespace

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
  switch (api) {
    case KCHECK_API_V3_14: return "v3.14";
    case KCHECK_API_V4_8: return "v4.8";
    case KCHECK_API_V4_9: return "v4.9";
    case KCHECK_API_V6_19: return "v6.19";
    case KCHECK_API_PICK: return "pick";
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

std::unique_ptr<cpudl::Side> make_cpudl_side(std::string name, const Candidate& c,
                                             const TaskShape& task) {
  return std::make_unique<KernelCSide>(std::move(name), c.table, task);
}

std::optional<pick::PickSide> make_pick_side(std::string_view name, const Candidate& c,
                                             std::string* error) {
  if (g_pick_used >= kPickSlots) {
    *error = "at most two pick candidates per harness";
    return std::nullopt;
  }
  const int i = g_pick_used++;
  g_pick[i] = c.table;
  g_pick_nr[i] = 0;
  static constexpr pick::PickFn kFns[kPickSlots] = {pick_trampoline<0>, pick_trampoline<1>};
  static constexpr std::string (*kWarn[kPickSlots])() = {pick_warning<0>, pick_warning<1>};
  return pick::PickSide{name, kFns[i], kWarn[i]};
}

}  // namespace diffsched::kcheck
