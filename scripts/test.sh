#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run ctest (unit tests,
# RapidCheck properties, regression replays). Output ends with ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"
ctest --preset default -j"$(nproc)"
