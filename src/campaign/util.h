// Small helpers of the campaign. The project is to have one shared helper
// each for trim, shell quoting and sanitizer SUMMARY parsing (issue 13,
// section 6); until it exists on main, the campaign's copies live here, in
// this one file, so that they can be swapped for the shared ones at merge.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diffsched::campaign {

namespace fs = std::filesystem;

// `s` without leading and trailing whitespace (std::isspace).
std::string trim(std::string_view s);

// `s` as one POSIX shell word: as is if it holds only [A-Za-z0-9-_./=:],
// else in single quotes ('\'' for a quote).
std::string shell_quote(const std::string& s);

// A sanitizer's "SUMMARY: Tool: kind where in fn" line as a signature,
// "sanitizer:Tool:kind:fn" (where if there is no function); nullopt if
// `line` is not a SUMMARY line.
std::optional<std::string> sanitizer_summary_signature(std::string_view line);

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
