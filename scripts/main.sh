#!/usr/bin/env bash
# The main job: install what is missing, build, run the property-based
# differential tests of both subjects and replay the checked-in regressions.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)"

echo
echo "== RapidCheck on the exact level: the tie divergence it finds and shrinks"
./build/properties/cpudl_properties --gtest_brief=1 \
    --gtest_filter='Cpus/CpudlExactLevel.*/0' 2>&1 | grep -Ev '^(Running main|Note:|\[)' || true

echo "== The same divergence replayed as a trace"
./build/diffsched replay --level exact corpus/regressions/cpudl/tie-exact.ops || true

echo
echo "== Property-based differential tests and regression replays"
ctest --test-dir build -L 'property|regression' -j"$(nproc)"
