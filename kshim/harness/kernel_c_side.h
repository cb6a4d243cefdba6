// A kernel C file compiled through the kshim, as the harness loads it: its
// table (kcheck_abi.h), from its own shared object so that two candidates
// never share a symbol. The sides that call it are each subject's
// (src/subjects/<name>/kcheck_harness.cpp: cpudl's heap side, pick's
// function sides).
//
//   auto cand = kcheck::load_candidate("build-fuzz/kcheck/run-1/candidate.so", &error);
//
// Every API form is adapted to the v4.9..v6.18 meaning by the C glue.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kcheck_abi.h"

namespace diffsched::kcheck {

struct Candidate {
  std::string path;  // the shared object
  const kcheck_candidate* table = nullptr;
};

// dlopen(RTLD_NOW | RTLD_LOCAL) + the table; nullopt with a one-line reason.
std::optional<Candidate> load_candidate(const std::string& so_path, std::string* error);

// The task cpudl_find() is asked about, for the capacity branch: its
// dl_runtime and dl_deadline (relative), and the CPU it runs on.
struct TaskShape {
  unsigned long long dl_runtime = 1ULL << 19;
  unsigned long long dl_deadline = 1ULL << 20;
  unsigned task_cpu = 0;
  bool asym_capacity = false;  // the capacity branch is on (KCHECK_CAPACITY)
  std::vector<unsigned long> capacity;  // its capacities then (repeated over the CPUs)
  // No fixed --task-util: each find asks about its own task, drawn from the
  // find's fields (task_for_find), so that the capacity branch's "fits",
  // "does not fit" and "fallback to the largest capacity (tie: the task's
  // CPU)" paths are all reached.
  bool per_find = false;
};

// The task of one find when TaskShape::per_find: a pure function of the op's
// deadline and affinity (every side, a replay and the minimiser see the same
// task): a utilisation (dl_runtime/dl_deadline, in 1024ths) from 1 to 1024
// and, as the CPU the task runs on, one CPU of the affinity below nr_cpu_ids
// (CPU 0 when there is none).
TaskShape task_for_find(const TaskShape& base, unsigned long long dl, const unsigned long* affinity,
                        unsigned nr_cpu_ids);
// "util U/1024, on CPU C": how a trace or a finding names it.
std::string describe_task(const TaskShape& t);

// The candidate's pending WARN_ON() record, "file:line: what" ("" if none).
std::string format_warning(const kcheck_candidate& t);

std::string_view api_name(int api);  // kcheck_abi.h's name of the form: "v4.9", "pick"

}  // namespace diffsched::kcheck
