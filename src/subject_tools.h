// The subjects the tools work on (kernel-check, its harness, --in-kernel,
// export, perf, mutate, campaign), one descriptor each, listed once. A
// subcommand word or a program's `subject` line is resolved here, at the
// edge (find_subject_tool); every mode then reads the descriptor's fields, or
// dispatches on its C++ subject type (with_tool_subject), and never compares
// the name. ctest `contract.subject-names` fails on a `== "cpudl"` (or
// "pick") outside this file, subject_tools.cpp and the registries.
//
//   const SubjectTool* t = find_subject_tool("pick");        // null if none
//   t->perf_cpus                                               // {8, 64, 512, 4096, 8192}
//   with_tool_subject(*t, [&]<class S>(std::type_identity<S>) { r = run<S>(); });
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/verdict.h"
#include "subjects.h"
#include "targets.h"

namespace diffsched {

// What kernel-check checks of a candidate file.
enum class CandidateShape {
  kHeapApi,   // the cpudl_* API of a cpudeadline.c, in one of its era forms
  kFunction,  // one named function (--function) of a kernel-style file
};

struct SubjectTool {
  std::string_view name;  // the subcommand word: a Subject::kName
  std::size_t index;      // its place in Subjects (subjects.h)
  Level default_level;    // S::kDefaultLevel: kernel-check's --level default
  CandidateShape shape;
  // kernel-check
  std::string_view kcheck_help;  // its subcommand's line in `kernel-check --help`
  std::string_view tree_file;    // the kernel tree's file it checks (check-patch routes it here)
  bool patch_whole_file;         // check-patch: one run checks the file (else one per function)
  std::span<const std::string_view> builtin_baselines;  // --baseline's built-in words
  bool capacities;      // --capacity applies (cpudl_find()'s capacity branch)
  bool alloc_failures;  // the file allocates (cpudl_init()): --fail-alloc has paths to fail
  std::string_view answer_field;  // the in-kernel record's answer field, by its lockstep name
  unsigned in_kernel_cpus;        // --in-kernel's nr_cpu_ids without --nr-cpus
  // perf (and the campaign's perf step)
  std::span<const unsigned> perf_cpus;
  std::size_t perf_max_ops;
  std::span<const std::string_view> perf_sides;  // the reference first
  std::span<const std::string_view> perf_metrics;  // what it counts (perf/cost.h's Metric names)
  std::string_view perf_metric;                    // the default --metric: the first of them
  // mutate: the functions a mutant may change, and its constants
  std::string_view mutate_prefix;  // functions named so; "" for shape kFunction (--function)
  std::span<const std::string_view> mutate_constants;
  std::string_view mutate_help;
  // the bounded exhaustive check (kernel-check --exhaustive, mutate's survivors)
  std::span<const unsigned> equiv_bounds;  // the default bounds
  // What each bound is, in order (mutate's report names them): "cpus",
  // "deadlines", "ops". A subject without an "ops" bound enumerates programs
  // of exhaustive_ops ops.
  std::span<const std::string_view> equiv_bound_names;
  unsigned exhaustive_ops;
  std::string_view equiv_bounds_help;
};

namespace subject_tool_data {
inline constexpr std::string_view kCpudlBaselines[] = {"builtin-reference", "builtin-optimized"};
inline constexpr std::string_view kPickBaselines[] = {"builtin-reference", "builtin-optimized",
                                                      "builtin-fused"};
inline constexpr unsigned kCpudlPerfCpus[] = {8, 64, 256};
inline constexpr unsigned kPickPerfCpus[] = {8, 64, 512, 4096, 8192};
inline constexpr std::string_view kCpudlSides[] = {"reference", "optimized"};
inline constexpr std::string_view kCpudlMetrics[] = {"accesses", "loads", "stores", "compares"};
inline constexpr std::string_view kPickMetrics[] = {"work", "words", "iterations"};
inline constexpr std::string_view kPickSides[] = {"reference", "optimized", "fused"};
// A pick file has no IDX_INVALID (a cpudl name); its "none" is -1 or nr_cpu_ids.
inline constexpr std::string_view kCpudlConstants[] = {"IDX_INVALID", "0", "1", "nr_cpu_ids"};
inline constexpr std::string_view kPickConstants[] = {"-1", "0", "1", "nr_cpu_ids"};
inline constexpr unsigned kCpudlBounds[] = {3, 3, 3};
inline constexpr unsigned kPickBounds[] = {4};
inline constexpr std::string_view kCpudlBoundNames[] = {"cpus", "deadlines", "ops"};
inline constexpr std::string_view kPickBoundNames[] = {"cpus"};
}  // namespace subject_tool_data

inline constexpr SubjectTool kCpudlTool{
    .name = cpudl::Subject::kName,
    .index = subject_index<cpudl::Subject>(),
    .default_level = cpudl::Subject::kDefaultLevel,
    .shape = CandidateShape::kHeapApi,
    .kcheck_help = "check a cpudeadline.c (API v3.14..v3.18, v3.19..v4.8, v4.9..v6.18 or v6.19+)",
    .tree_file = "kernel/sched/cpudeadline.c",
    .patch_whole_file = true,
    .builtin_baselines = subject_tool_data::kCpudlBaselines,
    .capacities = true,
    .alloc_failures = true,
    .answer_field = "find.ret",
    .in_kernel_cpus = 8,
    .perf_cpus = subject_tool_data::kCpudlPerfCpus,
    .perf_max_ops = 64,
    .perf_sides = subject_tool_data::kCpudlSides,
    .perf_metrics = subject_tool_data::kCpudlMetrics,
    .perf_metric = "accesses",
    .mutate_prefix = "cpudl_",
    .mutate_constants = subject_tool_data::kCpudlConstants,
    .mutate_help = "mutate the cpudl_* functions of a cpudeadline.c",
    .equiv_bounds = subject_tool_data::kCpudlBounds,
    .equiv_bound_names = subject_tool_data::kCpudlBoundNames,
    .exhaustive_ops = 0,
    .equiv_bounds_help = "bounds of the exhaustive check of each survivor: N D K (CPUs, "
                         "deadlines of 0, 1, 2^64-1, 2, 2^63, ops; default 3 3 3)",
};

inline constexpr SubjectTool kPickTool{
    .name = pick::Subject::kName,
    .index = subject_index<pick::Subject>(),
    .default_level = pick::Subject::kDefaultLevel,
    .shape = CandidateShape::kFunction,
    .kcheck_help = "check a kernel-style destination pick function",
    .tree_file = "kernel/sched/fair.c",
    .patch_whole_file = false,
    .builtin_baselines = subject_tool_data::kPickBaselines,
    .capacities = false,
    .alloc_failures = false,
    .answer_field = "cpu",
    .in_kernel_cpus = 64,
    .perf_cpus = subject_tool_data::kPickPerfCpus,
    .perf_max_ops = 4,
    .perf_sides = subject_tool_data::kPickSides,
    .perf_metrics = subject_tool_data::kPickMetrics,
    .perf_metric = "work",
    .mutate_prefix = "",
    .mutate_constants = subject_tool_data::kPickConstants,
    .mutate_help = "mutate a kernel-style destination pick function",
    .equiv_bounds = subject_tool_data::kPickBounds,
    .equiv_bound_names = subject_tool_data::kPickBoundNames,
    .exhaustive_ops = 1,  // one call of the function
    .equiv_bounds_help = "bounds of the exhaustive check of each survivor: N (CPUs, 1..6; "
                         "default 4: every mask triple)",
};

// The list, written once: the subcommands of kernel-check, mutate and perf
// are made from it, in this order.
inline constexpr std::array<const SubjectTool*, 2> kSubjectTools{&kCpudlTool, &kPickTool};

// Every descriptor names each of its default exhaustive bounds.
static_assert([] {
  for (const SubjectTool* t : kSubjectTools)
    if (t->equiv_bounds.size() != t->equiv_bound_names.size()) return false;
  return true;
}());

// The descriptor of `name`; null if no tool works on it.
const SubjectTool* find_subject_tool(std::string_view name);
std::string subject_tool_names();  // "cpudl, pick"
std::vector<std::string_view> subject_tool_words();  // {"cpudl", "pick"}

// The registry's lockstep fuzz target of the subject at `level` (its
// default-level one if it has none at that level): what kernel-check fuzzes.
const FuzzTarget* lockstep_target(const SubjectTool& tool, Level level);

// The C++ subject types of kSubjectTools, in its order.
using ToolSubjects = std::tuple<cpudl::Subject, pick::Subject>;

// Whether S is one of ToolSubjects (the tools' modes are instantiated for it).
template <class S>
inline constexpr bool kIsToolSubject = []<class... T>(std::type_identity<std::tuple<T...>>) {
  return (std::is_same_v<S, T> || ...);
}(std::type_identity<ToolSubjects>{});

// Calls f(std::type_identity<S>{}) for the tool's C++ subject type (the
// first of ToolSubjects if none matches, which kSubjectTools rules out).
template <class F>
void with_tool_subject(const SubjectTool& tool, F&& f) {
  bool done = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((!done && tool.index == subject_index<std::tuple_element_t<I, ToolSubjects>>()
          ? (done = true, f(std::type_identity<std::tuple_element_t<I, ToolSubjects>>{}))
          : void()),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<ToolSubjects>>{});
  if (!done) f(std::type_identity<std::tuple_element_t<0, ToolSubjects>>{});
}

// The descriptor of a C++ subject type of ToolSubjects.
template <class S>
constexpr const SubjectTool& tool_of() {
  for (const SubjectTool* t : kSubjectTools)
    if (t->index == subject_index<S>()) return *t;
  throw "not a subject of kSubjectTools";  // a compile error where constant-evaluated
}

// The bounded exhaustive check's bounds: "" if `bounds` are valid for the
// subject, else the one-line reason; the number of programs they enumerate;
// and a sentence for reports ("59319 programs of <= 3 ops, 3 CPUs, ...").
std::string check_equiv_bounds(const SubjectTool& tool, const std::vector<unsigned>& bounds);
std::uint64_t exhaustive_programs(const SubjectTool& tool, const std::vector<unsigned>& bounds);
std::string exhaustive_bounds_text(const SubjectTool& tool, const std::vector<unsigned>& bounds);

// A tool subject's part of the above and of mutate, in its package
// (src/subjects/<name>/tool.cpp, built into diffsched_engine by name): each
// subject of ToolSubjects defines all of these, and a missing one is a link
// error. The generic functions dispatch on the descriptor (with_tool_subject),
// so the candidate's shape is never branched on outside a package.
//   equiv_bounds_error<S>(b), equiv_programs<S>(b), equiv_bounds_text<S>(b)
//                 the three functions above, for S
//   mutates_function<S>(name, function)  whether mutate changes the function
//                 `name` of a candidate (cpudl: a cpudl_* one; pick: the
//                 --function one)
//   mutate_scope<S>(function)  what mutate changes, for its "defines no ..."
//                 error: "cpudl_* function", "function F() (--function)"
template <class S>
std::string equiv_bounds_error(const std::vector<unsigned>& bounds);
template <class S>
std::uint64_t equiv_programs(const std::vector<unsigned>& bounds);
template <class S>
std::string equiv_bounds_text(const std::vector<unsigned>& bounds);
template <class S>
bool mutates_function(std::string_view name, std::string_view function);
template <class S>
std::string mutate_scope(std::string_view function);
bool mutates_function(const SubjectTool& tool, std::string_view name, std::string_view function);
std::string mutate_scope(const SubjectTool& tool, std::string_view function);

}  // namespace diffsched
