#!/usr/bin/env bash
# Fixed inputs for throughput figures (replay --stats, docs/fuzzing.md):
# 300,000 pseudo-random body bytes (awk's srand(1)) behind a binary header.
#   scripts/make-throughput-input.sh OUT          cpudl: "256 CPUs, window base 0",
#                                                 about 55,000 ops on a heap that fills up
#   scripts/make-throughput-input.sh OUT pick     pick: 8192 CPUs (header byte 15),
#                                                 masks of every form
set -euo pipefail
case ${2:-cpudl} in
  cpudl) header='printf "%c%c", 14, 0' ;;
  pick) header='printf "%c", 15' ;;
  *) echo "diffsched: error: make-throughput-input.sh: unknown subject '$2' (cpudl or pick)" >&2; exit 2 ;;
esac
LC_ALL=C awk "BEGIN { srand(1); $header; for (i = 0; i < 300000; i++) printf \"%c\", int(rand() * 256) }" >"$1"
