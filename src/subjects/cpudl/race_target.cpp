// cpudl::Subject::reader_race() (lockstep.h): the fuzz target cpudl_race of
// src/registry.def. The body decodes as the cpudl target's does; its program
// runs through race::analyze_race() on the built-in swap heap (reference) and
// hole heap (optimized), every update op from the reference's state
// (same_state), with task_set()'s tasks. A class the hole heap's reader
// reaches at an op kind where the swap heap's never does in the program is a
// finding cpudl:reader:CLASS:OP. From different states the heaps differ
// through the known tie order (docs/findings.md), which the lockstep target
// covers; from the same state `race cpudl --exhaustive --same-state` proves
// small bounds, and this target searches beyond them.
//
// Bounded so that an input costs milliseconds, not seconds: the first
// kMaxOps ops of the program, and of task_set()'s tasks those with affinity
// all CPUs (every deadline it draws) plus the program's own finds, not the
// single-CPU ones (a `find` op of the program asks about any affinity).
#include <algorithm>
#include <memory>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "io/binary.h"
#include "io/text.h"
#include "subjects/cpudl/lockstep.h"
#include "subjects/cpudl/race.h"

namespace diffsched::cpudl {

namespace {

constexpr std::size_t kMaxOps = 64;

// task_set()'s tasks (race.h): blocks of one affinity mask (all CPUs first,
// then single CPUs) over the same deadlines, then one per find op.
std::vector<race::Task> fuzz_tasks(const Config& config, const std::vector<Op>& ops) {
  std::vector<race::Task> all = race::task_set(config, ops);
  std::size_t finds = 0;
  for (const Op& op : ops)
    finds += std::visit([](const auto& o) { return FindOp<std::decay_t<decltype(o)>> ? 1 : 0; }, op);
  const std::size_t masks = 1 + std::min(config.nr_cpu_ids, 16u);
  const std::size_t deadlines = (all.size() - finds) / masks;
  std::vector<race::Task> tasks(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(deadlines));
  tasks.insert(tasks.end(), all.end() - static_cast<std::ptrdiff_t>(finds), all.end());
  return tasks;
}

}  // namespace

std::span<const std::string_view> Subject::reader_classes() {
  return std::span<const std::string_view>(race::kClassNames).subspan(race::kStale);
}

Verdict Subject::reader_race(std::span<const std::uint8_t> body) {
  // Built once per thread, reset by analyze_race().
  thread_local std::unique_ptr<Side> ref = make_reference_side();
  thread_local std::unique_ptr<Side> opt = make_optimized_side();
  const std::vector<Side*> sides{ref.get(), opt.get()};
  io::Program<Subject> p = io::decode_body<Subject>(body);
  if (p.ops.size() > kMaxOps) p.ops.resize(kMaxOps);
  Verdict v;
  v.subject = kName;
  v.level = Level::kDeadline;
  v.ops_run = p.ops.size();
  const std::vector<race::Task> tasks = [&] {
    kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
    return fuzz_tasks(p.config, p.ops);
  }();
  const race::RaceResult r = race::analyze_race(p.config, p.ops, sides, &tasks, true);
  if (r.error.empty() && r.findings.empty()) return v;
  kernel::NrCpuIdsScope scope(p.config.nr_cpu_ids);
  Finding f;
  f.kind = FindingKind::kReader;
  f.subject = kName;
  f.against = "reference";
  if (!r.error.empty()) {  // a built-in side's store log failed: a bug of ours
    f.check = "analysis";
    f.op_kind = "any";
    f.side = "any";
    f.detail = r.error;
  } else {
    const race::RaceFinding& rf = r.findings.front();
    const race::Example& e = rf.example;
    f.check = std::string(race::class_name(rf.cls));
    f.op_kind = std::string(race::op_kind_name(rf.op_kind));
    f.op_index = e.op_index;
    f.op_text = io::format_op(p.ops[e.op_index]);
    f.side = r.sides[rf.side].name;
    f.field = "";
    f.where = race::task_text(e.task);
    f.actual = race::answer_text(e);
    f.expected = "no answer of this class from the reference's reader";
    f.detail = fmt::format("reads: {} (every op from the reference's state)", e.store_text);
  }
  f.check_file = __builtin_FILE();
  f.check_line = __builtin_LINE();
  v.finding = std::move(f);
  return v;
}

}  // namespace diffsched::cpudl
