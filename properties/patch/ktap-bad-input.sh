#!/bin/sh
# export --ktap-module / --boot: bad inputs are one line on stderr and exit 2,
# and nothing is written:   ktap-bad-input.sh DIFFSCHED SOURCE_DIR
set -u
ds=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktap-bad.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
seeds=$src/corpus/seeds ex=$src/kshim/examples
# bad WANT_PATTERN ARGS...
bad() {
  want=$1; shift
  "$ds" export "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = 2 ] || { echo "FAIL: exit $rc, not 2: export $*"; cat "$tmp/err"; exit 1; }
  [ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: stderr is not one line: export $*"; cat "$tmp/err"; exit 1; }
  grep -q "^diffsched: error: .*$want" "$tmp/err" || { echo "FAIL: no '$want': export $*"; cat "$tmp/err"; exit 1; }
  [ -e "$tmp/never" ] && { echo "FAIL: export $* wrote $tmp/never"; exit 1; }
  return 0
}
bad "names no candidate" --ktap-module "$seeds/cpudl/full-heap.ops" -o "$tmp/never"
bad "no such file" --ktap-module "$tmp/none.ops" --candidate "$ex/cpudl/v4.9-hole.c" -o "$tmp/never"
mkdir "$tmp/empty"
bad "no .ops file" --ktap-module "$tmp/empty" --candidate "$ex/cpudl/v4.9-hole.c" -o "$tmp/never"
mkdir "$tmp/mixed" && cp "$seeds/cpudl/full-heap.ops" "$seeds/pick/small.ops" "$tmp/mixed/"
bad "subject" --ktap-module "$tmp/mixed" --candidate "$ex/cpudl/v4.9-hole.c" -o "$tmp/never"
bad "one of --kmod, --ktap-module and --boot" --ktap-module "$seeds/cpudl/full-heap.ops" \
  --kmod "$seeds/cpudl/full-heap.ops" -o "$tmp/never"
bad "-o DIR is required" --ktap-module "$seeds/cpudl/full-heap.ops" --candidate "$ex/cpudl/v4.9-hole.c"
bad "--boot needs --log" --boot "$tmp/empty"
bad "not a directory of export --ktap-module" --boot "$tmp/empty" --log "$tmp/never"
echo ok
