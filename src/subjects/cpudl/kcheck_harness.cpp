// cpudl's part of the kernel-check harness (kshim/harness/harness_internal.h):
// the side that runs a candidate cpudeadline.c's heap through its table
// (kcheck_abi.h), the sides of a run, and --exhaustive's programs. Built into
// kcheck_harness only (the fuzz preset, under ASan): kshim/harness/CMakeLists.txt
// takes every package's kcheck_harness.cpp.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness_internal.h"
#include "io/binary.h"
#include "kernel/cpumask.h"
#include "subjects/cpudl/kernel_side.h"
#include "subjects/cpudl/race.h"

namespace diffsched::kcheck {

namespace {

static_assert(sizeof(kernel::cpudl_item<kernel::Uncounted>) == sizeof(kcheck_item),
              "cpudl_item layout differs from the kshim's");

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

// --race (kernel-check compiles the files with -fsanitize-coverage=trace-stores,
// so clang 14 calls __sanitizer_cov_storeN(addr) before every store of N
// bytes): while a KernelCSide's apply() runs under an active store log
// (kernel/store_log.h: the race analysis, subjects/cpudl/race.h installs
// one), each store into that side's struct cpudl, its elements array or its
// free_cpus words, is logged with the value it overwrites, as the built-in
// sides' Logged fields log theirs. Stores elsewhere are ignored.
struct RaceRegion {
  const char* elements = nullptr;
  std::size_t element_bytes = 0;
  const char* free_words = nullptr;  // cp->free_cpus (kcheck_view::free_words)
  std::size_t free_bytes = 0;
  unsigned nr = 0;                   // nr_cpu_ids: the view masks the last word to it
  // The v3.14 form (kcheck_view::file_items): the file's own items and
  // cpu_to_idx[], whose stores are logged against `elements`, the glue's copy.
  const char* file_items = nullptr;
  std::size_t file_item_size = 0, file_dl_offset = 0, file_cpu_offset = 0;
  const int* file_cpu_to_idx = nullptr;
};
RaceRegion g_race_region;  // set around a KernelCSide's apply() under --race

// A store into a v3.14 file's own arrays, logged against the view's copy of
// them (elements[slot].dl/.cpu, elements[cpu].idx for cpu_to_idx[cpu]), with
// the value the file's field holds before it. A store covering several
// fields (a struct copy of an item) logs each one.
void log_file_store(const RaceRegion& r, const char* p, std::size_t size, kernel::StoreLog* log) {
  const auto* copy = reinterpret_cast<const kcheck_item*>(r.elements);
  const char* idx = reinterpret_cast<const char*>(r.file_cpu_to_idx);
  const std::size_t idx_bytes = r.nr * sizeof(int);
  if (p + size > idx && p < idx + idx_bytes) {
    const std::size_t from = static_cast<std::size_t>(std::max(p, idx) - idx) / sizeof(int);
    const std::size_t to = static_cast<std::size_t>(std::min(p + size, idx + idx_bytes) - idx);
    for (std::size_t c = from; c * sizeof(int) < to; ++c)
      log->add(&copy[c].idx, static_cast<kernel::u64>(r.file_cpu_to_idx[c]));
    return;
  }
  const std::size_t bytes = r.nr * r.file_item_size;
  if (p + size <= r.file_items || p >= r.file_items + bytes) return;
  const std::size_t from = static_cast<std::size_t>(std::max(p, r.file_items) - r.file_items);
  const std::size_t to =
      static_cast<std::size_t>(std::min(p + size, r.file_items + bytes) - r.file_items);
  for (std::size_t slot = from / r.file_item_size; slot * r.file_item_size < to; ++slot) {
    const char* item = r.file_items + slot * r.file_item_size;
    const auto covers = [&](std::size_t off, std::size_t len) {
      const std::size_t at = slot * r.file_item_size + off;
      return from < at + len && at < to;
    };
    if (covers(r.file_dl_offset, sizeof(kernel::u64))) {
      kernel::u64 old;
      std::memcpy(&old, item + r.file_dl_offset, sizeof old);
      log->add(&copy[slot].dl, old);
    }
    if (covers(r.file_cpu_offset, sizeof(int))) {
      int old;
      std::memcpy(&old, item + r.file_cpu_offset, sizeof old);
      log->add(&copy[slot].cpu, static_cast<kernel::u64>(old));
    }
  }
}

void log_cpudl_store(const void* where, std::size_t size) {
  kernel::StoreLog* log = kernel::active_store_log;
  const RaceRegion& r = g_race_region;
  if (!log || !r.elements) return;
  const char* p = static_cast<const char*>(where);
  if (p >= r.free_words && p < r.free_words + r.free_bytes) {
    const auto word = static_cast<unsigned>((p - r.free_words) / sizeof(unsigned long));
    unsigned long old = reinterpret_cast<const unsigned long*>(r.free_words)[word];
    if (word == r.nr / kernel::BITS_PER_LONG && r.nr % kernel::BITS_PER_LONG)
      old &= (1UL << (r.nr % kernel::BITS_PER_LONG)) - 1;  // as the view shows it
    log->add_free(word, old);
    return;
  }
  if (r.file_items) {
    log_file_store(r, p, size, log);
    return;
  }
  if (p + size <= r.elements || p >= r.elements + r.element_bytes) return;
  // Each field of struct cpudl_item {u64 dl; int cpu; int idx;} the store
  // covers (a struct copy covers all three), with its value before it.
  const std::size_t from = static_cast<std::size_t>(std::max(p, r.elements) - r.elements);
  const std::size_t to = static_cast<std::size_t>(std::min(p + size, r.elements + r.element_bytes) -
                                                  r.elements);
  for (std::size_t off = from; off < to;) {
    const std::size_t slot = off / sizeof(kcheck_item), in = off % sizeof(kcheck_item);
    const auto& item = reinterpret_cast<const kcheck_item*>(r.elements)[slot];
    if (in < offsetof(kcheck_item, cpu)) {
      log->add(&item.dl, item.dl);
      off = slot * sizeof(kcheck_item) + offsetof(kcheck_item, cpu);
    } else if (in < offsetof(kcheck_item, idx)) {
      log->add(&item.cpu, static_cast<kernel::u64>(item.cpu));
      off = slot * sizeof(kcheck_item) + offsetof(kcheck_item, idx);
    } else {
      log->add(&item.idx, static_cast<kernel::u64>(item.idx));
      off = (slot + 1) * sizeof(kcheck_item);
    }
  }
}

class KernelCSide final : public cpudl::Side {
 public:
  KernelCSide(std::string name, const kcheck_candidate* t, const TaskShape& task)
      : name_(std::move(name)), t_(t), task_(task), logs_stores_(stores_logged()) {}
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
    if (logs_stores()) {
      const kcheck_view v = t_->view();
      g_race_region = {reinterpret_cast<const char*>(v.elements), nr_ * sizeof(kcheck_item),
                       reinterpret_cast<const char*>(v.free_words),
                       kernel::BITS_TO_LONGS(nr_) * sizeof(unsigned long), nr_,
                       static_cast<const char*>(v.file_items), v.file_item_size,
                       v.file_dl_offset, v.file_cpu_offset, v.file_cpu_to_idx};
    }
    cpudl::apply_op(&heap, op, result, [this](int cpu) { return capacity_of(cpu); });
    g_race_region = {};
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
  // Under --race, and under --changes hook for the incremental checks, every
  // store into the heap reaches log_cpudl_store() (a v3.14 file's stores to
  // its own arrays are logged against the view's copy, log_file_store()).
  // Resolved once, when the side is made (apply() asks on every op).
  bool logs_stores() const override { return logs_stores_; }

 private:
  static bool stores_logged() {
    const tools::KernelCheckOptions& o = harness::g_settings.o;
    return o.race || o.changes == "hook";
  }

  std::string name_;
  const kcheck_candidate* t_;
  TaskShape task_;
  unsigned nr_ = 0;
  std::string init_failure_;
  bool logs_stores_;
};

}  // namespace

}  // namespace diffsched::kcheck

// The hooks clang 14 emits for -fsanitize-coverage=trace-stores, exported
// from the harness (kshim/harness/CMakeLists.txt) for the candidates' objects.
extern "C" {
__attribute__((visibility("default"))) void __sanitizer_cov_store1(std::uint8_t* p) {
  diffsched::kcheck::log_cpudl_store(p, 1);
}
__attribute__((visibility("default"))) void __sanitizer_cov_store2(std::uint16_t* p) {
  diffsched::kcheck::log_cpudl_store(p, 2);
}
__attribute__((visibility("default"))) void __sanitizer_cov_store4(std::uint32_t* p) {
  diffsched::kcheck::log_cpudl_store(p, 4);
}
__attribute__((visibility("default"))) void __sanitizer_cov_store8(std::uint64_t* p) {
  diffsched::kcheck::log_cpudl_store(p, 8);
}
__attribute__((visibility("default"))) void __sanitizer_cov_store16(__int128* p) {
  diffsched::kcheck::log_cpudl_store(p, 16);
}

// A struct copy (`swap(cp->elements[a], cp->elements[b])` in v3.14 .. v3.18)
// is a memcpy intrinsic, which trace-stores does not see. Under the hook,
// kernel-check also compiles the files with
// -mllvm -asan-memory-access-callback-prefix=__kcheck_asan_ (prepare.cpp), so
// ASan's calls for the memory intrinsics, and for any access it checks by a
// call, reach these: the intrinsics log the fields they overwrite (one
// store per field, in address order, as a kernel's word moves make them),
// then all go on to ASan's own.
void* __asan_memcpy(void* dst, const void* src, std::size_t n);
void* __asan_memmove(void* dst, const void* src, std::size_t n);
void* __asan_memset(void* dst, int c, std::size_t n);
__attribute__((visibility("default"))) void* __kcheck_asan_memcpy(void* dst, const void* src,
                                                                  std::size_t n) {
  diffsched::kcheck::log_cpudl_store(dst, n);
  return __asan_memcpy(dst, src, n);
}
__attribute__((visibility("default"))) void* __kcheck_asan_memmove(void* dst, const void* src,
                                                                   std::size_t n) {
  diffsched::kcheck::log_cpudl_store(dst, n);
  return __asan_memmove(dst, src, n);
}
__attribute__((visibility("default"))) void* __kcheck_asan_memset(void* dst, int c,
                                                                  std::size_t n) {
  diffsched::kcheck::log_cpudl_store(dst, n);
  return __asan_memset(dst, c, n);
}
#define KCHECK_ASAN_ACCESS(kind, n)                                                       \
  void __asan_##kind##n(std::uintptr_t p);                                                \
  __attribute__((visibility("default"))) void __kcheck_asan_##kind##n(std::uintptr_t p) { \
    __asan_##kind##n(p);                                                                  \
  }
KCHECK_ASAN_ACCESS(load, 1)
KCHECK_ASAN_ACCESS(load, 2)
KCHECK_ASAN_ACCESS(load, 4)
KCHECK_ASAN_ACCESS(load, 8)
KCHECK_ASAN_ACCESS(load, 16)
KCHECK_ASAN_ACCESS(store, 1)
KCHECK_ASAN_ACCESS(store, 2)
KCHECK_ASAN_ACCESS(store, 4)
KCHECK_ASAN_ACCESS(store, 8)
KCHECK_ASAN_ACCESS(store, 16)
#undef KCHECK_ASAN_ACCESS
void __asan_loadN(std::uintptr_t p, std::size_t n);
void __asan_storeN(std::uintptr_t p, std::size_t n);
__attribute__((visibility("default"))) void __kcheck_asan_loadN(std::uintptr_t p, std::size_t n) {
  __asan_loadN(p, n);
}
__attribute__((visibility("default"))) void __kcheck_asan_storeN(std::uintptr_t p, std::size_t n) {
  __asan_storeN(p, n);
}
}

namespace diffsched::kcheck {

namespace harness {

namespace {

std::unique_ptr<cpudl::Side> make_cpudl_side(std::string name, const Candidate& c,
                                             const TaskShape& task) {
  return std::make_unique<KernelCSide>(std::move(name), c.table, task);
}

std::vector<std::unique_ptr<cpudl::Side>> make_cpudl_sides() {
  std::vector<std::unique_ptr<cpudl::Side>> sides;
  const Settings& s = g_settings;
  std::size_t next = 0;
  if (s.baseline == "builtin-reference")
    sides.push_back(cpudl::make_reference_side());
  else if (s.baseline == "builtin-optimized")
    sides.push_back(cpudl::make_optimized_side());
  else
    sides.push_back(make_cpudl_side("baseline", g_candidates[next++], s.task));
  sides.push_back(make_cpudl_side("candidate", g_candidates[next], s.task));
  return sides;
}

// --exhaustive N D K: every sequence of exactly K ops of set c d, clear c,
// set_freecpu c, clear_freecpu c and find d mask (every non-empty mask) over
// N CPUs and the first D of these deadlines (0, 1 and 2^64-1 straddle the
// wrap: dl_time_before() orders them 2^64-1 < 0 < 1).
constexpr std::uint64_t kExhaustiveDeadlines[] = {0, 1, ~std::uint64_t{0}, 2,
                                                  std::uint64_t{1} << 63};

}  // namespace

template <>
bool accepts_api<cpudl::Subject>(int api) {
  // every era's cpudeadline.c form, and only those (not another subject's)
  return api == KCHECK_API_V3_14 || api == KCHECK_API_V4_8 || api == KCHECK_API_V4_9 ||
         api == KCHECK_API_V6_19;
}

template <>
void setup_sides<cpudl::Subject>() {
  const Settings& s = g_settings;
  const auto& words = s.tool->builtin_baselines;
  if (is_builtin(s.baseline) && std::find(words.begin(), words.end(), s.baseline) == words.end())
    fail(fmt::format("baseline '{}': {} or a file", s.baseline, fmt::join(words, ", ")));
  g_sides.of<cpudl::Subject>() = [] {
    return std::make_unique<cpudl::Lockstep>(make_cpudl_sides());
  };
}

template <>
int exhaustive<cpudl::Subject>(const std::vector<unsigned>& b) {
  std::vector<std::string> ops;
  if (b.size() != 3 || b[1] > std::size(kExhaustiveDeadlines))
    fail(fmt::format("--exhaustive for cpudl is N D K (D at most {})",
                     std::size(kExhaustiveDeadlines)), kHarnessBadUsage);
  const unsigned n = b[0], d = b[1], k = b[2];
  for (unsigned c = 0; c < n; ++c) {
    for (unsigned i = 0; i < d; ++i)
      ops.push_back(fmt::format("set {} {}", c, kExhaustiveDeadlines[i]));
    ops.push_back(fmt::format("clear {}", c));
    ops.push_back(fmt::format("set_freecpu {}", c));
    ops.push_back(fmt::format("clear_freecpu {}", c));
  }
  for (unsigned i = 0; i < d; ++i)
    for (unsigned m = 1; m < (1u << n); ++m)
      ops.push_back(fmt::format("find {} {}", kExhaustiveDeadlines[i], mask_text(m, n)));
  cpudl::Config config;
  config.nr_cpu_ids = n;
  if (!g_settings.o.capacity.empty())
    fail("--exhaustive does not run with --capacity (its finds are not find_cap)",
         kHarnessBadUsage);
  return run_exhaustive<cpudl::Subject>(
      config, {ops}, k, fmt::format("{} ops, {} CPUs, {} deadlines", k, n, d));
}

// --mode=race (kernel-check --race): the lockless-reader analysis
// (subjects/cpudl/race.h) of every seed program (--seeds), then of
// --race-programs random programs, side 0 the baseline, side 1 the
// candidate, their stores logged by log_cpudl_store(). The random programs
// are the property run's (mode_check): bodies of random bytes from --seed
// through the total decoder (--nr-cpus shapes them), cut to their first
// kRaceMaxOps ops as the cpudl_race fuzz target cuts its inputs. A class
// only the candidate reaches is a finding: its program minimised to
// --output, its signature cpudl:reader:CLASS:OP in the record. The classes
// both reach go to the record's detail ("shared: torn at set, ...").
namespace {

constexpr std::size_t kRaceMaxOps = 64;

// One program's analysis: kHarnessOk to go on, kHarnessFinding (reported,
// its minimised program written to --output). `shared` collects the classes
// both sides reach.
int race_one(const io::Program<cpudl::Subject>& p, const std::string& from,
             const std::vector<cpudl::Side*>& sides, std::vector<std::string>& shared) {
  const tools::KernelCheckOptions& o = g_settings.o;
  const cpudl::race::RaceResult r = cpudl::race::analyze_race(p.config, p.ops, sides);
  if (!r.error.empty()) fail(fmt::format("race, {}: {}", from, r.error));
  ++record().programs;
  record().ops += p.ops.size();
  for (const auto& [cls, kind] : r.shared) {
    const std::string s = fmt::format("{} at {}", cpudl::race::class_name(cls),
                                      cpudl::race::op_kind_name(kind));
    if (std::find(shared.begin(), shared.end(), s) == shared.end()) shared.push_back(s);
  }
  if (r.findings.empty()) return kHarnessOk;
  const cpudl::race::RaceFinding& rf = r.findings.front();
  io::Program<cpudl::Subject> m = p;
  m.ops = cpudl::race::minimize_race(p.config, p.ops, sides, rf.signature);
  const cpudl::race::RaceResult mr = cpudl::race::analyze_race(m.config, m.ops, sides);
  cpudl::race::Example e = rf.example;
  for (const auto& g : mr.findings)
    if (g.signature == rf.signature) e = g.example;
  kernel::NrCpuIdsScope scope(m.config.nr_cpu_ids);
  fmt::print("FINDING {} in {}: the candidate's reader reaches {}, the baseline's never does\n"
             "  minimised: {} ops -> {} ops\n"
             "  at op #{} {} (an update of {} stores): {}\n  reader answers {}\n  reads: {}\n",
             rf.signature, from, cpudl::race::class_name(rf.cls), p.ops.size(), m.ops.size(),
             e.op_index, io::format_op(m.ops[e.op_index]), e.stores,
             cpudl::race::task_text(e.task), cpudl::race::answer_text(e), e.store_text);
  const std::string text = io::format_program(io::AnyProgram(m));
  fmt::print("---- reproducer ----\n{}----\n", text);
  std::ofstream(o.output) << text;
  record().signature = rf.signature;
  record().reproducer = o.output;
  record().detail = fmt::format("{}; {} ops: op #{}, {}", from, m.ops.size(), e.op_index,
                                e.store_text);
  return kHarnessFinding;
}

}  // namespace

int mode_race() {
  const tools::KernelCheckOptions& o = g_settings.o;
  if (g_settings.tool != &kCpudlTool) fail("--race is cpudl's", kHarnessBadUsage);
  std::vector<std::filesystem::path> files;
  if (!o.seeds.empty() && std::filesystem::is_directory(o.seeds))
    for (const auto& e : std::filesystem::directory_iterator(o.seeds))
      if (e.path().extension() == ".ops") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  auto owned = make_cpudl_sides();
  const std::vector<cpudl::Side*> sides{owned[0].get(), owned[1].get()};
  std::vector<std::string> shared;
  for (const auto& f : files) {
    std::string error;
    auto any = io::load_program(f.string(), nullptr, &error);
    if (!any) fail(error);
    const auto* p = std::get_if<io::Program<cpudl::Subject>>(&*any);
    if (!p) continue;
    if (int rc = race_one(*p, f.string(), sides, shared); rc != kHarnessOk) return rc;
  }
  const std::uint64_t seed_programs = record().programs;
  // The property run's random programs (mode_check draws the same bodies).
  std::mt19937_64 rng(o.seed);
  std::vector<std::uint8_t> body;
  for (unsigned long i = 0; i < o.race_programs; ++i) {
    body.resize(8 + rng() % 248);
    for (auto& b : body) b = static_cast<std::uint8_t>(rng());
    io::Program<cpudl::Subject> p = io::decode_body<cpudl::Subject>(shape_body(body));
    if (p.ops.size() > kRaceMaxOps) p.ops.resize(kRaceMaxOps);
    const std::string from = fmt::format("random program {} (seed {})", i, o.seed);
    const int rc = race_one(p, from, sides, shared);
    record().random_programs = i + 1;  // analysed, with a finding or not
    if (rc != kHarnessOk) return rc;
  }
  record().detail = shared.empty() ? "shared: none" : fmt::format("shared: {}", fmt::join(shared, ", "));
  fmt::print("race: no class only the candidate reaches over {} programs ({} seeds, {} random); "
             "{}\n",
             record().programs, seed_programs, record().random_programs, record().detail);
  return kHarnessOk;
}

// The fuzzing stage under --race: after its lockstep (harness.cpp), each
// input's program, cut to its first kRaceMaxOps ops as the random programs
// are, goes through the analysis, baseline vs candidate. A class only the
// candidate reaches: the record written (the inputs analysed before this
// one), the finding said, and abort() so that libFuzzer saves the input;
// kernel-check's minimisation of it (race_replay) finds it again.
void race_input(std::span<const std::uint8_t> body) {
  if (g_settings.tool != &kCpudlTool) fail("--race is cpudl's", kHarnessBadUsage);
  static const auto owned = make_cpudl_sides();  // reset by analyze_race()
  const std::vector<cpudl::Side*> sides{owned[0].get(), owned[1].get()};
  io::Program<cpudl::Subject> p = io::decode_body<cpudl::Subject>(body);
  if (p.ops.size() > kRaceMaxOps) p.ops.resize(kRaceMaxOps);
  // Bounded, so that one input cannot outlast --time (a deep heap at
  // nr_cpu_ids 8192 takes seconds in full). A cut analysis proves nothing
  // about the input: a class the candidate reached before the cut may be
  // one the baseline reaches after it (a finding is over the whole
  // program), and the replay's full analysis would not find it again. So a
  // cut input is counted, never reported.
  const cpudl::race::RaceResult r =
      cpudl::race::analyze_race(p.config, p.ops, sides, nullptr, false, tools::kRaceInputReaders);
  if (!r.error.empty()) fail(fmt::format("race, a fuzzing input: {}", r.error));
  if (r.cut_at) ++record().race_cut;
  if (r.cut_at || r.findings.empty()) {
    ++record().race_inputs;
    return;
  }
  const cpudl::race::RaceFinding& rf = r.findings.front();
  fmt::print(stderr,
             "\n==== diffsched: FINDING {} in a fuzzing input: the candidate's reader reaches "
             "{}, the baseline's never does\n",
             rf.signature, cpudl::race::class_name(rf.cls));
  record().outcome = "finding";
  record().signature = rf.signature;
  write_record_now();
  std::fflush(stderr);
  std::abort();
}

int race_replay(const io::AnyProgram& program, const std::string& from) {
  const auto* p = std::get_if<io::Program<cpudl::Subject>>(&program);
  if (!p) return kHarnessOk;
  io::Program<cpudl::Subject> cut = *p;
  if (cut.ops.size() > kRaceMaxOps) cut.ops.resize(kRaceMaxOps);
  auto owned = make_cpudl_sides();
  std::vector<std::string> shared;
  return race_one(cut, from, {owned[0].get(), owned[1].get()}, shared);
}

}  // namespace harness

}  // namespace diffsched::kcheck
