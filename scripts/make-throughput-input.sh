#!/usr/bin/env bash
# A fixed cpudl input for throughput figures: 300,000 pseudo-random body bytes
# (awk's srand(1)) behind the header "256 CPUs, window base 0", i.e. about
# 55,000 ops on a heap that fills up to 256 CPUs.
#   scripts/make-throughput-input.sh OUT
set -euo pipefail
LC_ALL=C awk 'BEGIN { srand(1); printf "%c%c", 14, 0; for (i = 0; i < 300000; i++) printf "%c", int(rand() * 256) }' >"$1"
