// A campaign's options, checked before anything is created, built or run:
// the targets, and every path option (what it must be, one-line errors that
// name the flag and the path). campaign/campaign.h runs them first.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "campaign/campaign.h"
#include "targets.h"

namespace diffsched::campaign {

// The targets to fuzz (all if none is named); nullopt and *error on an unknown name.
std::optional<std::vector<const FuzzTarget*>> resolve_targets(const CampaignOptions& o,
                                                              std::string* error);

// --fuzz-dir / --afl-dir: an existing directory with an executable per target.
bool check_binary_dir(std::string_view flag, const std::filesystem::path& dir,
                      std::string_view preset, const std::vector<const FuzzTarget*>& targets,
                      std::string* error);

// --fuzz-dir, --afl-dir (only with --engine afl), --corpus, CORPUS/<target>
// and --out: each a writable directory or a path where one can be created;
// --out and --corpus must not overlap.
bool check_paths(const CampaignOptions& o, const std::vector<const FuzzTarget*>& targets,
                 std::string* error);

}  // namespace diffsched::campaign
