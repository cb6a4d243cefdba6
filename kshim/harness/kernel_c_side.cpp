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

// CandidateHeap: the candidate's struct cpudl as cpudl::apply_op() sees it,
// a heap with the kernel's cpudeadline API (the v4.9 .. v6.18 meaning; the
// glue adapts the file's own form). apply_op() calls these by
// argument-dependent lookup, as it calls kernel::'s on the model heaps, so an
// op made of these calls needs no code here; an op that calls a kernel
// function not listed here does not compile until it gets one (and the ABI
// an entry point for it: kshim/abi/kcheck_abi.h, kshim/runtime/glue_cpudl.c).
struct CandidateHeap {
  const kcheck_candidate* t;
  unsigned nr;            // nr_cpu_ids of the run
  const TaskShape* task;  // the harness's task (--task-util, --capacity)

  // The task a find asks about (TaskShape::per_find: drawn from the find).
  TaskShape task_of(unsigned long long dl, const unsigned long* affinity) const {
    return task->per_find ? task_for_find(*task, dl, affinity, nr) : *task;
  }
};

void cpudl_set(CandidateHeap* cp, int cpu, kernel::u64 dl) { cp->t->set(cpu, dl); }
void cpudl_clear(CandidateHeap* cp, int cpu) { cp->t->clear(cpu); }
void cpudl_clear(CandidateHeap* cp, int cpu, bool online) { cp->t->clear_online(cpu, online); }
void cpudl_set_freecpu(CandidateHeap* cp, int cpu) { cp->t->set_freecpu(cpu); }
void cpudl_clear_freecpu(CandidateHeap* cp, int cpu) { cp->t->clear_freecpu(cpu); }
// CPU hotplug: the glue runs the kernel's order (the active and online
// masks, then rq_offline_dl()'s / rq_online_dl()'s calls in the file's form).
void rq_offline_dl(CandidateHeap* cp, int cpu) { cp->t->cpu_down(cpu); }
void rq_online_dl(CandidateHeap* cp, int cpu) { cp->t->cpu_up(cpu); }

// The file's cpudl_find() for the harness's task (its capacity branch as
// --capacity left it).
int cpudl_find(CandidateHeap* cp, kernel::u64 task_dl, const kernel::Cpumask* task_affinity,
               kernel::Cpumask* later_mask) {
  const TaskShape t = cp->task_of(task_dl, task_affinity->bits);
  return cp->t->find(task_dl, task_affinity->bits, later_mask ? later_mask->bits : nullptr,
                     t.task_cpu, t.dl_runtime, t.dl_deadline);
}

// find_cap: the file's cpudl_find() with the capacity branch on, the
// program's capacities (Config::capacity, through capacity_of) and the op's
// task; afterwards the capacity state the harness set (--capacity) is back.
template <class CapacityOf>
int cpudl_find_cap(CandidateHeap* cp, kernel::u64 task_dl, const kernel::Cpumask* task_affinity,
                   kernel::Cpumask* later_mask, CapacityOf&& capacity_of, int task_cpu,
                   kernel::u64 dl_runtime, kernel::u64 dl_deadline) {
  std::vector<unsigned long> caps(cp->nr);
  for (unsigned c = 0; c < cp->nr; ++c) caps[c] = capacity_of(static_cast<int>(c));
  cp->t->set_capacity(1, caps.data(), cp->nr);
  const int ret = cp->t->find(task_dl, task_affinity->bits, later_mask ? later_mask->bits : nullptr,
                              static_cast<unsigned>(task_cpu), dl_runtime, dl_deadline);
  const TaskShape& h = *cp->task;
  if (h.asym_capacity)
    cp->t->set_capacity(1, h.capacity.data(), static_cast<unsigned>(h.capacity.size()));
  else
    cp->t->set_capacity(0, nullptr, 0);
  return ret;
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

  // The ops' kernel calls are cpudl::apply_op()'s, on the candidate's heap.
  void apply(const cpudl::Op& op, cpudl::FindResult* result) override {
    CandidateHeap heap{t_, nr_, &task_};
    cpudl::apply_op(&heap, op, result, [this](int cpu) { return capacity_of(cpu); });
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

  std::string take_warning() override { return format_warning(*t_); }
  bool can_warn() const override { return true; }
  bool capacity_aware() const override { return task_.asym_capacity; }

 private:
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
