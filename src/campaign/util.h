// Small helpers of the campaign. Trimming, shell quoting and sanitizer
// SUMMARY parsing are the shared ones of src/util/text.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/text.h"

namespace diffsched::campaign {

namespace fs = std::filesystem;

using util::sanitizer_summary_signature;
using util::shell_quote;
using util::trim;

// The regular files of `dir` whose names do not start with '.', sorted
// (none if it is missing).
std::vector<fs::path> regular_files(const fs::path& dir);

// A whole file as bytes; nullopt if unreadable.
std::optional<std::vector<std::uint8_t>> read_bytes(const fs::path& file);

// `p` relative to the current directory if it lies below it, else absolute.
std::string relative_or_absolute(const fs::path& p);

// Now, UTC, ISO 8601 ("2026-11-30T05:40:00Z").
std::string utc_now();

// Seconds as m:ss.
std::string mmss(double seconds);

}  // namespace diffsched::campaign
