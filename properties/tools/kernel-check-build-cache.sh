#!/bin/sh
# kernel-check's build cache (src/kcheck/build_cache.h): the same build is
# reused, and anything the compile reads changes the key.
#   kernel-check-build-cache.sh DIFFSCHED SOURCE_DIR
#  1. a pick candidate that #includes a header outside its directory, by an
#     absolute path: built on the first run, reused on the second;
#  2. that header changed (one macro, which plants a bug): built again, and
#     the finding is found (a stale .so would pass);
#  3. DIFFSCHED_BUILD_CACHE=off: built, never reused;
#  4. a candidate that does not compile: exit 2 on both runs, nothing kept.
set -u
. "$(dirname "$0")/../support/testlib.sh"
diffsched=$1 src=$2
tmp=$(mktemp -d /var/tmp/diffsched-build-cache.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export DIFFSCHED_BUILD_CACHE="$tmp/cache"
fast="--time 0 --no-build --runs 50"

printf '#define PICK_SKEW 0\n' >"$tmp/skew.h"
sed -e "s|^#include <linux/cpumask.h>|&\n#include \"$tmp/skew.h\"|" \
    -e 's|new_dst_cpu = cpu;|new_dst_cpu = cpu + PICK_SKEW;|' \
    "$src/kshim/examples/pick/reference.c" >"$tmp/cand.c"
grep -q PICK_SKEW "$tmp/cand.c" || { echo "FAIL: could not make the candidate"; exit 1; }

built() {  # built WANT_STATUS fresh|cached LABEL
  "$diffsched" kernel-check pick --candidate "$tmp/cand.c" $fast >out.log 2>&1
  rc=$?
  [ "$rc" -eq "$1" ] || { fail "$3: exit $rc, expected $1"; sed 's/^/  | /' out.log | head -20; return; }
  if grep -q '^  built .*from the build cache' out.log; then got=cached
  elif grep -q '^  built ' out.log; then got=fresh
  else got=none; fi
  [ "$got" = "$2" ] || { fail "$3: the build was $got, expected $2"; grep '^  built' out.log; }
}
built 0 fresh "first run"
built 0 cached "same file again"
[ "$(ls cache/*.so 2>/dev/null | wc -l)" -eq 1 ] || fail "expected one cache entry: $(ls cache)"
printf '#define PICK_SKEW 1\n' >"$tmp/skew.h"
built 1 fresh "the included header changed"
built 1 cached "the changed header again"
(DIFFSCHED_BUILD_CACHE=off; built 1 fresh "cache off"; exit "$fails") || fails=$((fails + 1))
(DIFFSCHED_BUILD_CACHE=off; built 1 fresh "cache off, again"; exit "$fails") || fails=$((fails + 1))

before=$(ls cache/*.so | wc -l)
printf 'int select_dst_cpu(void) { return }\n' >"$tmp/cand.c"
for n in 1 2; do
  "$diffsched" kernel-check pick --candidate "$tmp/cand.c" $fast >out.log 2>&1
  rc=$?
  [ "$rc" -eq 2 ] || fail "a file that does not compile, run $n: exit $rc, expected 2"
done
[ "$(ls cache/*.so | wc -l)" -eq "$before" ] || fail "a failed build was kept in the cache"
[ "$fails" -eq 0 ] && echo "kernel-check build cache: ok"
[ "$fails" -eq 0 ]
