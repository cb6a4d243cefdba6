#!/usr/bin/env bash
# bench-agree.sh A.json B.json: do two `diffsched bench --json` runs agree?
# Exit 0 when every claim's verdict is the same text and every instruction
# ratio differs by less than 1% (relative); prints what differs otherwise.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 A.json B.json" >&2
  exit 2
fi
status=0
if ! diff <(jq -r '.claims[] | "\(.id): \(.verdict)"' "$1") \
          <(jq -r '.claims[] | "\(.id): \(.verdict)"' "$2"); then
  echo "bench-agree: verdicts differ" >&2
  status=1
fi
worst=$(paste <(jq -r '(.cpudl + .pick)[] | .ir_ratio' "$1") \
              <(jq -r '(.cpudl + .pick)[] | .ir_ratio' "$2") |
        awk '{ d = ($1 - $2) / $1; if (d < 0) d = -d; if (d > w) w = d } END { printf "%.6f", w + 0 }')
echo "bench-agree: $(jq '.claims | length' "$1") verdicts compared; largest relative instruction-ratio difference ${worst}"
if awk -v w="$worst" 'BEGIN { exit !(w >= 0.01) }'; then
  echo "bench-agree: instruction ratios differ by 1% or more" >&2
  status=1
fi
[[ $status -eq 0 ]] && echo "bench-agree: the two runs agree"
exit $status
