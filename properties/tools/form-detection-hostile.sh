#!/bin/sh
# Issue 22 section 5: kernel-check's form detection never crashes. Builds
# variants of a correct example with a comment of SIZE bytes between every
# cpudl_* definition's name and its '(' and inside every return of
# cpudl_find(), then runs kernel-check on each: the verdict and the detected
# form must be those of the unmodified file (the std::regex detection died
# with SIGSEGV, exit 139, from 64 KB on).
#
#   form-detection-hostile.sh DIFFSCHED EXAMPLE.c SIZE... -- KERNEL-CHECK-ARGS...
set -u
diffsched=$1 example=$2
shift 2
sizes=
while [ "$1" != "--" ]; do sizes="$sizes $1"; shift; done
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
form() { grep '^form of ' "$1" | sed 's/^form of [^:]*: //'; }
"$diffsched" kernel-check cpudl --candidate "$example" "$@" --work-dir "$out/w0" >"$out/plain.log" 2>&1
want=$?
[ -n "$(form "$out/plain.log")" ] || { cat "$out/plain.log"; echo "FAIL: no form for $example"; exit 1; }
for size in $sizes; do
  awk -v size="$size" '
    BEGIN { c = "x(;{ "; while (length(c) < size) c = c c; c = "/*" substr(c, 1, size - 4) "*/" }
    /^(static )?(inline )?(int|void) cpudl_[a-z_]*\(/ { sub(/\(/, " " c "("); }
    /^int cpudl_find\(/ { infind = 1 }
    infind && /return / { sub(/return /, "return " c " ") }
    infind && /^}/ { infind = 0 }
    { print }' "$example" >"$out/hostile-$size.c"
  [ "$(wc -c <"$out/hostile-$size.c")" -gt "$size" ] || { echo "FAIL: no comment inserted"; exit 1; }
  "$diffsched" kernel-check cpudl --candidate "$out/hostile-$size.c" "$@" --work-dir "$out/w$size" \
    >"$out/$size.log" 2>&1
  got=$?
  if [ "$got" != "$want" ] || [ "$(form "$out/$size.log")" != "$(form "$out/plain.log")" ]; then
    tail -c 3000 "$out/$size.log"
    echo "FAIL: a $size-byte comment: exit $got (want $want), form '$(form "$out/$size.log")' (want '$(form "$out/plain.log")')"
    exit 1
  fi
  echo "ok: $size bytes: exit $got, $(form "$out/$size.log")"
done
