// diffsched fn: the shim's era, the kernel whose shapes a side is built
// against (kshim's KSHIM_KERNEL_VERSION: where kernels name or shape a thing
// differently, util_est, the SD_* list, cpumask_next_wrap(), ...).
//
//   resolve_era(spec, old_file, new_file, try_at)  // given, the tree's, or the newest that builds
//
// Given (--kernel-version) it is used as is. Else the Makefile of the
// kernel tree a file sits in names it (VERSION, PATCHLEVEL). Else the
// shim's default (v6.19) is tried, and when a unit does not compile, each
// era of kShimEras, newest first: the first that builds is used, and said.
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "fn/model.h"

namespace diffsched::fn {

// The first version of each shape the shim's headers change at, newest
// first: one era per interval, tried in this order. Every KSHIM_KV(X, Y) the
// shim's headers test is here (ctest FnEra.EveryShimGateIsAnEra).
inline constexpr std::array<std::string_view, 13> kShimEras = {
    "6.17", "6.15", "6.14", "6.12", "6.9", "6.8", "6.7", "6.6", "6.5", "6.0", "5.14", "4.19", "4.18"};
inline constexpr std::string_view kShimDefaultEra = "6.19";

// "" or why `text` is no --kernel-version for fn (MAJOR.MINOR, 3.0 to 7.x).
std::string check_fn_kernel_version(std::string_view text);

// The version the kernel tree holding `file` names in its top Makefile
// (the nearest parent directory whose Makefile has VERSION = and
// PATCHLEVEL = in its first lines), with that Makefile; nullopt outside a tree.
struct TreeVersion {
  std::string version;
  std::filesystem::path makefile;
};
std::optional<TreeVersion> tree_version(const std::filesystem::path& file);

// How a run's era was chosen: spec.kernel set to it ("" : the default),
// and the line the run's header shows ("" : the default, nothing to say).
struct EraChoice {
  std::string version;
  std::string why;
};

// Chooses the era for a pair and prepares it: `try_at(spec, &error)` is
// the preparation (true when it worked); `compile_failed()` says whether
// the last failure was a unit that does not compile (only that is retried
// at other eras). On failure *error is the default era's error, with the
// eras tried named.
bool resolve_era(Spec spec, const std::string& old_file, const std::string& new_file,
                 const std::function<bool(const Spec&, std::string*)>& try_at,
                 const std::function<bool()>& compile_failed, EraChoice* choice, std::string* error);

}  // namespace diffsched::fn
