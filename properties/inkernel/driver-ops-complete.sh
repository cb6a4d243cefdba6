#!/bin/sh
# ctest inkernel.driver.ops-complete: the in-kernel driver replays every op
# of the shared op table (kshim/abi/kc_ops.h, KC_CPUDL_OPS):
#   driver-ops-complete.sh SOURCE_DIR
# the driver's cpudl part (kshim/kmod/kc_subject_cpudl.c) compiles as is,
# with -Wall -Werror (so no handler lacks its row: an unused function), and
# not with one row more than it has handlers for: the error names the
# missing kc_op_<name>. The protocol's part (kc_driver.c) and every
# subject's part compile with -Wall -Werror.
set -eu
src=$1
cc=${CC:-cc}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
for unit in "$src"/kshim/kmod/kc_driver.c "$src"/kshim/kmod/kc_subject_*.c; do
  "$cc" -std=gnu11 -fsyntax-only -Wall -Werror -I"$src/kshim/abi" "$unit"
done
# The table with a row after its last one.
awk '{ line[NR] = $0 } /^[ \t]*X\(/ { last = NR }
     END { for (i = 1; i <= NR; i++) {
             print line[i] (i == last ? " \\" : "")
             if (i == last) print "\tX(\047~\047, planted_op)"
           } }' "$src/kshim/abi/kc_ops.h" >"$d/kc_ops.h"
grep -q "planted_op" "$d/kc_ops.h" || { echo "FAIL: no X( row in kc_ops.h to plant after"; exit 1; }
if "$cc" -std=gnu11 -fsyntax-only -I"$d" -I"$src/kshim/abi" "$src/kshim/kmod/kc_subject_cpudl.c" >"$d/log" 2>&1; then
  echo "FAIL: kc_subject_cpudl.c compiled with an op it has no handler for"
  exit 1
fi
grep -q "kc_op_planted_op" "$d/log" || { echo "FAIL: kc_subject_cpudl.c failed, but not for the missing handler:"; head -5 "$d/log"; exit 1; }
echo "ok: kc_subject_cpudl.c has a handler for every op of kc_ops.h, and a row without one does not compile"
