// diffsched fn: how an array value is written, once for every printer (the
// input line of show_input(), the observation rows of observe.cpp, the
// minimiser's and the replay's lines), and what a per-CPU global is.
//
//   list_text({"0", "0", "0", "1"})        -> "[0 x3, 1]"
//   list_diff(old_elems, new_elems)        -> {"[5]={0-3}", "[5]={}"}, 1 differing
//   leaves_diff(old_fields, new_fields)    -> {"{dst_cpu=73}", "{dst_cpu=70}"}, 1 differing
//
// A run of kMinRun or more equal consecutive elements is written once,
// followed by ` xN` (the form docs/fn.md already used for sort's inputs,
// `[0 x8, 1 x4]`); parse_input() (minimize.h) reads it back, so the text
// still names every element (docs/input-format.md, "`diffsched fn`").
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "fn/model.h"

namespace diffsched::fn {

// A run of this many equal elements or more is written `VALUE xN`.
constexpr std::size_t kMinRun = 3;

// The copies of a per-CPU variable: KSHIM_NR_PERCPU of
// kshim/include/kshim/percpu.h (DEFINE_PER_CPU(T, v) is `T v[128]`).
constexpr std::int64_t kPerCpuCopies = 128;

// Whether a slot is a per-CPU variable's copies: a covered global that the
// shim's DEFINE_PER_CPU or DECLARE_PER_CPU made (extraction's
// GlobalRead::per_cpu, from the KSHIM_PER_CPU mark), a fixed array of
// kPerCpuCopies elements; not a file's own array of that size. Its copies at or past nr_cpu_ids exist in
// the shim only (the kernel has per-CPU areas for possible CPUs): the
// generator gives them zero values, so they print as one run.
bool is_per_cpu(const Slot& slot);

// `[E, E xN, ...]`: the elements' texts, runs of kMinRun or more equal
// ones collapsed. O(total length).
std::string list_text(const std::vector<std::string>& elems);

// The differing elements of two arrays of the same length, each side's
// text: `[I]=V` for each, or `[I-J]=V` for consecutive ones that are equal
// on each side, separated by ", " and each padded to the other side's
// width so the two lines line up. `count` is the number of elements that
// differ (0: the texts are empty).
struct ListDiff {
  std::string old_text, new_text;
  std::size_t count = 0;
};
ListDiff list_diff(const std::vector<std::string>& a, const std::vector<std::string>& b);

// A struct's leaves, each a field's path below the struct and its text:
// {"dst_stats.idle_cpu", "-1"}.
using Leaves = std::vector<std::pair<std::string, std::string>>;

// The differing leaves of two structs of the same fields, each side's text
// `{PATH=V, ...}` (aligned as list_diff's) and their count; count 0 when
// the two lists are not of the same fields (the caller prints them whole).
ListDiff leaves_diff(const Leaves& a, const Leaves& b);

}  // namespace diffsched::fn
