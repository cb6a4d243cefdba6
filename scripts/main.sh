#!/usr/bin/env bash
# The main job: install what is missing, build the CLI and the fuzz targets,
# and run a short fuzz campaign over all targets (CAMPAIGN_SECONDS, default
# 120, split between them). Ends with the campaign's Markdown summary; the
# reports and minimised reproducers are in campaign-out/. The corpus grows in
# build/campaign-corpus (seeded from corpus/), so the checked-in one is not
# touched. Exit status: 0 no new finding, 1 new finding, 2 could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
exec ./build/diffsched campaign --time "${CAMPAIGN_SECONDS:-120}" --jobs "$(nproc)" \
    --corpus build/campaign-corpus --out campaign-out
